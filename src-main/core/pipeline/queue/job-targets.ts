import type { BackgroundStage } from '../../../../src-shared/contract/jobs';
import type { JobQueue } from './job-queue';
import type { JobState } from './job-types';

export type JobTarget =
  | { jobId: number; clipId?: undefined; background?: undefined }
  | { clipId: number; jobId?: undefined; background?: undefined }
  /** Every job of a background stage (Jobs' Pause / Resume of the viewing proxies). */
  | { background: BackgroundStage; jobId?: undefined; clipId?: undefined };

/** The jobs of a clip or of a background stage in these states. */
function idsOf(queue: JobQueue, t: Exclude<JobTarget, { jobId: number }>, states: JobState[]): number[] {
  return t.background !== undefined ? queue.store.idsOfStageInStates(t.background, states) : queue.store.idsOfClipInStates(t.clipId, states);
}

/**
 * The Jobs view's controls on one job, a clip's jobs or a background stage's (the viewing proxies,
 * paused, resumed, cancelled and retried as one): each the queue's control of one job over the
 * jobs in the states it applies to. Each returns how many jobs it was applied to.
 */
export function pauseTarget(queue: JobQueue, t: JobTarget): number {
  if (t.jobId !== undefined) return queue.pauseJob(t.jobId) ? 1 : 0;
  return idsOf(queue, t, ['queued', 'running']).map((id) => queue.pauseJob(id)).length;
}

export function resumeTarget(queue: JobQueue, t: JobTarget): number {
  if (t.jobId !== undefined) return queue.resumeJob(t.jobId) ? 1 : 0;
  return idsOf(queue, t, ['paused']).map((id) => queue.resumeJob(id)).length;
}

export function cancelTarget(queue: JobQueue, t: JobTarget): number {
  if (t.jobId !== undefined) return queue.cancelJob(t.jobId) ? 1 : 0;
  return idsOf(queue, t, ['queued', 'running', 'paused']).map((id) => queue.cancelJob(id)).length;
}

export function retryTarget(queue: JobQueue, t: JobTarget): number {
  if (t.jobId !== undefined) return queue.retryJob(t.jobId)?.state === 'queued' ? 1 : 0;
  return idsOf(queue, t, ['failed', 'cancelled']).map((id) => queue.retryJob(id)).length;
}

/** Every failed job back to queued. Returns how many. */
export function retryFailedJobs(queue: JobQueue): number {
  const ids = queue.store.idsInStates(['failed']);
  for (const id of ids) queue.retryJob(id);
  return ids.length;
}
