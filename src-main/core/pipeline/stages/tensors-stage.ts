import { AppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import { clipAbsPath, getClipRow, type ClipRow } from '../../library/clip-store';
import type { TensorChunk } from '../../tensors/shot-chunks';
import type { TensorProfile } from '../../tensors/tensor-profile';
import type { StageHandler } from '../job-types';
import type { StageDeps } from '../pipeline-deps';
import type { PlannedSegment } from '../segment-store';
import { ShotFrameCache } from '../shot-frame-cache';
import { chunkContentSha, chunkRequestIds, decodeShot, planChunks, sarFromProbeJson, type TensorSource } from '../shot-tensors';
import { clipStage } from './media-stages';

/** Source facts from the catalog (probe_json holds the SAR the clip row does not). */
export function tensorSourceOf(db: CatalogDb, row: ClipRow): TensorSource {
  if (!row.width || !row.height) throw new AppError('media', 'clip has no picture size: probe it first');
  const extra = db.prepare('SELECT probe_json FROM clips WHERE id = ?').get(row.id) as { probe_json: string | null } | undefined;
  return { filePath: clipAbsPath(row), width: row.width, height: row.height, sar: sarFromProbeJson(extra?.probe_json ?? null, row.rotation), hasAudio: !!row.audio_codec };
}

export function plannedSegment(profile: TensorProfile, chunk: TensorChunk, chunkIdx: number, part: string): PlannedSegment {
  return {
    chunkIdx,
    part,
    startS: chunk.startS,
    endS: chunk.endS,
    frames: chunk.videoShape[0],
    contentSha: chunkContentSha(chunk),
    requestIds: chunkRequestIds(profile, chunk),
  };
}

/**
 * Plans each shot's tensors: decodes the shot at the profile, chunks it to the frame limit and
 * byte budget, and records one segment per chunk with the content hash and the two request ids
 * derived from it. No tensor bytes are stored: the upload stage rebuilds a chunk from the file
 * with the same decode. A shot planned before (this profile) is skipped, so a re-run after a crash
 * only decodes what is missing.
 */
export function tensorsStage(d: StageDeps): StageHandler<'tensors'> {
  return clipStage('tensors', 'upload', async (ctx, clipId) => {
    const row = getClipRow(d.db, clipId);
    const src = tensorSourceOf(d.db, row);
    const { region } = d.identity();
    d.store.dropOtherProfiles(clipId, d.profile.id);
    const shots = d.store.shotsOf(clipId);
    let done = 0;
    for (const shot of shots) {
      if (!d.store.shotHasPlan(shot.id, d.profile.id)) {
        const frames = await decodeShot(src, shot, d.profile, { signal: ctx.signal, ffmpeg: d.tools().ffmpeg });
        d.frameCache.set(ShotFrameCache.key(shot.id, shot.startS, shot.endS, d.profile.id), frames);
        const chunks = planChunks(frames, d.profile, d.profile.byteBudget);
        d.store.insertPlan(clipId, shot.id, d.profile.id, d.profile.byteBudget, region, chunks.map((c, i) => plannedSegment(d.profile, c, i, '')));
      }
      done++;
      ctx.progress(done / Math.max(1, shots.length), `${done}/${shots.length} shots`);
    }
    return row;
  });
}
