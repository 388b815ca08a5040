import { AppError } from '../../../../src-shared/errors';

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

/**
 * Who is waiting: a person (a search, a list refresh, "Tag this range now") or the background
 * (indexing, collection uploads, status polls). Interactive callers take the next token and a few
 * slots of their own beyond the concurrency cap, so a search never waits behind a card's uploads.
 */
export type CallPriority = 'interactive' | 'background';

/** Requests in flight allowed to interactive callers beyond the cap background work fills. */
export const INTERACTIVE_EXTRA_SLOTS = 4;
/**
 * For this long after an interactive call, background work leaves part of each window to the next
 * one (half the window, at most a search's four calls): someone who searched is likely to search
 * again, and must not wait a token at a time behind a card's uploads. Background work gets all
 * but the standing reserve back once they stop.
 */
export const INTERACTIVE_RESERVE_MS = 10_000;
const MAX_INTERACTIVE_RESERVE = 4;
/**
 * Part of each window background work never takes, even when nobody has searched for a while: a
 * tenth, rounded down (one start from 10 QPS, none below, where one start would cost background
 * more than a tenth of its rate). The first search after a quiet spell starts its first call at
 * once instead of waiting for the oldest background start to leave a full window, and its other
 * calls follow as the evenly spaced background starts age out. bench:search-app measured the price
 * of a full window of bunched starts: that search's calls started 450-690 ms late while a card
 * indexed at 10 QPS.
 */
const STANDING_RESERVE_FRACTION = 0.1;
/**
 * Added to the window: a start the client times exactly one window after another may reach the
 * service a little earlier than the one before it did (the network's jitter), and a service that
 * counts a sliding window would refuse it.
 */
const WINDOW_SAFETY_MS = 100;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Most requests that start at once. A burst of the whole per-key QPS is what the service allows, but
 * at a high QPS it also arrives bunched behind itself (sockets, the event loop, the network) and
 * spills into the next second as the service counts it; a search needs a handful at once (encode_text
 * and each collection), not hundreds.
 */
export const MAX_BURST = 8;

/**
 * A token bucket: up to B = min(max(1, floor(r)), MAX_BURST) requests start at once (a search's calls
 * together), and tokens come back at the effective rate r. A rolling window guards it: no window of
 * one second (1 / r seconds below 1 QPS) ever holds more than max(1, floor(r)) starts, however the
 * burst and the refill add up (a bucket alone lets B + r through in some second after an idle
 * spell), so the service's per-key QPS holds however it counts. A fractional rate after a 429 (2.5)
 * runs at its whole part per second (2), the one reading of "2.5 queries per second" that a service
 * counting whole seconds accepts.
 * Two queues: interactive waiters are served before background ones; each is FIFO; while someone
 * searches (INTERACTIVE_RESERVE_MS), background work leaves room in each window and in the bucket
 * for the next search's calls, and a tenth of each window at all times (STANDING_RESERVE_FRACTION);
 * background starts are spaced 1/r apart. A concurrency cap bounds requests in flight
 * (INTERACTIVE_EXTRA_SLOTS more for interactive callers).
 * Adaptive (AIMD): a 429 multiplies the rate by decreaseFactor (at most once per cooldown, so a burst
 * of 429s from one episode counts once) and pauses everyone for Retry-After; the rate then recovers
 * linearly, slowly by default (5% of the maximum per second: 10 s from half to full).
 */
