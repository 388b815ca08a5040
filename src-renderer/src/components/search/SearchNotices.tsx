import { useEffect, useState, type ReactNode } from 'react';
import type { SearchResponse, SearchStatus } from '../../../../src-shared/contract/search';
import { classifyServiceFailure, type ServiceFailureClass } from '../../../../src-shared/contract/service-wait';
import type { AppError, AppErrorData } from '../../../../src-shared/errors';

const STATE_LABEL: Record<SearchStatus['service']['state'], string> = {
  online: 'service online',
  slow: 'service slow: it answers, but late or with errors',
  offline: 'offline: no answer from the service',
  unconfigured: 'service not set up',
  unknown: 'service not contacted yet',
};

/** Offline (no answer), slow (busy or late), refused (key, quota, request): each asks something else of the user. */
const CLASS_TITLE: Record<ServiceFailureClass, string> = { offline: 'Offline', slow: 'Service busy', refused: 'Refused' };

function failureTitle(err: AppErrorData): string {
  // Nothing the service said: a name (`@Zorro`) or a thing of the library that is not there.
  if (err.kind === 'not_found') return 'Not found';
  const cls = classifyServiceFailure(err);
  return cls === 'refused' && (err.kind === 'auth' || err.kind === 'quota') ? `Refused (${err.kind === 'auth' ? 'API key' : 'quota'})` : CLASS_TITLE[cls];
}

/** One line about where things stand: the service, the index, the cache. */
export function StatusLine({ status }: { status: SearchStatus | null }): ReactNode {
  if (!status) return null;
  const s = status.service.state;
  const label = STATE_LABEL[s];
  const idx = status.index;
  return (
    <div className="row sv-status sv-small" data-testid="search-status" data-service={s}>
      <span className={`sv-dot sv-dot-${s}`} aria-hidden />
      <span>{label}</span>
      <span className="muted">·</span>
      <span className="muted">
        {idx.state === 'ready' ? `${idx.size.toLocaleString()} segments indexed` : idx.state === 'rebuilding' ? 'rebuilding the index from the catalog…' : idx.state === 'loading' ? 'loading the index…' : `index error: ${idx.error ?? ''}`}
      </span>
      <span className="muted">·</span>
      <span className="muted">{status.cachedQueries} queries cached for offline use</span>
      {idx.state === 'ready' && idx.origin && /^rebuilt \((crashed|corrupt|unreadable)/.test(idx.origin) && (
        <span className="sv-warn" data-testid="index-rebuilt" title={idx.origin}>
          · search index rebuilt from the catalog ({idx.origin.replace(/^rebuilt \(|\)$/g, '')}); nothing was lost
        </span>
      )}
    </div>
  );
}

/** What the tooltip of the emulator note says: README.md "The service emulator" at more length. */
const EMULATOR_DETAIL =
  'The service emulator (test/emulator) is the project\'s test double of the cloud service, not a model. Its embeddings are colour and brightness ' +
  'statistics of the frames, and its text knows only colour and brightness words (red, blue, dark, bright…); camera words (wide, close-up, static, handheld) ' +
  'work as filters on its placeholder tags. Any other words ("dog", "a man running") rank by an arbitrary colour mix. Judge search against a real service. ' +
  'See README.md, "The service emulator".';

/**
 * Said while the service that answers is the project's emulator (it names itself in a header): so
 * nobody judges the product's search by a test double's colour statistics.
 */
export function EmulatorNote({ status }: { status: SearchStatus | null }): ReactNode {
  if (!status?.service.emulator) return null;
  return (
    <div className="sv-note sv-small sv-emulator" role="note" data-testid="service-emulator" title={EMULATOR_DETAIL}>
      Connected to the Reelscout service emulator: search follows colours and tags, not meaning. <span className="muted">(README, “The service emulator”)</span>
    </div>
  );
}

/** Why a search could not run, where its query came from, what the collection search said. */
export function SearchNotices({ response, error }: { response: SearchResponse | null; error: AppError | null }): ReactNode {
  if (error) {
    return (
      <div className="banner error" role="alert" data-testid="search-error">
        <strong>{error.kind}</strong>
        <span>{error.message}</span>
      </div>
    );
  }
  if (!response) return null;
  return (
    <>
      {response.cannotRun && (
        <div
          className={`banner${classifyServiceFailure(response.cannotRun) === 'refused' ? ' error' : ''}`}
          role="alert"
          data-testid="search-cannot-run"
          data-kind={response.cannotRun.kind}
          data-class={classifyServiceFailure(response.cannotRun)}
        >
          <strong>{failureTitle(response.cannotRun)}</strong>
          <span>{response.cannotRun.message}</span>
        </div>
      )}
      {response.query.origin === 'cache' && (
        <div className="sv-note sv-small" data-testid="search-from-cache">
          Query embedding from the cache (saved {response.query.cachedAt ? new Date(response.query.cachedAt).toLocaleString() : 'earlier'}): no service call was needed.
        </div>
      )}
      {response.collections?.error && (
        <div className="sv-note sv-warn sv-small" data-testid="collection-error">
          Collection search skipped ({response.collections.error.kind}): {response.collections.error.message}. Local results are shown.
        </div>
      )}
    </>
  );
}

/**
 * While a call someone waits for is being tried again: what the service said, how often, and how
 * long until the app gives up (the deadline main retries within).
 */
export function ServiceWait({ status }: { status: SearchStatus | null }): ReactNode {
  const waiting = status?.service.waiting ?? null;
  // Re-rendered twice a second so the countdown moves; the time itself is read at render.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => setTick((n) => n + 1), 500);
    return () => clearInterval(t);
  }, [waiting]);
  if (!waiting) return null;
  const now = Date.now();
  const total = Math.max(1, waiting.deadlineAt - waiting.since);
  const left = Math.max(0, Math.ceil((waiting.deadlineAt - now) / 1000));
  const what = waiting.error.status ? `it answered ${waiting.error.status}` : classifyServiceFailure(waiting.error) === 'offline' ? 'no answer' : 'no answer in time';
  return (
    <div className="banner sv-waiting" role="status" aria-live="polite" data-testid="search-waiting" data-attempts={waiting.attempts}>
      <strong>{classifyServiceFailure(waiting.error) === 'offline' ? 'Reaching the service…' : 'The service is slow'}</strong>
      <span>
        {what}; trying again (attempt {waiting.attempts + 1}), giving up in {left} s.
      </span>
      <progress max={total} value={Math.min(total, now - waiting.since)} aria-label="Time waited for the service" />
    </div>
  );
}
