import { AppError } from '../../../../src-shared/errors';
import { analyzeClip } from '../../analysis/analyze-clip';
import { storeAnalysis } from '../../analysis/store-analysis';
import type { CatalogDb } from '../../catalog/open-catalog';
import { clipAbsPath, type ClipRow } from '../../library/clip-store';
import { discardThumbnails, planThumbnails, saveThumbnails, type ThumbnailPlan } from '../../library/media-stages';
import type { TensorChunk } from '../../tensors/shot-chunks';
import type { TensorProfile } from '../../tensors/tensor-profile';
import type { StageHandler } from '../job-types';
import type { StageDeps } from '../pipeline-deps';
import type { PlannedSegment } from '../segment-store';
import { ShotFrameCache } from '../shot-frame-cache';
import { chunkContentSha, chunkRequestIds, planChunks, sarFromProbeJson, type TensorSource } from '../shot-tensors';
import { clipStage, footageRow } from './media-stages';

/** Source facts from the catalog (probe_json holds the SAR the clip row does not): nothing is probed again. */
export function tensorSourceOf(db: CatalogDb, row: ClipRow): TensorSource {
  if (!row.width || !row.height) throw new AppError('media', 'clip has no picture size: probe it first');
  const extra = db.prepare('SELECT probe_json FROM clips WHERE id = ?').get(row.id) as { probe_json: string | null } | undefined;
  return {
    filePath: clipAbsPath(row),
    width: row.width,
    height: row.height,
    sar: sarFromProbeJson(extra?.probe_json ?? null, row.rotation),
    hasAudio: !!row.audio_codec,
    durationS: row.duration_s,
  };
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
 * The clip's one full decode after shot detection (analysis/analyze-clip.ts): per-shot posters
 * and the filmstrip, faces, camera motion and local tags, and the tensors, planned here as one
 * segment per chunk (content hash and the two request ids derived from it) with the frames kept
 * in memory for the upload stage. The catalog holds no tensor bytes: after a restart the upload
 * stage rebuilds them with the same decode. Skipped when the clip has its thumbnails and every
 * shot its analysis and plan for this profile.
 */
export function analysisStage(d: StageDeps): StageHandler<'analysis'> {
  return clipStage('analysis', 'upload', async (ctx, clipId) => {
    const row = footageRow(d, clipId);
    const src = tensorSourceOf(d.db, row);
    const { region } = d.identity();
    d.store.dropOtherProfiles(clipId, d.profile.id);
    const shots = d.store.shotsOf(clipId);
    const unplanned = new Set(shots.filter((s) => !d.store.shotHasPlan(s.id, d.profile.id)).map((s) => s.id));
    const unanalysed = d.db
      .prepare(
        `SELECT COUNT(*) AS n FROM shots s LEFT JOIN shot_analysis a ON a.shot_id = s.id AND a.profile_id = ?
         WHERE s.clip_id = ? AND a.shot_id IS NULL`,
      )
      .get(d.profile.id, clipId) as { n: number };
    const stills: ThumbnailPlan | null = row.thumbs_at === null ? planThumbnails(d.db, clipId, d.cacheDir) : null;
    if (shots.length === 0 || (unplanned.size === 0 && unanalysed.n === 0 && !stills)) return row;

    const pool = d.analysisPool();
    let result: Awaited<ReturnType<typeof analyzeClip>>;
    try {
      result = await analyzeClip({
        filePath: src.filePath,
        shots: shots.map((s) => ({ id: s.id, startS: s.startS, endS: s.endS })),
        profile: d.profile,
        retainTensors: false,
        pool,
        signal: ctx.signal,
        ffmpegPath: d.tools().ffmpeg,
        source: { width: src.width, height: src.height, sar: src.sar, durationS: src.durationS, hasAudio: src.hasAudio },
        stills: stills?.request,
        onTensorFrames: (frames) => {
          if (!unplanned.has(frames.shotId)) return;
          d.frameCache.set(ShotFrameCache.key(frames.shotId, frames.startS, frames.endS, d.profile.id), frames);
          const chunks = planChunks(frames, d.profile, d.profile.byteBudget);
          d.store.insertPlan(clipId, frames.shotId, d.profile.id, d.profile.byteBudget, region, chunks.map((c, i) => plannedSegment(d.profile, c, i, '')));
        },
        onProgress: (p) => ctx.progress(p.fraction, `${p.shotsDone}/${p.shotsTotal} shots`),
      });
    } catch (e) {
      if (stills) discardThumbnails(stills);
      throw e;
    }
    storeAnalysis(d.db, result.shots, { profileId: d.profile.id, faceModel: pool.modelPath });
    if (stills && result.stills) {
      saveThumbnails(d.db, stills, result.stills);
      d.mediaChanged(clipId);
    }
    return row;
  });
}
