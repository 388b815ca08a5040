import { AppError, toAppError } from '../../../../src-shared/errors';
import { SYNC_CALL_DEADLINE_MS } from '../../../../src-shared/contract/service-wait';
import { jittered, sleep } from './abort';

export interface RetryOptions {
  /** Attempts in all, across every retryable kind. */
  maxAttempts: number;
  /** 500 means the service is broken: only this many attempts end in 500 before giving up. */
  serverAttempts: number;
  /** For calls without an async counterpart, 504 and local deadlines are retried this many attempts. */
  timeoutAttempts: number;
  /** Attempts that got no answer at all (connection refused, reset, DNS) before giving up. */
  offlineAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No new attempt starts after this long since the first, and no attempt runs past it. */
  deadlineMs?: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 6,
  serverAttempts: 3,
  timeoutAttempts: 2,
  offlineAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/**
 * A call with no asynchronous counterpart that someone is waiting for (encode_text, collection
 * search, sync tagging of Base64 video): a 502/503/504 or a slow answer is the service being busy,
 * so it is tried again with backoff until SYNC_CALL_DEADLINE_MS, which the UI shows. No answer at
 * all (the network) gives up after three attempts: the cache answers instead.
 */
export const SYNC_CALL_RETRY: RetryOptions = {
  maxAttempts: 12,
  serverAttempts: 3,
  timeoutAttempts: 12,
  offlineAttempts: 3,
  baseDelayMs: 400,
  maxDelayMs: 5_000,
  deadlineMs: SYNC_CALL_DEADLINE_MS,
};

export interface RetryContext {
  signal?: AbortSignal;
  /** False for synchronous calls whose caller switches to the async counterpart on 504. */
  retryTimeout: boolean;
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
  now?: () => number;
}

export interface RetryInfo {
  /** 0-based attempt that failed. */
  attempt: number;
  error: AppError;
  delayMs: number;
  /** When the caller's patience ends (deadlineMs), if it has one. */
  deadlineAt?: number;
}

export function backoffMs(attempt: number, opts: RetryOptions, random: () => number = Math.random): number {
  return jittered(Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt), random);
}

/**
 * Runs fn until it succeeds or fails with a kind that must not be retried. 429 with Retry-After
 * waits in the shared limiter (which pauses every caller of the key), not here.
 */
export async function withRetry<T>(fn: (attempt: number, remainingMs?: number) => Promise<T>, opts: RetryOptions, ctx: RetryContext): Promise<T> {
  const now = ctx.now ?? Date.now;
  const started = now();
  const deadlineAt = opts.deadlineMs === undefined ? undefined : started + opts.deadlineMs;
  let serverFailures = 0;
  let timeoutFailures = 0;
  let offlineFailures = 0;
  /** The last error, saying how long the call was tried when it was tried more than once. */
  const giveUp = (err: AppError, attempts: number): AppError =>
    attempts < 2 ? err : new AppError(err.kind, `${err.message} (gave up after ${attempts} attempts in ${Math.round((now() - started) / 1000)} s)`, { status: err.status, retryAfterMs: err.retryAfterMs, cause: err });
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt, deadlineAt === undefined ? undefined : Math.max(1, deadlineAt - now()));
    } catch (e) {
      const err = toAppError(e);
      if (ctx.signal?.aborted) throw err.kind === 'cancelled' ? err : new AppError('cancelled', 'cancelled', { cause: err });
      if (attempt + 1 >= opts.maxAttempts) throw giveUp(err, attempt + 1);
      let delayMs: number;
      switch (err.kind) {
        case 'rate_limit':
          delayMs = err.retryAfterMs !== undefined ? 0 : backoffMs(attempt, opts, ctx.random);
          break;
        case 'server':
          serverFailures++;
          if (serverFailures >= opts.serverAttempts) throw giveUp(err, attempt + 1);
          delayMs = backoffMs(attempt, opts, ctx.random);
          break;
        case 'timeout':
          timeoutFailures++;
          if (!ctx.retryTimeout || timeoutFailures >= opts.timeoutAttempts) throw giveUp(err, attempt + 1);
          delayMs = backoffMs(attempt, opts, ctx.random);
          break;
        case 'offline':
          offlineFailures++;
          if (offlineFailures >= opts.offlineAttempts) throw giveUp(err, attempt + 1);
          delayMs = backoffMs(attempt, opts, ctx.random);
          break;
        case 'upstream':
          delayMs = err.retryAfterMs ?? backoffMs(attempt, opts, ctx.random);
          break;
        default:
          throw err;
      }
      if (deadlineAt !== undefined && now() + delayMs >= deadlineAt) throw giveUp(err, attempt + 1);
      ctx.onRetry?.({ attempt, error: err, delayMs, deadlineAt });
      if (delayMs > 0) await sleep(delayMs, ctx.signal);
    }
  }
}
