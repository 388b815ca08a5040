import { useEffect, useState, type ReactNode } from 'react';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { addUrlLimitWords } from './add-url-limit';
import { formatBytes } from './format';

/** A name for one add, so its Cancel stops that one in main. */
function newAttemptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `add-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Footage that lives at an address (a review link, a bucket): main reads its header (video files
 * only, over https), the service embeds and tags it from the address, and Reelscout catalogues it
 * with a poster and filmstrip made from a few range requests, searchable and playable beside local
 * clips. The whole of it is under main's limit, counted down beside Cancel, which stops it wherever it is.
 */
export function AddByUrl({ onAdded }: { onAdded: (clipId: number) => void }): ReactNode {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [attempt, setAttempt] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const busy = attempt !== null;

  const add = async () => {
    const id = newAttemptId();
    setAttempt(id);
    setStatus('Reading the address, then the service analyses it…');
    try {
      const startedAt = Date.now();
      const added = api.call('library.addUrl', { url: url.trim(), attempt: id });
      void api.call('library.addUrlLimit', {}).then(
        ({ limitMs }) => setEndsAt(startedAt + limitMs),
        () => undefined,
      );
      const r = await added;
      const parts = [
        `Added: ${r.segments} part${r.segments === 1 ? '' : 's'} indexed${r.via === 'async' ? ' (the service answered late: finished as a background task)' : ''}`,
        r.tags.length ? r.tags.map((t) => t.value).join(', ') : null,
        r.stillsError ? `no poster (${r.stillsError})` : null,
        `${formatBytes(r.bytesRead)} read from the address`,
      ];
      setStatus(parts.filter(Boolean).join('; '));
      setUrl('');
      onAdded(r.clipId);
    } catch (e) {
      const err = e as AppError;
      setStatus(err.kind === 'cancelled' ? 'Cancelled: nothing was added.' : `Could not add it: ${err.message}`);
    } finally {
      setAttempt(null);
      setEndsAt(null);
    }
  };

  const cancel = () => {
    if (attempt) {
      setStatus('Cancelling…');
      void api.call('library.cancelAddUrl', { attempt }).catch(() => undefined);
    } else {
      setOpen(false);
      setStatus(null);
    }
  };

  if (!open) {
    return (
      <button type="button" className="btn" onClick={() => setOpen(true)} data-action="add-by-url">
        Add by URL
      </button>
    );
  }
  return (
    <div className="row add-by-url" data-testid="add-by-url">
      <input
        type="text"
        className="import-path"
        placeholder="https://… address of a video file (review link, bucket)"
        aria-label="Video address"
        value={url}
        disabled={busy}
        onChange={(e) => setUrl(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && url.trim() && !busy) void add();
          if (e.key === 'Escape') cancel();
        }}
        autoFocus
      />
      <button type="button" className="btn primary" disabled={!url.trim() || busy} onClick={() => void add()} data-action="add-url-submit">
        {busy ? 'Adding…' : 'Add'}
      </button>
      <button type="button" className="btn" onClick={cancel} data-action="add-url-cancel" title={busy ? 'Stop adding this address' : 'Close'}>
        {busy ? 'Cancel' : 'Close'}
      </button>
      {status && (
        <span className="muted sv-small" role="status" data-testid="add-by-url-status">
          {status}
        </span>
      )}
      {busy && endsAt !== null && <LimitCountdown endsAt={endsAt} />}
    </div>
  );
}

/** What is left of the limit, said again every second (not announced: the status line is). */
function LimitCountdown({ endsAt }: { endsAt: number }): ReactNode {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <span className="muted sv-small" data-testid="add-by-url-limit">
      {addUrlLimitWords(endsAt, now)}
    </span>
  );
}
