import { useState, type ReactNode } from 'react';
import type { ClipFilter } from '../../../src-shared/contract/library';
import { ClipDetailPanel } from '../components/library/ClipDetailPanel';
import { ClipGrid } from '../components/library/ClipGrid';
import { DropZone, ImportBar } from '../components/library/ImportBar';
import { ImportSummaryPanel } from '../components/library/ImportSummaryPanel';
import { useClipPages, useImports } from '../components/library/use-library';
import { api } from '../api/client';
import './library.css';

const FILTERS: { id: ClipFilter | 'all'; label: string; count: 'all' | 'ready' | 'processing' | 'problems' | 'offline' }[] = [
  { id: 'all', label: 'All', count: 'all' },
  { id: 'ready', label: 'Ready', count: 'ready' },
  { id: 'processing', label: 'Processing', count: 'processing' },
  { id: 'problems', label: 'Problems', count: 'problems' },
  { id: 'offline', label: 'Offline', count: 'offline' },
];

export function LibraryView(): ReactNode {
  const [filter, setFilter] = useState<ClipFilter | 'all'>('all');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [summaryHidden, setSummaryHidden] = useState(false);
  const pages = useClipPages({ status: filter === 'all' ? undefined : filter, query: query.trim() || undefined });
  const imports = useImports();

  // The clip the editor is looking at goes first in the indexing queue.
  const openClip = (clipId: number) => {
    setSelected(clipId);
    api.call('jobs.prioritizeClip', { clipId }).catch(() => {
      /* a clip with no pending job: nothing to move */
    });
  };

  const runImport = (paths: string[]) => {
    setNotice(null);
    setSummaryHidden(false);
    void imports.run(paths);
  };

  return (
    <DropZone
      onPaths={runImport}
      onNoPaths={(n) =>
        setNotice(`The browser does not reveal where the ${n} dropped item${n === 1 ? '' : 's'} live: type the folder path above instead.`)
      }
    >
      <div className="view library-view" data-view="library">
        <div className="row">
          <h1>Library</h1>
          <span className="muted">{pages.counts ? `${pages.counts.all} clip${pages.counts.all === 1 ? '' : 's'}` : ''}</span>
        </div>
        <ImportBar running={imports.running} progress={imports.progress} onImport={runImport} />
        {notice && <div className="banner">{notice}</div>}
        {imports.error && <div className="banner error">Import failed: {imports.error}</div>}
        {imports.last && !summaryHidden && <ImportSummaryPanel key={imports.last.importId} summary={imports.last} onDismiss={() => setSummaryHidden(true)} />}
        <div className="row library-filters" role="tablist" aria-label="Filter clips">
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              role="tab"
              aria-selected={filter === f.id}
              className={`filter-tab${filter === f.id ? ' active' : ''}`}
              onClick={() => setFilter(f.id)}
            >
              {f.label}
              {pages.counts && <span className="filter-count">{pages.counts[f.count]}</span>}
            </button>
          ))}
          <span className="spacer" />
          <input type="search" placeholder="Filter by name" aria-label="Filter by name" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        {pages.error && <div className="banner error">{pages.error}</div>}
        <div className="library-body">
          {pages.loaded && pages.total === 0 ? (
            <div className="empty library-empty">
              {pages.counts?.all ? 'No clip matches this filter.' : 'Drop a folder of footage here, or type its path above, to start your library.'}
            </div>
          ) : (
            <ClipGrid total={pages.total} clipAt={pages.clipAt} ensureRange={pages.ensureRange} selectedId={selected} onOpen={openClip} />
          )}
          {selected !== null && <ClipDetailPanel clipId={selected} onClose={() => setSelected(null)} />}
        </div>
      </div>
    </DropZone>
  );
}
