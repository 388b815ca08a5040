import type { DiskRoomCheck, GateState, JobQueue } from './job-queue';

/**
 * Lifts the queue's `disk` block once there is room again in the data folder: while it holds,
 * free space is read every `intervalMs` (a statfs call, nothing written). The queue sets the block
 * itself, before a job starts or when a write meets a full disk.
 */
export class DiskWatch {
  private timer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: JobQueue,
    private readonly disk: DiskRoomCheck,
    private readonly intervalMs = 2000,
  ) {
    this.unsubscribe = queue.onGate((g) => this.onGate(g));
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private onGate(g: GateState): void {
    const full = g.blocks.some((b) => b.reason === 'disk');
    if (full && !this.timer) {
      this.timer = setInterval(() => {
        if (this.disk.room().ok) this.queue.unblock('disk');
      }, this.intervalMs);
      this.timer.unref();
    } else if (!full && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
