import { useEffect, useState, type ReactNode } from 'react';
import type { CollectionSummary } from '../../../../src-shared/contract/collections';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import { ExportMenu } from '../ExportMenu';

/** What an editor does to several clips at once: rate, keyword, add to a collection, process again, export. */
export function BatchBar({ ids, onClear }: { ids: number[]; onClear: () => void }): ReactNode {
  const [keyword, setKeyword] = useState('');
  const [collections, setCollections] = useState<CollectionSummary[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    api.call('collections.list', {}).then((r) => setCollections(r.collections.filter((c) => !c.goneAt))).catch(() => undefined);
  }, []);
  const n = ids.length;
  const act = async (what: string, call: () => Promise<unknown>) => {
    try {
      await call();
      setStatus(`${what}: ${n} clip${n === 1 ? '' : 's'}`);
    } catch (e) {
      setStatus(`${what} failed: ${(e as AppError).message}`);
    }
  };
  return (
    <div className="batch-bar card row" data-testid="batch-bar" role="toolbar" aria-label="Selected clips">
      <strong data-testid="selection-count">{n} selected</strong>
      <button type="button" className="btn" onClick={() => void act('Favourite', () => api.call('marks.rate', { clipIds: ids, rating: 'favorite' }))} data-action="batch-favorite">
        ★ Favourite
      </button>
      <button type="button" className="btn" onClick={() => void act('Reject', () => api.call('marks.rate', { clipIds: ids, rating: 'reject' }))} data-action="batch-reject">
        ⊘ Reject
      </button>
      <button type="button" className="btn" onClick={() => void act('Rating cleared', () => api.call('marks.rate', { clipIds: ids, rating: null }))}>
        Unrate
      </button>
      <input
        type="text"
        placeholder="+ keyword"
        aria-label="Add a keyword to the selected clips"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && keyword.trim()) {
            void act(`Keyword “${keyword.trim()}”`, () => api.call('marks.addKeywords', { clipIds: ids, keywords: [keyword.trim()] }));
            setKeyword('');
          }
        }}
        className="keyword-input"
        data-testid="batch-keyword"
      />
      {collections.length > 0 && (
        <select
          aria-label="Add the selected clips to a collection"
          value=""
          onChange={(e) => {
            const c = collections.find((x) => x.id === e.target.value);
            if (c) void act(`Added to ${c.name}`, () => api.call('collections.attach', { collectionId: c.id, clipIds: ids }));
          }}
        >
          <option value="">Add to collection…</option>
          {collections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      )}
      <button type="button" className="btn" onClick={() => void act('Processing again', () => api.call('library.retry', { clipIds: ids }))} data-action="batch-retry">
        Process again
      </button>
      <ExportMenu selection={{ clipIds: ids }} />
      <span className="spacer" />
      {status && <span className="muted sv-small" role="status">{status}</span>}
      <button type="button" className="btn link" onClick={onClear} aria-label="Clear selection (Esc)">
        ✕
      </button>
    </div>
  );
}
