import { AppError } from '../../../src-shared/errors';
import type { StageName } from '../../../src-shared/contract/stage-graph';
import type { AnyStageHandler, JobSpec, JobState, StageHandler } from '../pipeline/queue/job-types';
import { checkCollectionVideos, runCollectionUpload, type CollectionStageDeps } from './collection-stages';
import { OPEN_STATES } from './collection-video-row';

export const COLLECTION_UPLOAD_STAGE = 'collection-upload' satisfies StageName;
export const COLLECTION_POLL_STAGE = 'collection-poll' satisfies StageName;

/** Between two status rounds of a clip whose video the service is still processing. */
export const DEFAULT_STATUS_RECHECK_MS = 2000;

/**
 * The two collection stages as durable-queue handlers. Upload leads to poll; poll checks once and
 * asks to run again later while the service is still working, so it holds no slot meanwhile.
 */
export function collectionStageHandlers(d: CollectionStageDeps, opts: { recheckMs?: number } = {}): AnyStageHandler[] {
  const recheckMs = opts.recheckMs ?? DEFAULT_STATUS_RECHECK_MS;
  const poll = (clipId: number): JobSpec & { stage: typeof COLLECTION_POLL_STAGE } => ({ clipId, stage: COLLECTION_POLL_STAGE });
  const upload: StageHandler<typeof COLLECTION_UPLOAD_STAGE> = {
      stage: COLLECTION_UPLOAD_STAGE,
      async run(ctx) {
        const clipId = ctx.job.clipId!;
        if (ctx.stopping.aborted) throw new AppError('cancelled', 'stopping before the upload');
        const r = await runCollectionUpload(d, clipId, ctx.signal, ctx.stopping, ctx.progress);
        // Rows another seat of the team is uploading: this stage looks again (their video id, arriving, restarts it at once).
        if (r.wait) return { again: r.wait };
        return r.pollNeeded ? { next: [poll(clipId)] } : {};
      },
    };
  const status: StageHandler<typeof COLLECTION_POLL_STAGE> = {
      stage: COLLECTION_POLL_STAGE,
      async run(ctx) {
        if (ctx.stopping.aborted) throw new AppError('cancelled', 'stopping before the status check');
        const r = await checkCollectionVideos(d, ctx.job.clipId!, ctx.signal);
        ctx.progress(r.progress);
        if (r.open > 0) return { again: { delayMs: recheckMs, note: `${r.open} video(s) processing` } };
        // The Jobs view shows the service's reason; re-attaching in Collections uploads the clip anew.
        if (r.failed.length > 0) throw new AppError('media', `the service failed the video: ${r.failed.join('; ')}`);
        return {};
      },
    };
  return [upload, status];
}

/** What the handlers need from the runner: the app's durable job queue. */
export interface CollectionScheduler {
  /** Work on these clips' open rows (upload, then poll). Calling again for a busy clip re-runs it after. */
  schedule(clipIds: readonly number[]): void;
  /** Stop the work in flight for these clips; rows of other collections carry on. */
  cancel(clipIds: readonly number[]): void;
}

/** The part of the job queue the collections module uses. */
export interface CollectionQueue {
  register(handler: AnyStageHandler): void;
  enqueue(spec: JobSpec, opts?: { reset?: boolean }): unknown;
  find(clipId: number | null, stage: StageName): { id: number; state: JobState } | undefined;
  cancelJob(id: number): unknown;
}

/** Attach and cancel as jobs of the durable queue. */
export function createQueueScheduler(queue: Omit<CollectionQueue, 'register'>, d: Pick<CollectionStageDeps, 'store' | 'region'>): CollectionScheduler {
  const start = (clipId: number) => queue.enqueue({ clipId, stage: COLLECTION_UPLOAD_STAGE }, { reset: true });
  return {
    schedule(clipIds) {
      for (const id of clipIds) start(id);
    },
    cancel(clipIds) {
      for (const id of clipIds) {
        const stillOpen = d.store.rowsOfClip(d.region(), id).some((r) => OPEN_STATES.includes(r.status));
        if (stillOpen) {
          // Rows of other collections carry on: restarting the chain skips the cancelled rows.
          start(id);
          continue;
        }
        for (const stage of [COLLECTION_UPLOAD_STAGE, COLLECTION_POLL_STAGE] as const) {
          const job = queue.find(id, stage);
          if (job && (job.state === 'queued' || job.state === 'running' || job.state === 'paused')) queue.cancelJob(job.id);
        }
      }
    },
  };
}
