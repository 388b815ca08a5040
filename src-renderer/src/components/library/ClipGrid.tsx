import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ClipSummary } from '../../../../src-shared/contract/library';
import { ClipCard } from './ClipCard';

const MIN_CARD = 220;
const GAP = 14;
const INFO_H = 74;

/** Virtualized grid: only the rows in view (plus a few) exist in the DOM, whatever the library size. */
export function ClipGrid({ total, clipAt, ensureRange, selectedId, onOpen }: {
  total: number;
  clipAt: (i: number) => ClipSummary | undefined;
  ensureRange: (start: number, end: number) => void;
  selectedId: number | null;
  onOpen: (id: number) => void;
}): ReactNode {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  const inner = Math.max(0, width - 2);
  const cols = Math.max(1, Math.floor((inner + GAP) / (MIN_CARD + GAP)));
  const cardW = cols > 0 ? (inner - GAP * (cols - 1)) / cols : MIN_CARD;
  const thumbH = Math.round((cardW * 9) / 16);
  const rowH = thumbH + INFO_H + GAP;
  const rows = Math.ceil(total / cols);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowH,
    overscan: 3,
  });
  useEffect(() => virtualizer.measure(), [rowH, cols, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (total > 0) ensureRange(firstRow * cols, Math.min(total, (lastRow + 1) * cols));
  }, [firstRow, lastRow, cols, total, ensureRange]);

  return (
    <div className="clip-grid-scroll" ref={scrollRef} data-testid="clip-grid">
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
                    <ClipCard clip={clip} thumbWidth={cardW} thumbHeight={thumbH} selected={clip.id === selectedId} onOpen={onOpen} />
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
