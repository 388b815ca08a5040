import { toAppError, type AppError, type ErrorKind } from '../../../src-shared/errors';
import { runCollectionPoll, runCollectionUpload, type CollectionStageDeps } from './collection-stages';

/** What the handlers need from whatever runs the stages: this runner, or the durable job queue. */
export interface CollectionScheduler {
  /** Work on these clips' open rows (upload, then poll). Calling again for a busy clip re-runs it after. */
  schedule(clipIds: readonly number[]): void;
  /** Stop the work in flight for these clips; rows of other collections carry on. */
  cancel(clipIds: readonly number[]): void;
}

export interface CollectionRunnerOptions {
  /** Clips worked on at once (each is network-bound; a proxy transcode also uses a core). */
  concurrency?: number;
  /** Delay before retrying a clip that met a transient failure. */
  retryDelayMs?: (attempt: number) => number;
  /** A clip stopped on something the user must act on (quota, key). */
  onBlocked?: (clipId: number, err: AppError) => void;
}

/** Failures that go away by themselves: retried with backoff, without limit (offline can last a flight). */
const TRANSIENT = new Set<ErrorKind>(['offline', 'upstream', 'server', 'rate_limit', 'timeout']);
/** Failures only the user can lift: the rows wait with the reason until resume() or a new attach. */
const BLOCKING = new Set<ErrorKind>(['quota', 'auth']);

const defaultRetryDelay = (attempt: number) => Math.min(60_000, 1000 * 2 ** Math.min(attempt, 6));

interface Running {
  controller: AbortController;
  rerun: boolean;
  done: Promise<void>;
}

/**
 * An in-process scheduler for the two collection stages, for when the durable job queue is not
 * wired: a restart calls resume(), which picks up every open row from the catalog, so durability
 * comes from the rows, not from this object.
 */
export function createCollectionRunner(d: CollectionStageDeps, opts: CollectionRunnerOptions = {}) {
  const concurrency = opts.concurrency ?? 2;
  const retryDelay = opts.retryDelayMs ?? defaultRetryDelay;
  const queue: number[] = [];
  const running = new Map<number, Running>();
  const attempts = new Map<number, number>();
  const timers = new Map<number, NodeJS.Timeout>();
  let disposed = false;
  let idleWaiters: (() => void)[] = [];

  const isIdle = () => queue.length === 0 && running.size === 0 && timers.size === 0;
  const checkIdle = () => {
    if (!isIdle()) return;
    const w = idleWaiters;
    idleWaiters = [];
    for (const f of w) f();
  };

  async function work(clipId: number, signal: AbortSignal): Promise<void> {
    await runCollectionUpload(d, clipId, signal);
    await runCollectionPoll(d, clipId, signal);
  }

  function start(clipId: number): void {
    const controller = new AbortController();
    const entry: Running = { controller, rerun: false, done: Promise.resolve() };
    running.set(clipId, entry);
    entry.done = work(clipId, controller.signal).then(
      () => {
        attempts.delete(clipId);
      },
      (e: unknown) => {
        const err = toAppError(e);
        if (err.kind === 'cancelled') return;
        if (TRANSIENT.has(err.kind) && !disposed) {
          const n = (attempts.get(clipId) ?? 0) + 1;
          attempts.set(clipId, n);
          const t = setTimeout(() => {
            timers.delete(clipId);
            enqueue(clipId);
            pump();
          }, err.retryAfterMs ?? retryDelay(n));
          t.unref?.();
          timers.set(clipId, t);
          d.logger?.info('collections.retry', { clipId, kind: err.kind, attempt: n });
          return;
        }
        if (BLOCKING.has(err.kind)) opts.onBlocked?.(clipId, err);
        d.logger?.warn('collections.clip.stopped', { clipId, kind: err.kind, message: err.message });
      },
    ).finally(() => {
      running.delete(clipId);
      if (entry.rerun && !disposed) enqueue(clipId);
      pump();
      checkIdle();
    });
  }

  function pump(): void {
    while (!disposed && running.size < concurrency && queue.length > 0) start(queue.shift()!);
  }

  function enqueue(clipId: number): void {
    if (disposed) return;
    const r = running.get(clipId);
    if (r) {
      r.rerun = true;
      return;
    }
    const t = timers.get(clipId);
    if (t) {
      clearTimeout(t);
      timers.delete(clipId);
    }
    if (!queue.includes(clipId)) queue.push(clipId);
  }

  const runner = {
    schedule(clipIds: readonly number[]): void {
      for (const id of clipIds) enqueue(id);
      pump();
    },

    cancel(clipIds: readonly number[]): void {
      for (const id of clipIds) {
        const i = queue.indexOf(id);
        if (i >= 0) queue.splice(i, 1);
        const r = running.get(id);
        if (r) {
          // Rows of this clip in other collections were not cancelled: run the clip again for them.
          r.rerun = true;
          r.controller.abort();
        } else if (timers.has(id)) {
          enqueue(id);
        }
      }
      pump();
      checkIdle();
    },

    /** Every clip with open rows in the current region: call at start-up and after the user resumes. */
    resume(): number {
      const ids = d.store.openClipIds(d.region());
      runner.schedule(ids);
      return ids.length;
    },

    /** Resolves when nothing is queued, running or waiting to retry. */
    idle(): Promise<void> {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    busy(): { queued: number; running: number; waiting: number } {
      return { queued: queue.length, running: running.size, waiting: timers.size };
    },

    /** Aborts everything in flight; rows stay open in the catalog for the next resume(). */
    async dispose(): Promise<void> {
      disposed = true;
      queue.length = 0;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      const all = [...running.values()];
      for (const r of all) r.controller.abort();
      await Promise.all(all.map((r) => r.done.catch(() => {})));
      checkIdle();
    },
  };
  return runner;
}

export type CollectionRunner = ReturnType<typeof createCollectionRunner>;
