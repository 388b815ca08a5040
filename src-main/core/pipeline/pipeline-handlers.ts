import type { jobsMethods } from '../../../src-shared/contract/jobs';
import type { HandlersFor } from '../rpc/handlers';
import type { IndexingPipeline } from './indexing-pipeline';
import type { JobTarget } from './queue/job-targets';

export interface JobsHandlerDeps {
  pipeline: IndexingPipeline;
}

function target(a: { jobId?: number; clipId?: number; background?: JobTarget['background'] }): JobTarget {
  if (a.jobId !== undefined) return { jobId: a.jobId };
  return a.background !== undefined ? { background: a.background } : { clipId: a.clipId! };
}

/** The jobs.* methods of the contract over one pipeline. */
export function createJobsHandlers(d: JobsHandlerDeps): HandlersFor<typeof jobsMethods> {
  const p = d.pipeline;
  return {
    'jobs.summary': () => p.summary(),
    'jobs.list': (a) => p.listClips(a.filter, a.offset, a.limit),
    'jobs.pause': (a) => ({ changed: p.pause(target(a)) }),
    'jobs.resume': (a) => ({ changed: p.resume(target(a)) }),
    'jobs.cancel': (a) => ({ changed: p.cancel(target(a)) }),
    'jobs.retry': (a) => ({ changed: p.retry(target(a)) }),
    'jobs.retryFailed': () => ({ changed: p.retryFailed() }),
    'jobs.pauseNetwork': () => p.pauseNetwork(),
    'jobs.resumeNetwork': () => p.resumeNetwork(),
    'jobs.prioritizeClip': (a) => ({ changed: p.prioritizeClip(a.clipId) }),
    'jobs.indexClips': (a) => ({ changed: p.enqueueClips(a.clipIds, { restart: a.restart }) }),
  };
}
