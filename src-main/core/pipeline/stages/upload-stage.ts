import { AppError, toAppError } from '../../../../src-shared/errors';
import { clipWhere, fileWentAway } from '../../library/clip-reach';
import { getClipRow } from '../../library/clip-store';
import type { UploadTensorsRequest } from '../../service/client';
import { chunkUploadBody } from '../../tensors/chunk-upload';
import { splitChunk, type ShotFrames, type TensorChunk } from '../../tensors/shot-chunks';
import type { StageContext, StageHandler, StageOutcome } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { runPool } from './run-pool';
import { SERVICES, storedKeysOf, type SegmentRow, type UploadRow } from '../service-cache/segment-rows';
import { ShotFrameCache } from './shot-frame-cache';
import { chunkContentSha, chunkForSegment, chunkRequestIds, planChunks, rebuildShotFrames, shotSpansOf } from './shot-tensors';
import { checkpoint } from './checkpoint';
import { serviceScope } from './service-access';
import { nextStage } from './media-stages';
import { plannedSegment, tensorSourceOf } from './analysis-stage';

/**
 * Sends every tensor of the clip that has no storage keys yet: embedding uploads carry video +
 * audio, tagging uploads video + video_kwargs. A shot is decoded once for all its pending chunks
 * (the same decode the plan was made with). Order of writes, for idempotency:
 *   1. `sends` is incremented before the call (so a re-send is visible afterwards);
 *   2. the storage keys are recorded the moment the answer arrives.
 * A crash between the service accepting and (2) means the next run sends the same request_id
 * with the same bytes again: the one case a client cannot close without a lookup the spec does not
 * offer (docs/notes-pipeline.md). A 413 halves the chunk into two new segments and carries on.
 */
