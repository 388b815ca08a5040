import { toAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../service/client';
import type { Logger } from '../util/logger';
import type { GateState, JobQueue } from './job-queue';

export interface NetworkWatchOptions {
  client: () => ServiceClient;
  /** First probe after going offline, then doubling up to maxMs. */
  offlineProbe?: { initialMs: number; maxMs: number };
  /** Quota re-check interval (a billable call): null never probes, the user resumes. */
  quotaProbeMs?: number | null;
  /** How long one probe may take before it counts as "still unreachable". */
  probeTimeoutMs?: number;
  logger?: Logger;
}

/**
 * Lifts the blocks that clear by themselves. Offline: a cheap, non-billable call (list
 * collections) on a growing interval; any answer from the service (even an error status) means it
 * is reachable again. Quota: optionally, the client's quota probe on a long interval.
 */
export class NetworkWatch {
  private offlineTimer: NodeJS.Timeout | null = null;
  private quotaTimer: NodeJS.Timeout | null = null;
  private offlineDelay: number;
  private stopped = false;
  private probing: AbortController | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: JobQueue,
    private readonly o: NetworkWatchOptions,
  ) {
    this.offlineDelay = o.offlineProbe?.initialMs ?? 1000;
    this.unsubscribe = queue.onGate((g) => this.onGate(g));
    this.onGate(queue.gate());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    if (this.offlineTimer) clearTimeout(this.offlineTimer);
    if (this.quotaTimer) clearTimeout(this.quotaTimer);
    this.probing?.abort();
  }

  /** Probe at once (the user pressed Resume, or the settings changed). */
  probeNow(): void {
    if (!this.queue.isBlocked('offline')) return;
    if (this.offlineTimer) clearTimeout(this.offlineTimer);
    this.offlineTimer = null;
    this.offlineDelay = this.o.offlineProbe?.initialMs ?? 1000;
    void this.probeOffline();
  }

  private onGate(g: GateState): void {
    if (this.stopped) return;
    const offline = g.blocks.some((b) => b.reason === 'offline');
    if (offline && !this.offlineTimer && !this.probing) this.scheduleOffline();
    if (!offline) {
      if (this.offlineTimer) clearTimeout(this.offlineTimer);
      this.offlineTimer = null;
      this.offlineDelay = this.o.offlineProbe?.initialMs ?? 1000;
    }
    const quota = g.blocks.some((b) => b.reason === 'quota');
    if (quota && this.o.quotaProbeMs && !this.quotaTimer) {
      this.quotaTimer = setTimeout(() => void this.probeQuota(), this.o.quotaProbeMs);
    }
  }

  private scheduleOffline(): void {
    if (this.stopped) return;
    this.offlineTimer = setTimeout(() => {
      this.offlineTimer = null;
      void this.probeOffline();
    }, this.offlineDelay);
    this.offlineDelay = Math.min(this.o.offlineProbe?.maxMs ?? 30_000, this.offlineDelay * 2);
  }

  private async probeOffline(): Promise<void> {
    if (this.stopped || this.probing) return;
    const ctrl = new AbortController();
    this.probing = ctrl;
    const timer = setTimeout(() => ctrl.abort(), this.o.probeTimeoutMs ?? 5000);
    let reachable = false;
    try {
      await this.o.client().listCollections({ signal: ctrl.signal, timeoutMs: this.o.probeTimeoutMs ?? 5000 });
      reachable = true;
    } catch (e) {
      const err = toAppError(e);
      // An answer with an error status still proves the service is there; auth and quota then
      // block on their own when a stage calls again.
      reachable = !['offline', 'timeout', 'cancelled'].includes(err.kind);
      if (err.kind === 'auth') this.queue.block('auth', err.message);
    } finally {
      clearTimeout(timer);
      this.probing = null;
    }
    if (this.stopped) return;
    if (reachable) {
      this.o.logger?.info('pipeline.online', {});
      this.queue.unblock('offline');
    } else if (this.queue.isBlocked('offline')) {
      this.scheduleOffline();
    }
  }

  private async probeQuota(): Promise<void> {
    this.quotaTimer = null;
    if (this.stopped || !this.queue.isBlocked('quota')) return;
    try {
      if (await this.o.client().probeQuota({ timeoutMs: this.o.probeTimeoutMs ?? 5000 })) {
        this.o.logger?.info('pipeline.quota.available', {});
        this.queue.unblock('quota');
        return;
      }
    } catch {
      // Unreachable or refused: try again at the next interval.
    }
    if (!this.stopped && this.queue.isBlocked('quota') && this.o.quotaProbeMs) {
      this.quotaTimer = setTimeout(() => void this.probeQuota(), this.o.quotaProbeMs);
    }
  }
}
