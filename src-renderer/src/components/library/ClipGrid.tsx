import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import type { ClipSummary } from '../../../../src-shared/contract/library';
import { ClipCard } from './ClipCard';
import { useCardSources } from './use-card-sources';
import { useClipPeople } from '../people/use-clip-people';
import { useBoxSize } from './use-box-size';

/** What the grid and the list share: clips by index, the selection, and what a click, double-click or drag does. */
export interface ClipViewProps {
  total: number;
  clipAt: (i: number) => ClipSummary | undefined;
  ensureRange: (start: number, end: number) => void;
  selected: ReadonlySet<number>;
  focus: number | null;
  /** Scroll this index into view (a new object each time it is asked). */
  reveal: { index: number | null };
  onItemClick: (index: number, clip: ClipSummary, e: React.MouseEvent) => void;
  onItemOpen: (index: number, clip: ClipSummary) => void;
  onItemDrag: (clip: ClipSummary, e: React.DragEvent) => void;
  /** Items per row, and items one screen shows (PageUp/PageDown move by it). */
  onLayout: (layout: { cols: number; page: number }) => void;
}

const MIN_CARD = 220;
const GAP = 14;
const INFO_H = 74;

/** Virtualized grid: only the rows in view (plus a few) exist in the DOM, whatever the library size. */
export function ClipGrid({ total, clipAt, ensureRange, selected, focus, reveal, onItemClick, onItemOpen, onItemDrag, onLayout }: ClipViewProps): ReactNode {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { width, height } = useBoxSize(scrollRef);

  const inner = Math.max(0, width - 2);
  const cols = Math.max(1, Math.floor((inner + GAP) / (MIN_CARD + GAP)));
  const cardW = cols > 0 ? (inner - GAP * (cols - 1)) / cols : MIN_CARD;
  const thumbH = Math.round((cardW * 9) / 16);
  const rowH = thumbH + INFO_H + GAP;
  const rows = Math.ceil(total / cols);
  const page = cols * Math.max(1, Math.floor(height / rowH));
  useEffect(() => onLayout({ cols, page }), [cols, page, onLayout]);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowH,
    overscan: 3,
  });
  useEffect(() => virtualizer.measure(), [rowH, cols, virtualizer]);
  // The card being worked on stays in view when the columns change (the detail panel opened) or
  // the keyboard moved; a new filter asks for the top (reveal.index 0).
  useEffect(() => {
    if (reveal.index !== null && reveal.index < total) virtualizer.scrollToIndex(Math.floor(reveal.index / cols), { align: reveal.index === 0 ? 'start' : 'auto' });
  }, [reveal, cols, total, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const inView = items.flatMap((row) => Array.from({ length: cols }, (_, c) => clipAt(row.index * cols + c)?.id).filter((id): id is number => id !== undefined));
  const sources = useCardSources(inView);
  const people = useClipPeople(inView);
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (total > 0) ensureRange(firstRow * cols, Math.min(total, (lastRow + 1) * cols));
  }, [firstRow, lastRow, cols, total, ensureRange]);

  return (
    <div className="clip-grid-scroll" ref={scrollRef} data-testid="clip-grid" role="listbox" aria-multiselectable="true" aria-label="Clips">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((row) => (
          <div key={row.key} className="clip-row" style={{ transform: `translateY(${row.start}px)`, height: rowH - GAP, gap: GAP }}>
            {Array.from({ length: cols }, (_, c) => {
              const i = row.index * cols + c;
              if (i >= total) return null;
              const clip = clipAt(i);
              return (
                <div key={c} style={{ width: cardW, height: rowH - GAP, flex: '0 0 auto' }}>
                  {clip ? (
                    <ClipCard
                      clip={clip}
                      source={sources.get(clip.id)}
                      people={people.get(clip.id)}
                      thumbWidth={cardW}
                      thumbHeight={thumbH}
                      selected={selected.has(clip.id)}
                      focused={focus === i}
                      onClick={(e) => onItemClick(i, clip, e)}
                      onOpen={() => onItemOpen(i, clip)}
                      onDragStart={(e) => onItemDrag(clip, e)}
                    />
                  ) : (
                    <div className="clip-card skeleton" style={{ height: rowH - GAP }} />
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
