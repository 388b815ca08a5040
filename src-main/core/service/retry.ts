import { AppError, toAppError } from '../../../src-shared/errors';
import { jittered, sleep } from './abort';

export interface RetryOptions {
  /** Attempts in all, across every retryable kind. */
  maxAttempts: number;
  /** 500 means the service is broken: only this many attempts end in 500 before giving up. */
  serverAttempts: number;
  /** For calls without an async counterpart, 504 and local deadlines are retried this many attempts. */
  timeoutAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 6,
  serverAttempts: 3,
  timeoutAttempts: 2,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

export interface RetryContext {
  signal?: AbortSignal;
  /** False for synchronous calls whose caller switches to the async counterpart on 504. */
  retryTimeout: boolean;
  random?: () => number;
  onRetry?: (info: { attempt: number; error: AppError; delayMs: number }) => void;
}

export function backoffMs(attempt: number, opts: RetryOptions, random: () => number = Math.random): number {
  return jittered(Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt), random);
}

/**
 * Runs fn until it succeeds or fails with a kind that must not be retried. 429 with Retry-After
 * waits in the shared limiter (which pauses every caller of the key), not here.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions, ctx: RetryContext): Promise<T> {
  let serverFailures = 0;
  let timeoutFailures = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      const err = toAppError(e);
      if (ctx.signal?.aborted) throw err.kind === 'cancelled' ? err : new AppError('cancelled', 'cancelled', { cause: err });
      if (attempt + 1 >= opts.maxAttempts) throw err;
      let delayMs: number;
      switch (err.kind) {
        case 'rate_limit':
          delayMs = err.retryAfterMs !== undefined ? 0 : backoffMs(attempt, opts, ctx.random);
          break;
        case 'server':
          serverFailures++;
          if (serverFailures >= opts.serverAttempts) throw err;
          delayMs = backoffMs(attempt, opts, ctx.random);
          break;
        case 'timeout':
          timeoutFailures++;
          if (!ctx.retryTimeout || timeoutFailures >= opts.timeoutAttempts) throw err;
          delayMs = backoffMs(attempt, opts, ctx.random);
          break;
        case 'upstream':
        case 'offline':
          delayMs = err.retryAfterMs ?? backoffMs(attempt, opts, ctx.random);
          break;
        default:
          throw err;
      }
      ctx.onRetry?.({ attempt, error: err, delayMs });
      if (delayMs > 0) await sleep(delayMs, ctx.signal);
    }
  }
}
