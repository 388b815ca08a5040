import { useCallback, useEffect, useRef, useState } from 'react';
import type { ClipJobs, JobsSummary } from '../../../../src-shared/contract/jobs';
import { api } from '../../api/client';

/** Clip counts, ETA and the network gate, kept fresh by jobs.summary events. Null until known (or without a pipeline). */
export function useJobsSummary(): { summary: JobsSummary | null; refresh: () => void } {
  const [summary, setSummary] = useState<JobsSummary | null>(null);
  const refresh = useCallback(() => {
    api.call('jobs.summary', {}).then(setSummary, () => {
      // No pipeline behind this transport (or it failed): the banner and totals stay hidden.
    });
  }, []);
  useEffect(() => {
    refresh();
    const off = api.on('jobs.summary', setSummary);
    // A block or a change sent before the event stream opened (or while it reconnected) is read again.
    const offSync = api.onResync(refresh);
    return () => {
      off();
      offSync();
    };
  }, [refresh]);
  return { summary, refresh };
}

export type JobListFilter = 'all' | 'active' | 'failed' | 'done';

const PAGE = 500;

function matches(c: ClipJobs, filter: JobListFilter): boolean {
  if (filter === 'active') return c.state !== 'done' && c.state !== 'failed' && c.state !== 'cancelled';
  if (filter === 'failed') return c.state === 'failed';
  if (filter === 'done') return c.state === 'done';
  return true;
}

/**
 * Clips with their jobs. jobs.clips events patch rows in place (progress moves without a refetch);
 * a clip the list does not hold yet, or one that left the filter, triggers a refetch, debounced.
 */
export function useJobList(filter: JobListFilter): { clips: ClipJobs[]; total: number; loading: boolean; error: string | null; reload: () => void } {
  const [clips, setClips] = useState<ClipJobs[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const generation = useRef(0);
  // What the list holds, for the event handler: a state updater runs later (at render), so a
  // decision taken inside one is not known when the handler returns.
  const held = useRef<ReadonlySet<number>>(new Set());

  const reload = useCallback(() => {
    const gen = ++generation.current;
    api.call('jobs.list', { filter, offset: 0, limit: PAGE }).then(
      (r) => {
        if (gen !== generation.current) return;
        setClips(r.clips);
        held.current = new Set(r.clips.map((c) => c.clipId));
        setTotal(r.total);
        setError(null);
        setLoading(false);
      },
      (e: Error) => {
        if (gen !== generation.current) return;
        setError(e.message);
        setLoading(false);
      },
    );
  }, [filter]);

  useEffect(() => {
    setLoading(true);
    reload();
    const scheduleRefetch = () => {
      if (refetchTimer.current) return;
      refetchTimer.current = setTimeout(() => {
        refetchTimer.current = null;
        reload();
      }, 400);
    };
    const off = api.on('jobs.clips', ({ clips: changed }) => {
      // A held clip that left the filter, or a new one that belongs in it: the list must be fetched.
      const needRefetch = changed.some((u) => (held.current.has(u.clipId) ? !matches(u, filter) : matches(u, filter)));
      const byId = new Map(changed.map((c) => [c.clipId, c]));
      setClips((prev) => prev.map((c) => byId.get(c.clipId) ?? c));
      if (needRefetch) scheduleRefetch();
    });
    return () => {
      off();
      if (refetchTimer.current) clearTimeout(refetchTimer.current);
      refetchTimer.current = null;
    };
  }, [filter, reload]);

  return { clips, total, loading, error, reload };
}
