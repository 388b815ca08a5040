import { toAppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import type { Logger } from '../util/logger';
import { processClipMedia, type StageOptions } from './media-stages';

export interface MediaQueueOptions {
  cacheDir: string;
  /** Clips processed at once; ffmpeg already uses several threads per clip. */
  concurrency?: number;
  tools?: () => { ffmpeg?: string; ffprobe?: string };
  logger?: Logger;
  /** After each clip (done, failed or skipped). */
  onClipDone?: (clipId: number) => void;
  onState?: (state: { pending: number; runningClipId: number | null }) => void;
  probe?: StageOptions['probe'];
}

/**
 * The Library's own shots-and-thumbnails runner, so a dropped folder fills with thumbnails without
 * the durable job pipeline. In memory: what it has not done after a restart is found again from the
 * catalog (status 'probed'). dispose() kills the running ffmpeg.
 */
export class MediaQueue {
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  private running = new Map<number, AbortController>();
  private disposed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly db: CatalogDb,
    private readonly opts: MediaQueueOptions,
  ) {}

  enqueue(clipIds: readonly number[], opts: { front?: boolean } = {}): void {
    if (this.disposed) return;
    const fresh = clipIds.filter((id) => !this.queued.has(id) && !this.running.has(id));
    for (const id of fresh) this.queued.add(id);
    if (opts.front) this.queue.unshift(...fresh);
    else this.queue.push(...fresh);
    this.emitState();
    this.pump();
  }

  get size(): number {
    return this.queue.length + this.running.size;
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  dispose(): void {
    this.disposed = true;
    this.queue.length = 0;
    this.queued.clear();
    for (const c of this.running.values()) c.abort();
    this.settleIdle();
  }

  private emitState(): void {
    const running = this.running.keys().next();
    this.opts.onState?.({ pending: this.queue.length, runningClipId: running.done ? null : running.value });
  }

  private settleIdle(): void {
    if (this.size !== 0 && !this.disposed) return;
    const w = this.idleWaiters;
    this.idleWaiters = [];
    for (const r of w) r();
  }

  private pump(): void {
    const limit = this.opts.concurrency ?? 1;
    while (!this.disposed && this.running.size < limit && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.queued.delete(id);
      const ctrl = new AbortController();
      this.running.set(id, ctrl);
      this.emitState();
      void this.run(id, ctrl.signal).finally(() => {
        this.running.delete(id);
        this.opts.onClipDone?.(id);
        this.emitState();
        this.pump();
        this.settleIdle();
      });
    }
  }

  private async run(clipId: number, signal: AbortSignal): Promise<void> {
    try {
      const tools = this.opts.tools?.() ?? {};
      await processClipMedia(this.db, clipId, { cacheDir: this.opts.cacheDir, signal, probe: this.opts.probe, ...tools });
    } catch (e) {
      const err = toAppError(e);
      // Offline volumes, vanished files and cancellation are states, not failures: the clip shows them.
      const level = err.kind === 'internal' || err.kind === 'io' ? 'error' : 'info';
      this.opts.logger?.[level]('library.media.skipped', { clipId, kind: err.kind, message: err.message });
    }
  }
}
