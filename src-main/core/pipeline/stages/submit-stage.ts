import { AppError, toAppError } from '../../../../src-shared/errors';
import type { ServiceClient, SubmitResult } from '../../service/client';
import type { TensorService } from '../../tensors/chunk-upload';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { runPool } from './run-pool';
import { parseStoredKeys, type SegmentRow, type UploadRow } from '../service-cache/segment-rows';
import { nextStage } from './media-stages';
import { checkpoint } from './checkpoint';
import { recordLoss, serviceScope } from './service-access';
import { backToUpload } from './upload-stage';

interface SubmitItem {
  seg: SegmentRow;
  kind: TensorService;
  up: UploadRow;
}

/**
 * Whether the service has a task under the request_id the client chose at upload: the status
 * endpoint answers for it (any status), or 404. Anything else (unreachable, 5xx) is no answer:
 * thrown, so the job runs again later instead of guessing.
 */
async function submittedBefore(client: ServiceClient, requestId: string, signal: AbortSignal): Promise<boolean> {
  try {
    await client.getAsyncStatus(requestId, { signal });
    return true;
  } catch (e) {
    if (toAppError(e).kind === 'not_found') return false;
    throw e;
  }
}

/**
 * Submits one asynchronous task per segment and service (embedding: video + audio keys; tagging:
 * video + kwargs keys). Order of writes, for idempotency:
 *   1. the row goes to 'submitting' (intent) before the call;
 *   2. the service's request_id is recorded, status 'pending', the moment the answer arrives.
 * A row already past (2) is never submitted again; its task is polled. A row found in
 * 'submitting' (a crash, a lost answer) is the ambiguous case. The spec names the upload's
 * request_id a "client-chosen task identifier": a service whose task takes it can say whether it
 * got the submit, so the status endpoint is asked for that id first (free); a task there is
 * recorded and polled, not sent again. A 404 (or a service that makes up its own ids, where the
 * lookup cannot find it) leaves one way: submit again (counted in `sends`). A task whose uploaded
 * tensors are identical to another segment's reuses that task instead of submitting.
 */
export function submitStage(d: StageDeps): StageHandler<'submit'> {
  return {
    stage: 'submit',
    maxAttempts: 6,
    async run(ctx) {
      const { clipId, region, client } = serviceScope(d, ctx);
      const uploads = d.store.uploadsOf(clipId, d.profile.id, region);
      if (uploads.some((u) => u.storage_keys_json === null)) return backToUpload(ctx);
      const items: SubmitItem[] = [];
      for (const up of uploads) {
        const task = d.store.task(up.seg.id, up.service, region);
        const submitted = task && task.task_id !== null && task.status !== 'submitting';
        if (!submitted) items.push({ seg: up.seg, kind: up.service, up });
      }
      // A seat of a team library: submissions any seat made of this clip are in the team's journal; a
      // clip taken over from a seat that died may have one it made without living to record the answer,
      // asked of the service before sending again.
      const share = d.share();
      const takenOver = share?.takenOver(clipId) ?? false;
      const teamTasks = share ? await share.knownTasks(clipId, region, items.map((i) => i.up.request_id)) : new Map<string, string>();
      const total = uploads.length;
      let done = total - items.length;
      let keysLost = false;
      await runPool(items, d.callsPerJob, async (item) => {
        const live = d.store.liveTaskFor(item.up.request_id, item.kind, region);
        const teamTask = teamTasks.get(`${item.kind}:${item.up.request_id}`);
        if (teamTask) {
          d.store.recordTeamTask(item.seg.id, item.kind, region, item.up.request_id, teamTask);
        } else if (live && live.segment_id !== item.seg.id) {
          d.store.adoptTask(item.seg.id, item.kind, region, live);
        } else {
          const keys = parseStoredKeys(item.up.storage_keys_json);
          if (!keys?.video_input_key) throw new AppError('internal', `upload ${item.up.request_id} has no video key`);
          const prior = d.store.task(item.seg.id, item.kind, region);
          if (prior?.status === 'submitting' || takenOver) {
            checkpoint(ctx);
            const known = await submittedBefore(client, item.up.request_id, ctx.signal);
            d.logger?.warn('pipeline.submit.ambiguous', { clipId, segmentId: item.seg.id, kind: item.kind, sends: prior?.sends ?? 0, takenOver, foundByRequestId: known });
            if (known) {
              // The task found under the upload's id: recorded as submitted (by this seat before, or by the seat that died).
              if (prior) d.store.recordSubmitted(item.seg.id, item.kind, region, item.up.request_id);
              else d.store.recordTeamTask(item.seg.id, item.kind, region, item.up.request_id, item.up.request_id);
              await share?.submitted(clipId, item.up.request_id, item.kind, region, item.up.request_id);
              done++;
              ctx.progress(done / Math.max(1, total), `${done}/${total} tasks submitted`);
              return;
            }
          }
          let res: SubmitResult;
          checkpoint(ctx);
          try {
            res = await d.inflight.run(`submit:${region}:${item.kind}:${item.up.request_id}`, async () => {
              d.store.beginSubmit(item.seg.id, item.kind, region, item.up.request_id);
              return item.kind === 'embedding'
                ? client.encodeVideoAsync({ tensor: { video_input_key: keys.video_input_key!, ...(keys.audio_input_key ? { audio_input_key: keys.audio_input_key } : {}) } }, { signal: ctx.signal })
                : client.tagVideoAsync({ tensor: { video_input_key: keys.video_input_key!, ...(keys.video_kwargs_key ? { video_kwargs_key: keys.video_kwargs_key } : {}) } }, { signal: ctx.signal });
            });
          } catch (e) {
            const err = toAppError(e);
            // The service no longer knows the storage key (expired): upload again, then submit.
            if (err.kind !== 'not_found') throw err;
            d.logger?.warn('pipeline.submit.keys-expired', { clipId, segmentId: item.seg.id, kind: item.kind, message: err.message });
            recordLoss(d, item.seg.id, item.kind, region, 'storage keys');
            keysLost = true;
            return;
          }
          if (!d.store.task(item.seg.id, item.kind, region)) d.store.beginSubmit(item.seg.id, item.kind, region, item.up.request_id);
          d.store.recordSubmitted(item.seg.id, item.kind, region, res.requestId);
          await share?.submitted(clipId, item.up.request_id, item.kind, region, res.requestId);
        }
        done++;
        ctx.progress(done / Math.max(1, total), `${done}/${total} tasks submitted`);
      });
      if (keysLost) return backToUpload(ctx);
      return { next: nextStage(ctx, 'poll', ctx.job.workS ?? null) };
    },
  };
}