export class AdaptiveRateLimiter {
  private maxQps: number;
  private concurrency: number;
  private adaptive: AdaptiveOptions;
  private current: number;
  private lastAdjustAt: number;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  /** Start times of the most recent requests, oldest first (at most a window's worth). */
  private readonly starts: number[] = [];
  /** Tokens in the bucket at `tokensAt`. */
  private tokens: number;
  private tokensAt: number;
  private pausedUntil = 0;
  private active = 0;
  private decreases = 0;
  private readonly queues: Record<CallPriority, Waiter[]> = { interactive: [], background: [] };
  private lastInteractiveAt = Number.NEGATIVE_INFINITY;
  private lastBackgroundAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: LimiterOptions, private readonly now: () => number = () => performance.now()) {
    this.maxQps = validQps(opts.qps);
    this.concurrency = validConcurrency(opts.concurrency);
    this.adaptive = { ...DEFAULT_ADAPTIVE, ...opts.adaptive };
    this.current = this.maxQps;
    this.lastAdjustAt = this.now();
    this.tokens = this.burst(this.current);
    this.tokensAt = this.lastAdjustAt;
  }

  private burst(rate: number): number {
    return Math.min(Math.max(1, Math.floor(rate)), MAX_BURST);
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

  acquire(signal?: AbortSignal, priority: CallPriority = 'background'): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new AppError('cancelled', 'cancelled'));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      const queue = this.queues[priority];
      if (signal) {
        waiter.onAbort = () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) queue.splice(i, 1);
          reject(new AppError('cancelled', 'cancelled'));
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      queue.push(waiter);
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
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.holdFor(retryAfterMs);
    this.pump();
  }

  /**
   * Nobody starts for `ms` from now (a longer hold already set stands): a Retry-After heard here, or
   * one another seat of the team heard on the same key (team/seat/team-pace.ts). The rate is left as is.
   */
  holdFor(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.pump();
  }

  snapshot(): LimiterSnapshot {
    const t = this.now();
    return {
      maxQps: this.maxQps,
      effectiveQps: this.effectiveQps(t),
      concurrency: this.concurrency,
      active: this.active,
      queued: this.queues.interactive.length + this.queues.background.length,
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

  /**
   * When the next start of this priority may happen: a token in the bucket, and room in the rolling
   * window (for background work, beyond what is kept for someone searching).
   */
  private nextStartAt(t: number, priority: CallPriority): number {
    const rate = this.effectiveQps(t);
    const burst = this.burst(rate);
    this.tokens = Math.min(burst, this.tokens + ((t - this.tokensAt) * rate) / 1000);
    this.tokensAt = t;
    const size = Math.max(1, Math.floor(rate));
    const kept = priority === 'background' ? backgroundReserve(size, t - this.lastInteractiveAt < INTERACTIVE_RESERVE_MS) : 0;
    const need = 1 + Math.min(kept, burst - 1);
    const tokenAt = this.tokens >= need ? t : t + ((need - this.tokens) * 1000) / rate;
    const windowMs = (rate >= 1 ? 1000 : 1000 / rate) + WINDOW_SAFETY_MS;
    while (this.starts.length > size) this.starts.shift();
    const room = size - kept;
    // The oldest start that must leave the window before one more fits.
    const blocking = this.starts.length - room;
    const windowAt = blocking < 0 ? Number.NEGATIVE_INFINITY : this.starts[blocking]! + windowMs;
    // Background starts are spaced evenly, never bunched: a window full of one bunch frees no slot
    // for a search until the whole bunch ages out; evenly spaced starts free one every 1/r.
    const pacedAt = priority === 'background' ? this.lastBackgroundAt + windowMs / size : Number.NEGATIVE_INFINITY;
    return Math.max(tokenAt, windowAt, pacedAt, this.pausedUntil);
  }

  /** The waiter to serve next, and the priority it waits at: interactive first, within the concurrency caps. */
  private nextPriority(): CallPriority | undefined {
    if (this.queues.interactive.length > 0 && this.active < this.concurrency + INTERACTIVE_EXTRA_SLOTS) return 'interactive';
    if (this.queues.background.length > 0 && this.active < this.concurrency) return 'background';
    return undefined;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    for (;;) {
      const priority = this.nextPriority();
      if (!priority) return;
      const t = this.now();
      const readyAt = this.nextStartAt(t, priority);
      if (t < readyAt) {
        this.timer = setTimeout(() => this.pump(), Math.max(1, Math.ceil(readyAt - t)));
        return;
      }
      const w = this.queues[priority].shift()!;
      if (priority === 'interactive') this.lastInteractiveAt = t;
      else this.lastBackgroundAt = t;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      this.active++;
      this.tokens -= 1;
      this.starts.push(t);
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

/** Starts of a window of `size` that background work leaves to interactive callers. */
function backgroundReserve(size: number, searching: boolean): number {
  const standing = Math.floor(size * STANDING_RESERVE_FRACTION);
  return searching ? Math.max(standing, Math.min(MAX_INTERACTIVE_RESERVE, Math.floor(size / 2))) : standing;
}

function validQps(q: number): number {
  if (!Number.isFinite(q) || q <= 0) throw new AppError('invalid', `QPS must be a positive number, got ${q}`);
  return q;
}

function validConcurrency(c: number): number {
  if (!Number.isInteger(c) || c < 1) throw new AppError('invalid', `concurrency must be a positive integer, got ${c}`);
  return c;
}
