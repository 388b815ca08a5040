import { useCallback, useEffect, useRef, useState } from 'react';
import type { ClipFilter, ClipSort, ClipSummary, ImportProgress, ImportSummary, ListResult } from '../../../../src-shared/contract/library';
import type { RatingFilter } from '../../../../src-shared/contract/marks';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';

export const PAGE = 120;

export interface LibraryQuery {
  status?: ClipFilter;
  query?: string;
  sort: ClipSort;
  reversed: boolean;
  rating?: RatingFilter;
  keyword?: string;
  hasRanges?: boolean;
}

/**
 * Clips by index for a virtualized grid: pages are fetched when rows come into view, and the
 * whole set is refetched (keeping what is on screen until the new page lands) when the catalog
 * changes. Bursts of catalog.changed (one per clip while thumbnails are made) are coalesced.
 * Each card's indexing badge follows the pipeline's `jobs.clips` events between refetches.
 */
/** Runs `fn` once, `ms` after the first call of a burst (catalog events come in bursts while a card indexes). */
function coalesce(fn: () => void, ms: number): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    call: () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, ms);
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export function useClipPages(q: LibraryQuery): {
  total: number;
  counts: ListResult['counts'] | null;
  clipAt: (index: number) => ClipSummary | undefined;
  ensureRange: (start: number, end: number) => void;
  error: string | null;
  loaded: boolean;
} {
  const [, setTick] = useState(0);
  const [total, setTotal] = useState(0);
  const [counts, setCounts] = useState<ListResult['counts'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const pages = useRef(new Map<number, ClipSummary[]>());
  const fresh = useRef(new Set<number>());
  const inflight = useRef(new Set<number>());
  const generation = useRef(0);
  const visible = useRef<[number, number]>([0, PAGE]);
  const { status, query, sort, reversed, rating, keyword, hasRanges } = q;

  const fetchPage = useCallback(
    async (page: number) => {
      if (inflight.current.has(page)) return;
      inflight.current.add(page);
      const gen = generation.current;
      try {
        const res = await api.call('library.list', {
          offset: page * PAGE,
          limit: PAGE,
          status,
          query: query || undefined,
          sort,
          reversed,
          rating,
          keyword,
          hasRanges,
        });
        if (gen !== generation.current) return;
        pages.current.set(page, res.items);
        fresh.current.add(page);
        setTotal(res.total);
        setCounts(res.counts);
        setError(null);
        setLoaded(true);
        setTick((t) => t + 1);
      } catch (e) {
        if (gen === generation.current) setError((e as AppError).message);
      } finally {
        inflight.current.delete(page);
      }
    },
    [status, query, sort, reversed, rating, keyword, hasRanges],
  );

  const ensureRange = useCallback(
    (start: number, end: number) => {
      visible.current = [start, end];
      const first = Math.floor(start / PAGE);
      const last = Math.floor(Math.max(start, end - 1) / PAGE);
      for (let p = first; p <= last; p++) if (!fresh.current.has(p)) void fetchPage(p);
    },
    [fetchPage],
  );

  // A new filter starts from scratch.
  useEffect(() => {
    generation.current++;
    pages.current.clear();
    fresh.current.clear();
    inflight.current.clear();
    setLoaded(false);
    void fetchPage(0);
  }, [fetchPage]);

  useEffect(() => {
    const { call: refetch, cancel } = coalesce(() => {
      // Everything is stale; what is visible is refetched now, the rest when scrolled to.
      generation.current++;
      fresh.current.clear();
      inflight.current.clear();
      const [s, e] = visible.current;
      const first = Math.floor(s / PAGE);
      const last = Math.floor(Math.max(s, e - 1) / PAGE);
      for (let p = first; p <= last; p++) void fetchPage(p);
      if (last < first) void fetchPage(0);
    }, 350);
    const offCatalog = api.on('catalog.changed', refetch);
    // Changes made while the event stream was not open sent no event we saw.
    const offSync = api.onResync(refetch);
    // A clip finished indexing: the Indexed/Indexing counts move (its badge is patched below first).
    const offIndexed = api.on('jobs.clipIndexed', refetch);
    // The Jobs view's fold of each changed clip: the cards on hand take its word at once.
    const offClips = api.on('jobs.clips', ({ clips }) => {
      const state = new Map(clips.map((c) => [c.clipId, c.state]));
      let changed = false;
      for (const [page, items] of pages.current) {
        if (!items.some((c) => state.has(c.id) && c.indexing !== state.get(c.id))) continue;
        pages.current.set(page, items.map((c) => (state.has(c.id) ? { ...c, indexing: state.get(c.id)! } : c)));
        changed = true;
      }
      if (changed) setTick((t) => t + 1);
    });
    return () => {
      offCatalog();
      offSync();
      offIndexed();
      offClips();
      cancel();
    };
  }, [fetchPage]);

  const clipAt = useCallback((i: number) => pages.current.get(Math.floor(i / PAGE))?.[i % PAGE], []);
  return { total, counts, clipAt, ensureRange, error, loaded };
}

/** Import state: running progress and the last summary (also after a restart). */
export function useImports(): {
  running: boolean;
  progress: ImportProgress | null;
  last: ImportSummary | null;
  error: string | null;
  run: (paths: string[]) => Promise<void>;
} {
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [last, setLast] = useState<ImportSummary | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    /** The newest import's summary, given to `pick` with the one shown. */
    const readLast = (pick: (cur: ImportSummary | null, newest: ImportSummary | null) => ImportSummary | null) =>
      void api
        .call('library.imports', { limit: 1 })
        .then((r) => live && setLast((cur) => pick(cur, r.imports[0] ?? null)))
        .catch(() => undefined);
    readLast((cur, newest) => cur ?? newest);
    const offP = api.on('library.importProgress', (p) => {
      setProgress(p.phase === 'done' ? null : p);
      // An import this window did not start (another window, the desktop's drop) ends: show its summary.
      if (p.phase === 'done') readLast((_, newest) => newest);
    });
    // What ffprobe makes of the files comes after the import returned (the pipeline probes): the
    // summary shown is read again as the catalog changes, at most once a second.
    const refresh = coalesce(() => readLast((cur, newest) => (cur && newest?.importId === cur.importId ? newest : cur)), 1000);
    const offC = api.on('catalog.changed', refresh.call);
    return () => {
      live = false;
      offP();
      offC();
      refresh.cancel();
    };
  }, []);

  const run = useCallback(async (paths: string[]) => {
    if (paths.length === 0) return;
    setRunning(true);
    setError(null);
    try {
      setLast(await api.call('library.import', { paths }));
    } catch (e) {
      setError((e as AppError).message);
    } finally {
      setRunning(false);
      setProgress(null);
    }
  }, []);

  return { running, progress, last, error, run };
}
