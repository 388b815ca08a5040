import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ClipFilter, ClipSort, ClipSummary } from '../../../src-shared/contract/library';
import type { RatingFilter } from '../../../src-shared/contract/marks';
import { api } from '../api/client';
import { dragOutHandler, useHandOffCapabilities } from '../components/HandOff';
import { AddByUrl } from '../components/library/AddByUrl';
import { BatchBar } from '../components/library/BatchBar';
import { ClipDetailPanel } from '../components/library/ClipDetailPanel';
import { ClipGrid } from '../components/library/ClipGrid';
import { ClipList } from '../components/library/ClipList';
import { DropZone, ImportBar } from '../components/library/ImportBar';
import { ImportSummaryPanel } from '../components/library/ImportSummaryPanel';
import { navigationDelta, NO_SELECTION, nextSelection, type SelectionEvent } from '../components/library/selection';
import { useClipPages, useImports } from '../components/library/use-library';
import { Viewer } from '../components/viewer/Viewer';
import './library.css';

// "Indexed" as in the Jobs view: searchable.
const FILTERS: { id: ClipFilter | 'all'; label: string; count: 'all' | 'indexed' | 'indexing' | 'problems' | 'offline' }[] = [
  { id: 'all', label: 'All', count: 'all' },
  { id: 'indexed', label: 'Indexed', count: 'indexed' },
  { id: 'indexing', label: 'Indexing', count: 'indexing' },
  { id: 'problems', label: 'Problems', count: 'problems' },
  { id: 'offline', label: 'Offline', count: 'offline' },
];

const RATING_LABEL: Record<RatingFilter, string> = { favorite: '★ Favourites', reject: '⊘ Rejected', unrated: 'Unrated', not_rejected: 'Hide rejected' };

type Layout = 'grid' | 'list';

