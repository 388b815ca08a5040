import { AppError, toAppError } from '../../../../src-shared/errors';
import type { AsyncStatus } from '../../service/responses/tasks';
import { classifyTaskFailure, type TaskFailureCause } from '../../service/task-failure';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { runPool } from './run-pool';
import type { TaskRow } from '../service-cache/segment-rows';
import { nextStage } from './media-stages';
import { checkpoint } from './checkpoint';
import { recordLoss, serviceScope } from './service-access';

/** A failed task's fresh upload gets a new request id: the old one names the content the service failed on. */
export function resubmitRequestId(requestId: string, n: number): string {
  return `${requestId.replace(/\.r\d+$/, '')}.r${n}`;
}

/**
 * A task the service failed on its side is sent again at once up to maxResubmits times; after
 * that the job fails as 'upstream', the queue retries it later with backoff, and each later run
 * sends it again, up to this many more times.
 */
export const LATER_RESUBMITS = 2;

/** The job's error for tasks failed for good, by what the user can do about them. */
function taskFailureError(failures: readonly { cause: TaskFailureCause; text: string }[]): AppError {
  const input = failures.find((f) => f.cause === 'input');
  if (input) return new AppError('invalid', `the service could not use what was sent (${failures.length} task(s)): ${input.text}`);
  return new AppError('upstream', `the service failed ${failures.length} task(s) on its side: ${failures[0]!.text}; they are sent again later`);
}

/**
 * Reads the status of every task of the clip still in flight (one GET each; tasks submitted before
 * a crash are simply polled again). A completed task's result is written in the same transaction
 * that marks it done: the embedding as float32 LE with model, region and profile; the tags as
 * the raw JSON plus the three recognised fields as vocabulary ids (tags/tag-vocabulary.ts). Until all are done the job comes back after a delay
 * that grows with the tasks' age, without holding a network slot meanwhile.
 */
