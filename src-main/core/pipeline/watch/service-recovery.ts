import { toAppError, type ErrorKind } from '../../../../src-shared/errors';
import type { ServiceClient } from '../../service/client';
import type { Logger } from '../../util/logger';
import type { JobQueue } from '../queue/job-queue';
import type { Job } from '../queue/job-types';

/** The service's own trouble (500, 502/503, 504): nothing about the job, it passes. */
export const SERVICE_TROUBLE: ReadonlySet<ErrorKind> = new Set(['server', 'upstream', 'timeout']);

export interface ServiceRecoveryOptions {
  client: () => ServiceClient;
  /** Puts the failed jobs back (the pipeline re-arms their tasks); returns how many. */
  rearm: (jobs: readonly Job[]) => number;
  /** First look after a failure, doubling up to maxMs while the service is still in trouble. */
  probe?: { initialMs: number; maxMs: number };
  logger?: Logger;
}

/**
 * A network job that ran out of attempts during a storm of 500s (or 502s, 504s) failed for the
 * service's sake, not its own: once the service answers well again it runs again by itself. While
 * such jobs wait, a cheap non-billable call (the collection list) looks at the service, first after
 * a couple of seconds, then less and less often (at most every few minutes); the first good answer
 * puts them back in the queue with fresh attempts. The interval only comes down once no such job
 * is left, so a job the service fails for good is tried again now and then, never in a loop.
 */
export class ServiceRecovery {
  private timer: NodeJS.Timeout | null = null;
  private delay: number;
  private stopped = true;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly queue: JobQueue,
    private readonly o: ServiceRecoveryOptions,
  ) {
    this.delay = o.probe?.initialMs ?? 2000;
  }

  /** With the queue: from now on failures are watched, and those of an earlier run looked at. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.queue.onJob((j) => {
      if (isTroubleFailure(j)) this.schedule();
    });
    if (this.failed().length > 0) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private failed(): Job[] {
    return this.queue.list({ states: ['failed'] }).filter(isTroubleFailure);
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => void this.look(), this.delay);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    const waiting = this.failed();
    if (waiting.length === 0) {
      this.delay = this.o.probe?.initialMs ?? 2000;
      return;
    }
    this.delay = Math.min(this.o.probe?.maxMs ?? 5 * 60_000, this.delay * 2);
    try {
      await this.o.client().listCollections({ timeoutMs: 10_000 });
    } catch (e) {
      this.o.logger?.debug('pipeline.recovery.still', { kind: toAppError(e).kind, waiting: waiting.length });
      this.schedule();
      return;
    }
    if (this.stopped) return;
    try {
      const n = this.o.rearm(waiting);
      this.o.logger?.info('pipeline.recovery.rearmed', { jobs: n });
    } catch (e) {
      // The catalog refused the write (a full disk): the queue holds on that; look again later.
      this.o.logger?.warn('pipeline.recovery.failed', { message: toAppError(e).message });
      this.schedule();
    }
  }
}

function isTroubleFailure(j: Job): boolean {
  return j.state === 'failed' && j.resource === 'network' && j.lastErrorKind !== null && SERVICE_TROUBLE.has(j.lastErrorKind);
}
