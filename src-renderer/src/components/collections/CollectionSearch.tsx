import { useState, type FormEvent, type ReactNode } from 'react';
import type { CollectionSearchHit } from '../../../../src-shared/contract/collections';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

/** The service's text search inside one collection; results are mapped back to clips. */
export function CollectionSearch({ collectionId, onOpen }: { collectionId: string; onOpen: (clipId: number) => void }): ReactNode {
  const [text, setText] = useState('');
  const [topK, setTopK] = useState(10);
  const [results, setResults] = useState<CollectionSearchHit[] | null>(null);
  const [unmapped, setUnmapped] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.call('collections.search', { collectionId, text: text.trim(), topK });
      setResults(r.results);
      setUnmapped(r.unmapped);
    } catch (err) {
      const a = err as AppError;
      setResults(null);
      setError(a.kind === 'offline' ? 'Collection search runs on the service, which cannot be reached right now. Local search still works.' : `${a.kind ?? 'error'}: ${a.message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card col-search" aria-label="Search this collection">
      <form className="row" onSubmit={run}>
        <h3>Search this collection</h3>
        <input type="search" className="col-grow" placeholder="Describe a shot…" value={text} onChange={(e) => setText(e.target.value)} aria-label="Collection search text" />
        <label className="muted col-small">
          top{' '}
          <input type="number" min={1} max={100} value={topK} onChange={(e) => setTopK(Math.max(1, Math.min(100, Number(e.target.value) || 10)))} className="col-topk" aria-label="Number of results" />
        </label>
        <button className="btn primary" type="submit" disabled={busy || !text.trim()} data-action="collection-search">
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {error && (
        <div className="error-text col-small" role="alert">
          {error}
        </div>
      )}
      {results &&
        (results.length === 0 ? (
          <div className="muted col-small">No matches (only processed videos are searched).</div>
        ) : (
          <ol className="col-results">
            {results.map((r) => (
              <li key={r.videoId} data-video={r.videoId}>
                <span className="col-rank">{r.rank}</span>
                <span className="col-grow">
                  {r.clipId !== null ? (
                    <button type="button" className="btn link" onClick={() => onOpen(r.clipId!)} title="Open in the viewer">
                      {r.fileName}
                    </button>
                  ) : (
                    <span className="muted">not from this catalog ({r.videoId})</span>
                  )}
                </span>
                <span className="col-mono col-small">{r.similarity.toFixed(3)}</span>
              </li>
            ))}
          </ol>
        ))}
      {results && unmapped > 0 && <div className="muted col-small">{unmapped} result(s) are videos uploaded from elsewhere.</div>}
    </section>
  );
}
