import type { BlockReason } from '../queue/error-policy';
import type { GateState } from '../queue/gate';
import type { JobQueue } from '../queue/job-queue';

export interface BlockWatchOptions {
  /** The block this watch lifts (the queue sets it itself). */
  reason: BlockReason;
  /** Whether the block can go now; the signal ends a look cut short by stop(). A throw counts as "not yet". */
  clears: (signal: AbortSignal) => boolean | Promise<boolean>;
  /** First look once the block is set; each miss doubles the wait up to maxMs (both the same: a fixed interval). */
  delay: { initialMs: number; maxMs: number };
  /** Called when a look lifts the block, before the queue opens. */
  onClear?: () => void;
}

/**
 * The one watcher for the queue's blocks that clear by themselves: while its block holds, it looks
 * whether the block can go (room in the data folder again, the service answering, the quota back)
 * on a growing interval, and lifts it. One look at a time; none while the block is not set.
 */
export class BlockWatch {
  private timer: NodeJS.Timeout | null = null;
  private delayMs: number;
  private looking: AbortController | null = null;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: JobQueue,
    private readonly o: BlockWatchOptions,
  ) {
    this.delayMs = o.delay.initialMs;
    this.unsubscribe = queue.onGate((g) => this.onGate(g));
    this.onGate(queue.gate());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.clearTimer();
    this.looking?.abort();
  }

  /** Looks at once and starts the intervals over (the user pressed Resume, or the settings changed). */
  lookNow(): void {
    if (this.stopped || !this.queue.isBlocked(this.o.reason)) return;
    this.clearTimer();
    this.delayMs = this.o.delay.initialMs;
    void this.look();
  }

  private onGate(g: GateState): void {
    if (this.stopped) return;
    if (g.blocks.some((b) => b.reason === this.o.reason)) {
      if (!this.timer && !this.looking) this.schedule();
    } else {
      this.clearTimer();
      this.delayMs = this.o.delay.initialMs;
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.look();
    }, this.delayMs);
    this.timer.unref();
    this.delayMs = Math.min(this.o.delay.maxMs, this.delayMs * 2);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async look(): Promise<void> {
    if (this.stopped || this.looking) return;
    const ctrl = new AbortController();
    this.looking = ctrl;
    let clear = false;
    try {
      clear = await this.o.clears(ctrl.signal);
    } catch {
      clear = false;
    } finally {
      this.looking = null;
    }
    if (this.stopped) return;
    if (clear) {
      this.o.onClear?.();
      this.queue.unblock(this.o.reason);
    } else if (this.queue.isBlocked(this.o.reason)) {
      this.schedule();
    }
  }
}
