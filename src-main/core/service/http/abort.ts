import { AppError } from '../../../../src-shared/errors';

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AppError('cancelled', 'cancelled');
}

/** A sleep that ends early, with AppError('cancelled'), when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AppError('cancelled', 'cancelled'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Full range [base/2, base] jitter: keeps the exponential shape while spreading synchronized retries. */
export function jittered(baseMs: number, random: () => number = Math.random): number {
  return baseMs / 2 + random() * (baseMs / 2);
}
