import { useState, type ReactNode } from 'react';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/**
 * Footage that lives at an address (a review link, a bucket): the service fetches it, embeds and
 * tags it; Reelscout catalogues the result so it is searchable beside local clips. Nothing is downloaded.
 */
export function AddByUrl({ onAdded }: { onAdded: (clipId: number) => void }): ReactNode {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const add = async () => {
    setBusy(true);
    setStatus('The service is fetching and analysing it…');
    try {
      const r = await api.call('library.addUrl', { url: url.trim() });
      setStatus(`Added: ${r.segments} part${r.segments === 1 ? '' : 's'} indexed${r.via === 'async' ? ' (the service answered late: finished as a background task)' : ''}${r.tags.length ? `; ${r.tags.map((t) => t.value).join(', ')}` : ''}`);
      setUrl('');
      onAdded(r.clipId);
    } catch (e) {
      setStatus(`Could not add it: ${(e as AppError).message}`);
    } finally {
      setBusy(false);
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
        placeholder="https://… address of a video (review link, bucket)"
        aria-label="Video address"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && url.trim() && !busy && void add()}
        autoFocus
      />
      <button type="button" className="btn primary" disabled={!url.trim() || busy} onClick={() => void add()} data-action="add-url-submit">
        {busy ? 'Adding…' : 'Add'}
      </button>
      <button type="button" className="btn link" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {status && (
        <span className="muted sv-small" role="status" data-testid="add-by-url-status">
          {status}
        </span>
      )}
    </div>
  );
}
