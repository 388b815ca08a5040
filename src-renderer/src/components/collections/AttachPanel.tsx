import { useEffect, useState, type ReactNode } from 'react';
import type { ClipSummary } from '../../../../src-shared/contract/library';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

const PAGE = 200;

/** Picks clips from the library (or names a folder) and attaches them to the collection. */
export function AttachPanel({ collectionId, attached, onDone }: { collectionId: string; attached: ReadonlySet<number>; onDone: (text: string) => void }): ReactNode {
  const [mode, setMode] = useState<'clips' | 'folder'>('clips');
  const [query, setQuery] = useState('');
  const [clips, setClips] = useState<ClipSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (mode !== 'clips') return;
    let live = true;
    const t = setTimeout(() => {
      api.call('library.list', { query: query.trim() || undefined, limit: PAGE, sort: 'name' }).then(
        (r) => {
          if (!live) return;
          setClips(r.items);
          setTotal(r.total);
          setError(null);
        },
        (e: AppError) => live && setError(`The library could not be listed: ${e.message}`),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [mode, query]);

  const toggle = (id: number) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const attach = async (args: { clipIds: number[] } | { folder: string }) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.call('collections.attach', { collectionId, ...args });
      setPicked(new Set());
      onDone(`${r.queued} clip${r.queued === 1 ? '' : 's'} queued for upload${r.already ? `, ${r.already} already in the collection` : ''}.`);
    } catch (e) {
      const a = e as AppError;
      setError(`${a.kind ?? 'error'}: ${a.message}`);
    } finally {
      setBusy(false);
    }
  };

  const chooseFolder = async () => {
    const dirs = await api.chooseFolders?.();
    if (dirs?.[0]) setFolder(dirs[0]);
  };

  return (
    <section className="card col-attach" aria-label="Add clips">
      <div className="row">
        <h3>Add clips</h3>
        <div className="col-tabs" role="tablist">
          <button role="tab" aria-selected={mode === 'clips'} className={`btn${mode === 'clips' ? ' active' : ''}`} onClick={() => setMode('clips')}>
            From the library
          </button>
          <button role="tab" aria-selected={mode === 'folder'} className={`btn${mode === 'folder' ? ' active' : ''}`} onClick={() => setMode('folder')}>
            A folder
          </button>
        </div>
      </div>
      {mode === 'clips' ? (
        <>
          <div className="row">
            <input type="search" placeholder="Filter by file name" value={query} onChange={(e) => setQuery(e.target.value)} aria-label="Filter clips" />
            <span className="muted col-small">
              {total > clips.length ? `first ${clips.length} of ${total}` : `${clips.length} clip${clips.length === 1 ? '' : 's'}`}
            </span>
            <button className="btn" onClick={() => setPicked(new Set(clips.filter((c) => !attached.has(c.id)).map((c) => c.id)))} disabled={clips.length === 0}>
              Select all
            </button>
          </div>
          <ul className="col-picker">
            {clips.map((c) => (
              <li key={c.id}>
                <label className={attached.has(c.id) ? 'muted' : undefined}>
                  <input type="checkbox" checked={picked.has(c.id)} disabled={attached.has(c.id)} onChange={() => toggle(c.id)} data-clip={c.id} />
                  <span className="col-picker-name">{c.name}</span>
                  <span className="muted col-small">{c.folder}</span>
                  {attached.has(c.id) && <span className="badge">in collection</span>}
                </label>
              </li>
            ))}
          </ul>
          <button className="btn primary" disabled={busy || picked.size === 0} onClick={() => attach({ clipIds: [...picked] })} data-action="attach-clips">
            Attach {picked.size || ''} clip{picked.size === 1 ? '' : 's'}
          </button>
        </>
      ) : (
        <div className="row">
          <input type="text" className="col-grow" placeholder="/path/to/footage" value={folder} onChange={(e) => setFolder(e.target.value)} aria-label="Folder path" />
          {api.chooseFolders && (
            <button className="btn" onClick={chooseFolder}>
              Choose…
            </button>
          )}
          <button className="btn primary" disabled={busy || !folder.trim()} onClick={() => attach({ folder: folder.trim() })} data-action="attach-folder">
            Attach folder
          </button>
        </div>
      )}
      <p className="muted col-small">
        mp4 and mov files under 100 MB are uploaded as they are; anything else is first converted to an H.264/AAC proxy (at most 720 lines) in the app's cache.
      </p>
      {error && (
        <div className="error-text col-small" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
