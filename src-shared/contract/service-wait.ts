import type { AppErrorData } from '../errors';

/**
 * How long a call that someone waits for, and that has no asynchronous counterpart (a new text
 * query, a collection search), keeps trying while the service is slow. Main retries within it; the
 * renderer shows it.
 */
export const SYNC_CALL_DEADLINE_MS = 45_000;

/**
 * What a failed call to the service means to the person using the app:
 * - offline: no answer at all (network down, host unreachable);
 * - slow: the service answered but did not do the work (502/503/504, 500, or no answer in time);
 * - refused: the service answered no (key, quota, a request it will not take).
 */
export type ServiceFailureClass = 'offline' | 'slow' | 'refused';

export function classifyServiceFailure(err: Pick<AppErrorData, 'kind' | 'status'>): ServiceFailureClass {
  switch (err.kind) {
    case 'offline':
      return 'offline';
    case 'timeout':
    case 'upstream':
    case 'server':
    case 'rate_limit':
      return 'slow';
    default:
      return 'refused';
  }
}