export function uploadStage(d: StageDeps): StageHandler<'upload'> {
  return {
    stage: 'upload',
    maxAttempts: 6,
    async run(ctx) {
      const { clipId, region, client } = serviceScope(d, ctx);
      const rows = d.store.uploadsOf(clipId, d.profile.id, region);
      // From the catalog each time: a split changes the total under our feet.
      const report = () => {
        const now = d.store.uploadsOf(clipId, d.profile.id, region);
        const done = now.filter((r) => r.storage_keys_json !== null).length;
        ctx.progress(done / Math.max(1, now.length), `${done}/${now.length} uploads`);
      };

      // Identical content uploaded before (this clip or another): its keys serve as they are.
      for (const r of rows) {
        if (r.storage_keys_json !== null) continue;
        const known = d.store.knownKeys(r.request_id, region);
        if (known) {
          d.store.recordKeys(r.id, known);
          r.storage_keys_json = known;
        }
      }
      // A seat of a team library: what any seat uploaded of this clip (one that died holding it, or this
      // one's work resumed after another seat took the clip) is in the team's journal.
      const share = d.share();
      if (share) {
        const team = await share.knownUploads(clipId, region, rows.filter((r) => r.storage_keys_json === null).map((r) => r.request_id));
        for (const r of rows) {
          const keys = r.storage_keys_json === null ? team.get(r.request_id) : undefined;
          if (!keys) continue;
          d.store.recordKeys(r.id, keys);
          r.storage_keys_json = keys;
        }
      }
      const pending = rows.filter((r) => r.storage_keys_json === null);
      if (pending.length > 0) {
        const row = getClipRow(d.db, clipId);
        const src = tensorSourceOf(row);
        const byShot = new Map<number, SegmentRow[]>();
        for (const r of pending) {
          const list = byShot.get(r.seg.shot_id) ?? [];
          if (!list.some((s) => s.id === r.seg.id)) list.push(r.seg);
          byShot.set(r.seg.shot_id, list);
        }
        const allShots = shotSpansOf(d.db, clipId);
        const shots = new Map(allShots.map((s) => [s.id, s]));
        const keyOf = (shotId: number) => {
          const shot = shots.get(shotId)!;
          return ShotFrameCache.key(shot.id, shot.startS, shot.endS, d.profile.id);
        };
        const uploadShot = async (frames: ShotFrames) => {
          const segs = byShot.get(frames.shotId)!;
          checkpoint(ctx);
          const planned = planChunks(frames, d.profile, segs[0]!.budget ?? d.profile.byteBudget);
          await runPool(segs, d.callsPerJob, async (seg) => {
            const chunk = chunkForSegment(planned, seg.chunk_idx, seg.part, d.profile);
            await uploadSegment(seg, chunk, report);
          });
          d.frameCache.delete(keyOf(frames.shotId));
        };
        // A shot re-detected meanwhile has no row any more: its segments are gone with it.
        const wanted = [...byShot.keys()].filter((id) => shots.has(id));
        const evicted = new Set<number>();
        for (const shotId of wanted) {
          const frames = d.frameCache.get(keyOf(shotId));
          if (frames) await uploadShot(frames);
          else evicted.add(shotId);
        }
        // Frames no longer in memory (a restart, a long clip): one decode rebuilds them all. A file
        // that went away meanwhile is waited for, as in the CPU stages.
        await rebuildShotFrames(src, allShots.filter((s) => evicted.has(s.id)), d.profile, { signal: ctx.signal, ffmpeg: d.tools().ffmpeg, threads: d.decodeThreads(ctx.job) }, uploadShot).catch(
          (e: unknown) => {
            throw (ctx.signal.aborted ? null : fileWentAway(d.db, clipWhere(row))) ?? e;
          },
        );
      }
      report();
      const left = d.store.uploadsOf(clipId, d.profile.id, region).filter((r) => r.storage_keys_json === null);
      if (left.length > 0) throw new AppError('internal', `${left.length} uploads still have no storage keys`);
      return { next: nextStage(ctx, 'submit', ctx.job.workS ?? null) };

      async function uploadSegment(seg: SegmentRow, chunk: TensorChunk, onUploaded: () => void): Promise<void> {
        const sha = chunkContentSha(chunk);
        if (seg.content_sha !== sha) {
          // Another ffmpeg build decoded different bytes: nothing of this segment was uploaded yet
          // under the old id (rows with keys keep theirs), so the new content gets its own ids.
          d.logger?.warn('pipeline.tensor.rebuilt-differs', { segmentId: seg.id, clipId });
          d.store.updateContent(seg, sha, chunkRequestIds(d.profile, chunk), region);
          seg.content_sha = sha;
        }
        for (const service of SERVICES) {
          const up = d.store.upload(seg.id, service, region);
          if (!up || up.storage_keys_json !== null) continue;
          const known = d.store.knownKeys(up.request_id, region);
          if (known) {
            d.store.recordKeys(up.id, known);
            onUploaded();
            continue;
          }
          try {
            await send(up, chunk, service);
            onUploaded();
          } catch (e) {
            const err = toAppError(e);
            if (err.kind !== 'too_large') throw err;
            await split(seg, chunk, err, onUploaded);
            return;
          }
        }
      }

      async function send(up: UploadRow, chunk: TensorChunk, service: (typeof SERVICES)[number]): Promise<void> {
        checkpoint(ctx);
        const body = chunkUploadBody(chunk, service, up.request_id) as unknown as UploadTensorsRequest;
        const res = await d.inflight.run(`upload:${region}:${up.request_id}`, async () => {
          d.store.noteUploadSend(up.id);
          return client.uploadTensors(body, { signal: ctx.signal });
        });
        const keys = JSON.stringify(storedKeysOf(res));
        d.store.recordKeys(up.id, keys);
        await share?.uploaded(clipId, up.request_id, region, keys);
      }

      /** 413: two halves replace the segment (new rows, new request ids), each uploaded in turn. */
      async function split(seg: SegmentRow, chunk: TensorChunk, cause: AppError, onUploaded: () => void): Promise<void> {
        const halves = splitChunk(chunk, d.profile);
        d.logger?.info('pipeline.tensor.split', { clipId, segmentId: seg.id, frames: chunk.videoShape[0], reason: cause.message });
        const ids = d.store.splitSegment(
          seg,
          halves.map((h, i) => plannedSegment(d.profile, h, seg.chunk_idx, `${seg.part}${i}`)),
          region,
        );
        for (let i = 0; i < ids.length; i++) {
          const half = d.store.segment(ids[i]!)!;
          await uploadSegment(half, halves[i]!, onUploaded);
        }
      }
    },
  };
}

/** For stages that find uploads missing: go back to the upload stage. */
export function backToUpload(ctx: StageContext): StageOutcome<'submit'> {
  return { next: nextStage(ctx, 'upload', ctx.job.workS ?? null) };
}
