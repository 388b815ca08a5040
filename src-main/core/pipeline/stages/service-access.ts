import { AppError, toAppError } from '../../../../src-shared/errors';
import type { ServiceClient } from '../../service/client';
import type { StageContext } from '../job-types';
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