export function LibraryView(): ReactNode {
  const [filter, setFilter] = useState<ClipFilter | 'all'>('all');
  const [query, setQuery] = useState('');
  const [rating, setRating] = useState<RatingFilter | ''>('');
  const [keyword, setKeyword] = useState('');
  const [hasRanges, setHasRanges] = useState(false);
  const [keywords, setKeywords] = useState<{ keyword: string; count: number }[]>([]);
  const [layout, setLayout] = useState<Layout>(() => (localStorage.getItem('reelscout.libraryLayout') === 'list' ? 'list' : 'grid'));
  const [sort, setSort] = useState<ClipSort>('path');
  const [reversed, setReversed] = useState(false);
  const [selection, setSelection] = useState(NO_SELECTION);
  const [detail, setDetail] = useState<number | null>(null);
  const [viewer, setViewer] = useState<{ clipId: number; range: { startS: number; endS: number } | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [summaryHidden, setSummaryHidden] = useState(false);
  const [reveal, setReveal] = useState<{ index: number | null }>({ index: null });
  const view = useRef({ cols: 1, page: 1 });
  const body = useRef<HTMLDivElement>(null);
  const caps = useHandOffCapabilities();
  const listQuery = useMemo(
    () => ({ status: filter === 'all' ? undefined : filter, query: query.trim() || undefined, sort, reversed, rating: rating || undefined, keyword: keyword || undefined, hasRanges: hasRanges || undefined }),
    [filter, query, sort, reversed, rating, keyword, hasRanges],
  );
  const pages = useClipPages(listQuery);
  const imports = useImports();

  useEffect(() => {
    const load = () => api.call('marks.keywords', {}).then((r) => setKeywords(r.keywords)).catch(() => undefined);
    void load();
    return api.on('catalog.changed', (p) => {
      if (p.reason === 'marks') void load();
    });
  }, []);

  // A new filter or order: positions mean other clips, and the list starts at the top.
  useEffect(() => {
    setSelection((s) => nextSelection(s, { type: 'reset' }, () => undefined));
    setReveal({ index: 0 });
  }, [listQuery]);

  const idAt = useCallback((i: number) => pages.clipAt(i)?.id, [pages]);
  const select = useCallback((e: SelectionEvent) => setSelection((s) => nextSelection(s, e, idAt)), [idAt]);

  // The clip the editor is looking at goes first in the indexing queue.
  const showDetail = (clipId: number) => {
    setDetail(clipId);
    api.call('jobs.prioritizeClip', { clipId }).catch(() => {
      /* a clip with no pending job: nothing to move */
    });
  };
  const openViewer = (clipId: number, range: { startS: number; endS: number } | null = null) => {
    showDetail(clipId);
    setViewer({ clipId, range });
  };

  const onItemClick = (index: number, clip: ClipSummary, e: React.MouseEvent) => {
    const toggle = e.metaKey || e.ctrlKey;
    select({ type: 'click', index, id: clip.id, toggle, range: e.shiftKey });
    if (!toggle && !e.shiftKey) showDetail(clip.id);
    body.current?.focus({ preventScroll: true });
  };

  const onKeyDown = async (e: React.KeyboardEvent) => {
    if (e.target !== body.current) return;
    const move = (delta: number) => {
      e.preventDefault();
      const next = nextSelection(selection, { type: 'move', delta, extend: e.shiftKey, total: pages.total }, idAt);
      setSelection(next);
      if (next.focus !== null) {
        setReveal({ index: next.focus });
        const id = idAt(next.focus);
        if (id !== undefined && !e.shiftKey) showDetail(id);
      }
    };
    const delta = navigationDelta(e.key, layout, view.current, pages.total);
    if (delta !== null) move(delta);
    else if (e.key === 'Enter' && selection.focus !== null) {
      const id = idAt(selection.focus);
      if (id !== undefined) {
        e.preventDefault();
        openViewer(id);
      }
    } else if (e.key.toLowerCase() === 'a' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      const { ids } = await api.call('library.ids', listQuery);
      select({ type: 'all', ids });
    } else if (e.key === 'Escape') select({ type: 'clear' });
  };

  const onSort = (s: ClipSort) => {
    if (s === sort) setReversed(!reversed);
    else {
      setSort(s);
      setReversed(false);
    }
  };
  const setLayoutSaved = (l: Layout) => {
    setLayout(l);
    localStorage.setItem('reelscout.libraryLayout', l);
    if (selection.focus !== null) setReveal({ index: selection.focus });
  };

  const runImport = (paths: string[]) => {
    setNotice(null);
    setSummaryHidden(false);
    void imports.run(paths);
  };

  const onItemDrag = (clip: ClipSummary, e: React.DragEvent) => {
    const ids = selection.ids.has(clip.id) ? [...selection.ids] : [clip.id];
    dragOutHandler(ids, caps, setNotice)(e);
  };
  const onLayout = useCallback((l: { cols: number; page: number }) => {
    view.current = l;
  }, []);
  const selectedIds = [...selection.ids];
  const filtered = listQuery.query || listQuery.rating || listQuery.keyword || listQuery.status || listQuery.hasRanges;
  const viewProps = {
    total: pages.total,
    clipAt: pages.clipAt,
    ensureRange: pages.ensureRange,
    selected: selection.ids,
    focus: selection.focus,
    reveal,
    onItemClick,
    onItemOpen: (_i: number, clip: ClipSummary) => openViewer(clip.id),
    onItemDrag,
    onLayout,
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
          <span className="spacer" />
          <AddByUrl onAdded={(id) => showDetail(id)} />
          <span className="layout-toggle" role="radiogroup" aria-label="Layout">
            <button type="button" role="radio" aria-checked={layout === 'grid'} className={`btn${layout === 'grid' ? ' active' : ''}`} onClick={() => setLayoutSaved('grid')} data-layout="grid">
              ▦ Grid
            </button>
            <button type="button" role="radio" aria-checked={layout === 'list'} className={`btn${layout === 'list' ? ' active' : ''}`} onClick={() => setLayoutSaved('list')} data-layout="list">
              ☰ List
            </button>
          </span>
        </div>
        <ImportBar running={imports.running} progress={imports.progress} onImport={runImport} />
        {notice && (
          <div className="banner" role="status">
            {notice}
            <button type="button" className="btn link" onClick={() => setNotice(null)} aria-label="Dismiss">
              ✕
            </button>
          </div>
        )}
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
          <select aria-label="Filter by rating" value={rating} onChange={(e) => setRating(e.target.value as RatingFilter | '')} data-filter="rating">
            <option value="">Any rating</option>
            {(Object.keys(RATING_LABEL) as RatingFilter[]).map((r) => (
              <option key={r} value={r}>
                {RATING_LABEL[r]}
              </option>
            ))}
          </select>
          <select aria-label="Filter by keyword" value={keyword} onChange={(e) => setKeyword(e.target.value)} data-filter="keyword">
            <option value="">Any keyword</option>
            {keywords.map((k) => (
              <option key={k.keyword} value={k.keyword}>
                {k.keyword} ({k.count})
              </option>
            ))}
          </select>
          <label className="row has-ranges" title="Only clips with saved ranges (selects)">
            <input type="checkbox" checked={hasRanges} onChange={(e) => setHasRanges(e.target.checked)} data-filter="has-ranges" />
            Has ranges
          </label>
          <input type="search" placeholder="Filter by name" aria-label="Filter by name" value={query} onChange={(e) => setQuery(e.target.value)} />
          {filtered && pages.loaded && (
            <span className="muted match-count" data-testid="match-count" role="status">
              {pages.total} match{pages.total === 1 ? '' : 'es'}
            </span>
          )}
        </div>
        {selectedIds.length > 0 && <BatchBar ids={selectedIds} onClear={() => select({ type: 'clear' })} />}
        {pages.error && <div className="banner error">{pages.error}</div>}
        <div className="library-body">
          <div className="library-clips" tabIndex={0} ref={body} onKeyDown={(e) => void onKeyDown(e)} data-testid="library-clips" aria-label="Clips: arrows, Page Up/Down, Home and End move, Shift extends, Enter opens, Ctrl+A selects all">
            {pages.loaded && pages.total === 0 ? (
              <div className="empty library-empty">
                {pages.counts?.all ? 'No clip matches this filter.' : 'Drop a folder of footage here, or type its path above, to start your library.'}
              </div>
            ) : layout === 'grid' ? (
              <ClipGrid {...viewProps} />
            ) : (
              <ClipList {...viewProps} sort={sort} reversed={reversed} onSort={onSort} />
            )}
          </div>
          {/* The inspector column is always there, so opening a clip never reflows the grid under the pointer. */}
          {detail !== null ? (
            <ClipDetailPanel clipId={detail} onClose={() => setDetail(null)} onOpen={(range) => openViewer(detail, range)} />
          ) : (
            <aside className="clip-detail card clip-detail-empty muted" aria-label="Clip details">
              Select a clip to see its details and shots. Double-click or Enter opens it in the viewer; Shift and Ctrl/Cmd select several.
            </aside>
          )}
        </div>
        {viewer && (
          <Viewer
            key={`${viewer.clipId}-${viewer.range?.startS ?? 'all'}`}
            clipId={viewer.clipId}
            range={viewer.range}
            onClose={() => {
              setViewer(null);
              body.current?.focus({ preventScroll: true });
            }}
          />
        )}
      </div>
    </DropZone>
  );
}
