import { AppError } from '../../../src-shared/errors';

export interface AdaptiveOptions {
  /** Multiplier applied to the effective rate on a 429. */
  decreaseFactor: number;
  /** The effective rate never drops below maxQps * minFraction. */
  minFraction: number;
  /** The rate climbs back by maxQps * this fraction per second (additive increase). */
  recoveryFractionPerSecond: number;
  /** 429s within this window after a decrease count as the same congestion episode. */
  cooldownMs: number;
}

export const DEFAULT_ADAPTIVE: AdaptiveOptions = {
  decreaseFactor: 0.5,
  minFraction: 1 / 32,
  recoveryFractionPerSecond: 0.05,
  cooldownMs: 1000,
};

export interface LimiterOptions {
  qps: number;
  concurrency: number;
  adaptive?: Partial<AdaptiveOptions>;
}

export interface LimiterSnapshot {
  maxQps: number;
  effectiveQps: number;
  concurrency: number;
  active: number;
  queued: number;
  pausedForMs: number;
  decreases: number;
}

export type Release = () => void;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Spacing limiter: request starts are scheduled 1/rate apart, so any 1-second window holds at most
 * rate + 1 starts (a token bucket with a burst would allow more). FIFO, with a concurrency cap.
 * Adaptive (AIMD): a 429 multiplies the rate by decreaseFactor (at most once per cooldown, so a
 * burst of 429s from one episode counts once) and pauses everyone for Retry-After; the rate then
 * recovers linearly, slowly by default (5% of the maximum per second: 10 s from half to full).
 */
export class AdaptiveRateLimiter {
  private maxQps: number;
  private concurrency: number;
  private adaptive: AdaptiveOptions;
  private current: number;
  private lastAdjustAt: number;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  /** Scheduled time of the last start (at most half an interval before the actual start). */
  private lastSlot = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private active = 0;
  private decreases = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: LimiterOptions, private readonly now: () => number = () => performance.now()) {
    this.maxQps = validQps(opts.qps);
    this.concurrency = validConcurrency(opts.concurrency);
    this.adaptive = { ...DEFAULT_ADAPTIVE, ...opts.adaptive };
    this.current = this.maxQps;
    this.lastAdjustAt = this.now();
  }

  /** Later clients of the same key may bring new settings: the newest wins. */
  configure(opts: LimiterOptions): void {
    const qps = validQps(opts.qps);
    if (qps !== this.maxQps) {
      this.current = Math.min(qps, (this.current / this.maxQps) * qps);
      this.maxQps = qps;
    }
    this.concurrency = validConcurrency(opts.concurrency);
    if (opts.adaptive) this.adaptive = { ...DEFAULT_ADAPTIVE, ...opts.adaptive };
    this.pump();
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new AppError('cancelled', 'cancelled'));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new AppError('cancelled', 'cancelled'));
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  onRateLimited(retryAfterMs?: number): void {
    const t = this.now();
    const rate = this.effectiveQps(t);
    if (t - this.lastDecreaseAt >= this.adaptive.cooldownMs) {
      this.current = Math.max(this.maxQps * this.adaptive.minFraction, rate * this.adaptive.decreaseFactor);
      this.lastDecreaseAt = t;
      this.lastAdjustAt = t;
      this.decreases++;
    }
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, t + retryAfterMs);
    this.pump();
  }

  snapshot(): LimiterSnapshot {
    const t = this.now();
    return {
      maxQps: this.maxQps,
      effectiveQps: this.effectiveQps(t),
      concurrency: this.concurrency,
      active: this.active,
      queued: this.queue.length,
      pausedForMs: Math.max(0, this.pausedUntil - t),
      decreases: this.decreases,
    };
  }

  /** Additive increase from the last adjustment; the cooldown only gates further decreases. */
  private effectiveQps(t: number): number {
    if (this.current < this.maxQps && t > this.lastAdjustAt) {
      const gained = (this.maxQps * this.adaptive.recoveryFractionPerSecond * (t - this.lastAdjustAt)) / 1000;
      this.current = Math.min(this.maxQps, this.current + gained);
    }
    this.lastAdjustAt = t;
    return this.current;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0 && this.active < this.concurrency) {
      const t = this.now();
      const interval = 1000 / this.effectiveQps(t);
      const readyAt = Math.max(this.lastSlot + interval, this.pausedUntil);
      if (t < readyAt) {
        this.timer = setTimeout(() => this.pump(), Math.max(1, Math.ceil(readyAt - t)));
        return;
      }
      const w = this.queue.shift()!;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      this.active++;
      // Timers fire late; crediting up to half an interval of that lateness keeps the average at
      // the target rate while any two starts stay >= interval/2 apart (still <= rate + 1 per second).
      this.lastSlot = Math.max(readyAt, t - interval / 2);
      let released = false;
      w.resolve(() => {
        if (released) return;
        released = true;
        this.active--;
        this.pump();
      });
    }
  }
}

function validQps(q: number): number {
  if (!Number.isFinite(q) || q <= 0) throw new AppError('invalid', `QPS must be a positive number, got ${q}`);
  return q;
}

function validConcurrency(c: number): number {
  if (!Number.isInteger(c) || c < 1) throw new AppError('invalid', `concurrency must be a positive integer, got ${c}`);
  return c;
}
