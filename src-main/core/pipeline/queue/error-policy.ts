import type { AppError } from '../../../../src-shared/errors';
import type { JobResource } from './job-types';

/**
 * Why stages are not being started. Several can hold at once. `disk` (no room in the data folder)
 * holds every stage, CPU ones included; the others hold the network stages.
 */
export const BLOCK_REASONS = ['disk', 'auth', 'quota', 'offline', 'user'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** What the queue does with a job whose run threw. */
export type Reaction =
  | { kind: 'fail' }
  /** Back to queued with not_before = now + delayMs; `counts` adds to attempts (and may fail it). */
  | { kind: 'retry'; delayMs: number; counts: boolean }
  /** Back to queued, attempts untouched, and every network stage waits for the reason to clear. */
  | { kind: 'block'; reason: Exclude<BlockReason, 'user'> };

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 2_000, maxMs: 5 * 60_000 };
/** How often a job whose clip's file is away looks again by itself (the Library's drive check wakes it sooner). */
export const UNPLUGGED_RETRY_MS = 60_000;

/** Exponential with full jitter on the upper half, so retries of many jobs spread out. */
export function backoffDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const raw = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  const r = (opts.random ?? Math.random)();
  return Math.round(raw / 2 + (raw / 2) * r);
}

/**
 * The client's error kinds drive the queue (docs/notes-pipeline.md has the table):
 * - auth, quota, offline on a network stage stop every network stage, not just this job: the next
 *   call would fail the same way. The job goes back to queued without losing an attempt.
 * - disk_full: no room to write in the data folder: every stage waits (attempts untouched) until
 *   there is room again (a BlockWatch reading the free space), whatever the job was doing; nothing it had saved is lost.
 * - unplugged: the clip's drive or folder is away, whatever the stage (an upload may decode the
 *   file again): looked at again every minute without counting, or at once when the Library finds
 *   the file back and hands the clip over again (JobQueue.wakeClip).
 * - rate_limit is never the job's fault: requeue after Retry-After (the client's limiter has
 *   already slowed every caller of the key), attempts untouched.
 * - timeout, upstream, server, io: transient; retried with backoff until the stage's attempts run out.
 * - too_large reaching the queue means the stage could not split further; invalid, not_found,
 *   media and internal will not change by retrying: the job fails with the reason.
 */
export function reactionFor(err: AppError, resource: JobResource, attemptsSoFar: number, backoff: BackoffOptions = DEFAULT_BACKOFF): Reaction {
  switch (err.kind) {
    case 'disk_full':
      return { kind: 'block', reason: 'disk' };
    case 'unplugged':
      return { kind: 'retry', delayMs: UNPLUGGED_RETRY_MS, counts: false };
    case 'offline':
      return resource === 'network' ? { kind: 'block', reason: 'offline' } : { kind: 'retry', delayMs: backoffDelay(attemptsSoFar + 1, backoff), counts: true };
    case 'auth':
    case 'quota':
      return resource === 'network' ? { kind: 'block', reason: err.kind } : { kind: 'fail' };
    case 'rate_limit':
      return { kind: 'retry', delayMs: err.retryAfterMs ?? backoffDelay(attemptsSoFar + 1, backoff), counts: false };
    case 'timeout':
    case 'upstream':
    case 'server':
    case 'io':
      return { kind: 'retry', delayMs: backoffDelay(attemptsSoFar + 1, backoff), counts: true };
    default:
      return { kind: 'fail' };
  }
}

/** Which block the banner shows when several hold: the one the user must act on first. */
export function primaryBlock(reasons: Iterable<BlockReason>): BlockReason | null {
  const set = new Set(reasons);
  for (const r of BLOCK_REASONS) if (set.has(r)) return r;
  return null;
}