export function pollStage(d: StageDeps): StageHandler<'poll'> {
  return {
    stage: 'poll',
    maxAttempts: 6,
    async run(ctx) {
      const { clipId, region, model, client } = serviceScope(d, ctx);
      /** A new upload under a new request id, then a new task (the old one named content the service failed on). */
      const resubmitNow = (segId: number, kind: TaskRow['kind'], resubmits: number, reason: string) => {
        const up = d.store.upload(segId, kind, region)!;
        d.store.noteResubmit(segId, kind, region);
        d.store.renameForResubmit(up.id, resubmitRequestId(up.request_id, resubmits + 1));
        d.logger?.warn('pipeline.task.failed', { clipId, segmentId: segId, kind, reason, resubmit: resubmits + 1 });
      };
      const segs = d.store.segmentsOf(clipId, d.profile.id);
      const tasks = d.store.tasksOf(clipId, d.profile.id, region);
      const expected = segs.length * 2;
      const unsubmitted = tasks.filter((t) => t.task_id === null || t.status === 'submitting');
      if (tasks.length < expected || unsubmitted.length > 0) {
        // Something is not submitted yet (resubmission after a failed task, or keys lost): back a step.
        const needsUpload = d.store.uploadsOf(clipId, d.profile.id, region).some((u) => u.storage_keys_json === null);
        return { next: nextStage(ctx, needsUpload ? 'upload' : 'submit', ctx.job.workS ?? null) };
      }
      const failed = tasks.filter((t) => t.status === 'failed');
      if (failed.length > 0) {
        // A retry after the service failed tasks on its side: send them again while the budget lasts.
        const again = failed.filter((t) => classifyTaskFailure(t.error_message) === 'service' && t.resubmits < d.maxResubmits + LATER_RESUBMITS);
        if (again.length < failed.length) {
          throw taskFailureError(failed.map((t) => ({ cause: classifyTaskFailure(t.error_message), text: `${t.kind} task ${t.task_id}: ${t.error_message ?? 'no reason given'}` })));
        }
        for (const t of again) resubmitNow(t.segment_id, t.kind, t.resubmits, t.error_message ?? 'no reason given');
        return { next: nextStage(ctx, 'upload', ctx.job.workS ?? null) };
      }
      const open = new Map<string, TaskRow>();
      for (const t of tasks) if (t.status !== 'done' && t.status !== 'failed' && t.task_id) open.set(t.task_id, t);
      const permanentFailures: { cause: TaskFailureCause; text: string }[] = [];
      let resubmit = false;
      let lost = false;

      await runPool([...open.values()], d.callsPerJob, async (t) => {
        let s: AsyncStatus;
        checkpoint(ctx);
        try {
          s = await client.getAsyncStatus(t.task_id!, { signal: ctx.signal });
        } catch (e) {
          const err = toAppError(e);
          if (err.kind !== 'not_found') throw err;
          // The service forgot the task (restarted, expired): assume it forgot the keys as well, so
          // the segment is uploaded and submitted once more; a second loss fails the clip.
          for (const segId of d.store.segmentsForTask(t.task_id!, region)) recordLoss(d, segId, t.kind, region, 'task');
          lost = true;
          return;
        }
        if (s.status === 'completed') {
          const ids = d.store.segmentsForTask(t.task_id!, region);
          if (t.kind === 'embedding') {
            if (!s.embedding || s.embedding.length === 0) throw new AppError('invalid', `embedding task ${t.task_id} completed without an embedding`);
            d.store.storeEmbedding(ids, s.embedding, { model, region, profileId: d.profile.id }, t.task_id!);
          } else {
            if (s.tagsRaw === undefined) throw new AppError('invalid', `tagging task ${t.task_id} completed without tags`);
            const tg = s.tags;
            d.store.storeTags(
              ids,
              JSON.stringify(s.tagsRaw),
              {
                shotSize: tg?.shotSize ? { id: tg.shotSize.canonical, confidence: tg.shotSize.confidence ?? null } : null,
                cameraMovement: tg?.cameraMovement ? { id: tg.cameraMovement.canonical, confidence: tg.cameraMovement.confidence ?? null } : null,
                shootingAngle: tg?.shootingAngle ? { id: tg.shootingAngle.canonical, confidence: tg.shootingAngle.confidence ?? null } : null,
              },
              t.task_id!,
              region,
            );
          }
        } else if (s.status === 'failed') {
          const reason = s.errorMessage ?? 'no reason given';
          const cause = classifyTaskFailure(reason);
          for (const segId of d.store.segmentsForTask(t.task_id!, region)) {
            const row = d.store.task(segId, t.kind, region)!;
            if (cause === 'service' && row.resubmits < d.maxResubmits) {
              resubmitNow(segId, t.kind, row.resubmits, reason);
              resubmit = true;
            } else {
              d.store.setTaskStatus(t.task_id!, region, 'failed', reason);
              permanentFailures.push({ cause, text: `${t.kind} task ${t.task_id}: ${reason}` });
            }
          }
        } else {
          d.store.setTaskStatus(t.task_id!, region, s.status);
        }
      });

      const after = d.store.tasksOf(clipId, d.profile.id, region);
      const completed = after.filter((t) => t.status === 'done').length;
      ctx.progress(completed / Math.max(1, expected), `${completed}/${expected} results`);
      if (permanentFailures.length > 0) throw taskFailureError(permanentFailures);
      if (resubmit || lost) return { next: nextStage(ctx, 'upload', ctx.job.workS ?? null) };
      const stillOpen = after.filter((t) => t.status !== 'done');
      if (stillOpen.length > 0) {
        const oldest = Math.min(...stillOpen.map((t) => t.submitted_at ?? Date.now()));
        return { again: { delayMs: d.pollDelayMs(Date.now() - oldest), note: `${completed}/${expected} results` } };
      }
      return { next: nextStage(ctx, 'index', ctx.job.workS ?? null) };
    },
  };
}

/** Default poll spacing: a quarter of the tasks' age, between 0.5 s and 15 s. */
export function defaultPollDelay(ageMs: number): number {
  return Math.min(15_000, Math.max(500, Math.round(ageMs / 4)));
}
