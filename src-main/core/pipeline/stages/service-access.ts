import { AppError, toAppError } from '../../../../src-shared/errors';
import type { ServiceClient } from '../../service/client';
import type { StageContext } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';

/**
 * The client for the current settings. Missing settings (no key, no base URL) stop network stages
 * the way a rejected key does: the queue holds them behind the 'auth' block and the banner sends
 * the user to Settings, instead of failing every clip's upload.
 */
function requireClient(d: StageDeps): ServiceClient {
  try {
    return d.client();
  } catch (e) {
    const err = toAppError(e);
    if (err.kind === 'auth' || err.kind === 'invalid') throw new AppError('auth', `service not set up: ${err.message}`);
    throw err;
  }
}

/** What every network stage starts from: its clip, the current service identity and a client. */
export function serviceScope(d: StageDeps, ctx: StageContext): { clipId: number; region: string; model: string; client: ServiceClient } {
  return { clipId: ctx.job.clipId!, ...d.identity(), client: requireClient(d) };
}

/** Losses of a segment's storage keys or task the pipeline recovers by sending it again; the next one fails the clip. */
export const RECOVERED_LOSSES = 1;

/**
 * Records that the service forgot a segment's keys or task (404). Returns normally when one more
 * upload and submission may recover it; throws the clip's failure when it has already been lost
 * before (a service that keeps forgetting would otherwise be fed the same segment forever).
 */
export function recordLoss(d: StageDeps, segmentId: number, kind: 'embedding' | 'tagging', region: string, what: string): void {
  const losses = d.store.noteLoss(segmentId, kind, region);
  if (losses > RECOVERED_LOSSES) {
    throw new AppError('not_found', `the service lost the ${kind} ${what} of segment ${segmentId} again after it was sent anew (${losses} losses): it does not keep what it is sent; indexing of this clip stopped`);
  }
}
