import type { ReactNode } from 'react';
import type { SearchResponse, SearchStatus } from '../../../../src-shared/contract/search';
import type { AppError } from '../../../../src-shared/errors';

/** One line about where things stand: the service, the index, the cache. */
export function StatusLine({ status }: { status: SearchStatus | null }): ReactNode {
  if (!status) return null;
  const s = status.service.state;
  const label = s === 'online' ? 'service online' : s === 'offline' ? 'offline' : s === 'unconfigured' ? 'service not set up' : 'service not contacted yet';
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
        <div className={`banner${response.cannotRun.kind === 'offline' ? '' : ' error'}`} role="alert" data-testid="search-cannot-run" data-kind={response.cannotRun.kind}>
          <strong>{response.cannotRun.kind === 'offline' ? 'Offline' : response.cannotRun.kind}</strong>
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
