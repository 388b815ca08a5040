import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { CLIP_SORT_NATURAL, type ClipSort, type ClipSummary } from '../../../../src-shared/contract/library';
import { rateLabel } from '../../../../src-shared/timecode';
import { clipLengthTc, tcAt } from '../timecode-format';
import type { ClipViewProps } from './ClipGrid';
import { useBoxSize } from './use-box-size';
import { useClipPeople } from '../people/use-clip-people';
import { clipBadge, formatResolution } from './format';

const ROW_H = 30;
const HEAD_H = 32;

interface Column {
  sort: ClipSort | null;
  label: string;
  width: string;
  /** `people`: the named people seen in the clip. */
  cell: (c: ClipSummary, people: readonly string[]) => ReactNode;
}

const COLUMNS: Column[] = [
  { sort: 'name', label: 'Name', width: 'minmax(180px, 2fr)', cell: (c) => <span className="cl-name" title={c.path}>{c.name}</span> },
  // Next to the name: the columns after Date are out of sight at 1280 px, and who is in a clip is what an editor looks for.
  { sort: null, label: 'People', width: 'minmax(110px, 1fr)', cell: (_c, people) => <span title={people.join(', ')}>{people.join(', ')}</span> },
  { sort: 'duration', label: 'Duration', width: '104px', cell: (c) => <span className="mono">{clipLengthTc(c)}</span> },
  { sort: 'resolution', label: 'Resolution', width: '96px', cell: (c) => formatResolution(c) },
  { sort: 'fps', label: 'FPS', width: '70px', cell: (c) => (c.rate ? `${rateLabel(c.rate)}${c.vfr ? ' VFR' : ''}` : '–') },
  { sort: 'codec', label: 'Codec', width: '64px', cell: (c) => c.videoCodec ?? '–' },
  { sort: 'timecode', label: 'Start TC', width: '108px', cell: (c) => <span className="mono">{c.rate || c.fps ? tcAt(c, 0) : '–'}</span> },
  { sort: 'date', label: 'Date', width: '128px', cell: (c) => new Date(c.mtimeMs).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' }) },
  { sort: 'rating', label: 'Rating', width: '64px', cell: (c) => (c.rating === 'favorite' ? <span className="clip-rating favorite">★</span> : c.rating === 'reject' ? <span className="clip-rating reject">⊘</span> : '') },
  { sort: null, label: 'Keywords', width: 'minmax(90px, 1fr)', cell: (c) => <span className="muted">{c.keywords.join(', ')}</span> },
  { sort: null, label: 'Status', width: '96px', cell: (c) => <StatusBadge clip={c} /> },
];

function StatusBadge({ clip }: { clip: ClipSummary }): ReactNode {
  const badge = clipBadge(clip);
  return <span className={`badge ${badge.tone}`}>{badge.label}</span>;
}
const TEMPLATE = COLUMNS.map((c) => c.width).join(' ');
const direction = (sort: ClipSort, reversed: boolean) => (CLIP_SORT_NATURAL[sort] === 'asc') !== reversed ? 'asc' : 'desc';

/** The Library as a table: sortable columns, one row per clip, virtualized like the grid. */
export function ClipList({ total, clipAt, ensureRange, selected, focus, reveal, onItemClick, onItemOpen, onItemDrag, onLayout, sort, reversed, onSort }: ClipViewProps & {
  sort: ClipSort;
  reversed: boolean;
  onSort: (sort: ClipSort) => void;
}): ReactNode {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { height } = useBoxSize(scrollRef);
  const page = Math.max(1, Math.floor((height - HEAD_H) / ROW_H));
  useEffect(() => onLayout({ cols: 1, page }), [page, onLayout]);
  // Rows start under the sticky header inside the same scroller; scrolling to a row leaves it
  // below the header, not under it.
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, overscan: 10, scrollMargin: HEAD_H, scrollPaddingStart: HEAD_H });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const people = useClipPeople(items.map((row) => clipAt(row.index)?.id).filter((id): id is number => id !== undefined));
  useEffect(() => {
    if (total > 0) ensureRange(first, Math.min(total, last + 1));
  }, [first, last, total, ensureRange]);
  useEffect(() => {
    if (reveal.index !== null && reveal.index < total) virtualizer.scrollToIndex(reveal.index, { align: reveal.index === 0 ? 'start' : 'auto' });
  }, [reveal, total, virtualizer]);

  return (
    <div className="clip-list cl-scroll" data-testid="clip-list" ref={scrollRef} role="grid" aria-label="Clips" aria-multiselectable="true">
      <div className="cl-head" role="row" style={{ gridTemplateColumns: TEMPLATE }}>
        {COLUMNS.map((col) => (
          <div key={col.label} role="columnheader" aria-sort={col.sort === sort ? (direction(col.sort, reversed) === 'asc' ? 'ascending' : 'descending') : undefined}>
            {col.sort ? (
              <button type="button" className={`cl-sort${col.sort === sort ? ' active' : ''}`} onClick={() => onSort(col.sort!)} data-sort={col.sort}>
                {col.label}
                {col.sort === sort ? (direction(col.sort, reversed) === 'asc' ? ' ▲' : ' ▼') : ''}
              </button>
            ) : (
              <span className="cl-label">{col.label}</span>
            )}
          </div>
        ))}
      </div>
      <div className="cl-body" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((row) => {
            const clip = clipAt(row.index);
            return (
              <div
                key={row.key}
                className={`cl-row${clip && selected.has(clip.id) ? ' selected' : ''}${focus === row.index ? ' focused' : ''}`}
                style={{ transform: `translateY(${row.start - HEAD_H}px)`, height: ROW_H, gridTemplateColumns: TEMPLATE }}
                role="row"
                aria-selected={!!clip && selected.has(clip.id)}
                data-clip-id={clip?.id}
                data-index={row.index}
                onClick={(e) => clip && onItemClick(row.index, clip, e)}
                onDoubleClick={() => clip && onItemOpen(row.index, clip)}
                draggable={!!clip}
                onDragStart={(e) => clip && onItemDrag(clip, e)}
              >
                {clip ? (
                  COLUMNS.map((col) => (
                    <div key={col.label} className="cl-cell" role="gridcell" data-col={col.label.toLowerCase()}>
                      {col.cell(clip, people.get(clip.id) ?? [])}
                    </div>
                  ))
                ) : (
                  <div className="cl-cell muted">…</div>
                )}
              </div>
            );
        })}
      </div>
    </div>
  );
}
