import { toAppError } from '../../../../src-shared/errors';
import type { ServiceClient } from '../../service/client';
import type { Logger } from '../../util/logger';
import { BlockWatch } from './block-watch';
import type { JobQueue } from '../queue/job-queue';

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
 * The service's blocks that clear by themselves, each a BlockWatch. Offline: a cheap, non-billable
 * call (list collections) on a growing interval; any answer from the service (even an error
 * status) means it is reachable again. Quota: optionally, the client's quota probe on a long interval.
 * Returns the offline watch's `lookNow` (Resume, new settings) and one `stop` for both.
 */
export function watchNetwork(queue: JobQueue, o: NetworkWatchOptions): { probeNow(): void; stop(): void } {
  const timeoutMs = o.probeTimeoutMs ?? 5000;
  const offline = new BlockWatch(queue, {
    reason: 'offline',
    delay: { initialMs: o.offlineProbe?.initialMs ?? 1000, maxMs: o.offlineProbe?.maxMs ?? 30_000 },
    clears: async (signal) => {
      try {
        await o.client().listCollections({ signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]), timeoutMs });
        return true;
      } catch (e) {
        const err = toAppError(e);
        // An answer with an error status still proves the service is there; auth and quota then
        // block on their own when a stage calls again.
        if (err.kind === 'auth') queue.block('auth', err.message);
        return !['offline', 'timeout', 'cancelled'].includes(err.kind);
      }
    },
    onClear: () => o.logger?.info('pipeline.online', {}),
  });
  const quotaMs = o.quotaProbeMs;
  const quota = quotaMs
    ? new BlockWatch(queue, {
        reason: 'quota',
        delay: { initialMs: quotaMs, maxMs: quotaMs },
        // Unreachable or refused: not yet, try again at the next interval.
        clears: (signal) => o.client().probeQuota({ signal, timeoutMs }),
        onClear: () => o.logger?.info('pipeline.quota.available', {}),
      })
    : null;
  return {
    probeNow: () => offline.lookNow(),
    stop() {
      offline.stop();
      quota?.stop();
    },
  };
}
