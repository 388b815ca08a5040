import { AppError, toAppError } from '../../../src-shared/errors';
import { jittered, sleep, throwIfAborted } from './http/abort';

export interface PollOptions<T> {
  signal?: AbortSignal;
  /** Give up (AppError 'timeout') once this much time has passed. */
  maxWaitMs?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Growth of the delay between polls. */
  factor?: number;
  /** Every answer, including unknown statuses, and every transient failure. */
  onProgress?: (update: { value?: T; error?: AppError; polls: number; elapsedMs: number }) => void;
  random?: () => number;
  now?: () => number;
}

export const DEFAULT_POLL = { maxWaitMs: 30 * 60_000, initialDelayMs: 500, maxDelayMs: 15_000, factor: 1.6 };

/** Transient failures of one poll do not end the wait: the task is still running on the service. */
const TRANSIENT = new Set(['offline', 'upstream', 'server', 'rate_limit', 'timeout']);

/**
 * Calls fetchOnce until done(value) is true. Delays grow by `factor` with jitter; the wait ends
 * with AppError('timeout') after maxWaitMs or AppError('cancelled') when the signal aborts.
 */
export async function pollUntil<T>(
  fetchOnce: (signal?: AbortSignal) => Promise<T>,
  done: (value: T) => boolean,
  describe: (value: T | undefined) => string,
  opts: PollOptions<T> = {},
): Promise<T> {
  const now = opts.now ?? (() => Date.now());
  const maxWait = opts.maxWaitMs ?? DEFAULT_POLL.maxWaitMs;
  const maxDelay = opts.maxDelayMs ?? DEFAULT_POLL.maxDelayMs;
  const factor = opts.factor ?? DEFAULT_POLL.factor;
  const started = now();
  let delay = opts.initialDelayMs ?? DEFAULT_POLL.initialDelayMs;
  let last: T | undefined;
  for (let polls = 1; ; polls++) {
    throwIfAborted(opts.signal);
    try {
      last = await fetchOnce(opts.signal);
      opts.onProgress?.({ value: last, polls, elapsedMs: now() - started });
      if (done(last)) return last;
    } catch (e) {
      const err = toAppError(e);
      if (err.kind === 'cancelled' || opts.signal?.aborted) throw new AppError('cancelled', 'cancelled', { cause: err });
      if (!TRANSIENT.has(err.kind)) throw err;
      opts.onProgress?.({ error: err, polls, elapsedMs: now() - started });
    }
    const elapsed = now() - started;
    if (elapsed >= maxWait) throw new AppError('timeout', `gave up waiting after ${Math.round(elapsed / 1000)} s: ${describe(last)}`);
    const wait = Math.min(jittered(delay, opts.random), maxWait - elapsed);
    await sleep(wait, opts.signal);
    delay = Math.min(maxDelay, delay * factor);
  }
}
