import { AppError } from '../../../../src-shared/errors';
import type { StageContext } from '../queue/job-types';

/**
 * Before each service call: stop here if the job was asked to stop (pause, cancel, a network
 * block, shutdown). Calls already made are left to finish so their answers are recorded.
 */
export function checkpoint(ctx: StageContext): void {
  if (ctx.stopping.aborted || ctx.signal.aborted) throw new AppError('cancelled', 'stopped before the next call');
}
