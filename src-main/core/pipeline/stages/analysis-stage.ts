import { AppError } from '../../../../src-shared/errors';
import { analyzeClip } from '../../analysis/analyze-clip';
import type { AnalyzeClipOptions, AnalyzeShotInput } from '../../analysis/analyze-clip-options';
import { storeAnalysis, unanalysedShotCount } from '../../analysis/analysis-store';
import { clipAbsPath, getClipRow, type ClipRow } from '../../library/clip-store';
import { discardProxy } from '../../proxies/proxy-files';
import type { TensorChunk } from '../../tensors/shot-chunks';
import type { TensorProfile } from '../../tensors/tensor-profile';
import type { AnalysisPool } from '../../analysis/analysis-pool';
import type { Job, StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import type { PlannedSegment } from '../service-cache/segment-rows';
import { ShotFrameCache } from './shot-frame-cache';
import { chunkContentSha, chunkRequestIds, planChunks, shotSpansOf, type TensorSource } from './shot-tensors';
import { discardThumbnails, planThumbnails, recordMediaFailure, saveDetectedShots, saveThumbnails, type ThumbnailPlan } from './clip-media';
import { clipStage, footageRow, nextStage } from './media-stages';
import { keepProxy, proxyPlanFor } from './proxy-plan';

/** Source facts from the catalog, as the probe stored them: nothing is probed again. */
export function tensorSourceOf(row: ClipRow): TensorSource {
  if (!row.width || !row.height) throw new AppError('media', 'clip has no picture size: probe it first');
  return {
    filePath: clipAbsPath(row),
    width: row.width,
    height: row.height,
    sar: row.sar ?? 1,
    hasAudio: !!row.audio_codec,
    durationS: row.duration_s,
  };
}

/** What every analysis decode of a clip is given by the pipeline: its profile, pool, tools, share of the cores and source facts. */
export function decodeOptions(d: StageDeps, ctx: { job: Job; signal: AbortSignal }, src: TensorSource, pool: AnalysisPool): Pick<AnalyzeClipOptions, 'filePath' | 'profile' | 'retainTensors' | 'pool' | 'signal' | 'ffmpegPath' | 'threads' | 'source'> {
  return {
    filePath: src.filePath,
    profile: d.profile,
    retainTensors: false,
    pool,
    signal: ctx.signal,
    ffmpegPath: d.tools().ffmpeg,
    threads: d.decodeThreads(ctx.job),
    source: { width: src.width, height: src.height, sar: src.sar, durationS: src.durationS, hasAudio: src.hasAudio },
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
 * The clip's one full decode (analysis/analyze-clip.ts): shot detection when the clip has no
 * shots yet, per-shot posters and the filmstrip, faces, camera motion and local tags, and the
 * tensors, planned here as one segment per chunk (content hash and the two request ids derived
 * from it) with the frames kept in memory for the upload stage. The catalog holds no tensor bytes:
 * after a restart the upload stage rebuilds them with the same decode. Skipped when the clip has
 * its shots, its thumbnails and every shot its analysis and plan for this profile. A file that
 * cannot be decoded ends as a clip in error with ffmpeg's reason.
 */
export function analysisStage(d: StageDeps): StageHandler<'analysis'> {
  const analyse = clipStage('analysis', 'upload', async (ctx, clipId) => {
    const row = footageRow(d, clipId);
    const src = tensorSourceOf(row);
    const { region } = d.identity();
    d.store.dropOtherProfiles(clipId, d.profile.id);
    const detect = row.shots_at === null;
    const spans = (): AnalyzeShotInput[] => shotSpansOf(d.db, clipId);
    const known = detect ? [] : spans();
    if (!detect) {
      const unplanned = known.filter((s) => !d.store.shotHasPlan(s.id, d.profile.id)).length;
      const unanalysed = unanalysedShotCount(d.db, known.map((s) => s.id), d.profile.id);
      if (known.length === 0 || (unplanned === 0 && unanalysed === 0 && row.thumbs_at !== null)) return row;
    }
    // New shots may be new boundaries, whose posters went with the old rows.
    const stills: ThumbnailPlan | null = row.thumbs_at === null || detect ? planThumbnails(d.db, clipId, d.cacheDir) : null;

    const proxy = await proxyPlanFor(d, row, d.decodeThreads(ctx.job));

    const pool = d.analysisPool();
    let result: Awaited<ReturnType<typeof analyzeClip>>;
    try {
      result = await recordMediaFailure(d.db, row, ctx.signal, () =>
        analyzeClip({
          shots: detect
            ? {
                durationS: row.duration_s,
                save: (detection) => {
                  saveDetectedShots(d.db, row, detection);
                  d.mediaChanged(clipId);
                  return spans();
                },
              }
            : known,
          ...decodeOptions(d, ctx, src, pool),
          settings: { faceRecognition: d.faceRecognition() },
          stills: stills?.request,
          proxy: proxy?.request,
          onTensorFrames: (frames) => {
            if (d.store.shotHasPlan(frames.shotId, d.profile.id)) return;
            d.frameCache.set(ShotFrameCache.key(frames.shotId, frames.startS, frames.endS, d.profile.id), frames);
            const chunks = planChunks(frames, d.profile, d.profile.byteBudget);
            d.store.insertPlan(clipId, frames.shotId, d.profile.id, d.profile.byteBudget, region, chunks.map((c, i) => plannedSegment(d.profile, c, i, '')));
          },
          onProgress: (p) => ctx.progress(p.fraction, p.shotsTotal === null ? 'decoding' : `${p.shotsTotal} shot${p.shotsTotal === 1 ? '' : 's'}`),
        }),
      );
    } catch (e) {
      if (stills) discardThumbnails(stills);
      if (proxy) discardProxy(proxy);
      throw e;
    }
    if (proxy) await keepProxy(d, proxy, ctx.signal);
    storeAnalysis(d.db, result.shots, { profileId: d.profile.id, faceModel: pool.modelPath });
    d.analysed(clipId);
    if (stills && result.stills) {
      saveThumbnails(
        d.db,
        stills,
        result.stills,
        result.shots.map((s) => s.shotId),
      );
      d.mediaChanged(clipId);
    }
    return getClipRow(d.db, clipId);
  });
  return {
    ...analyse,
    async run(ctx) {
      // A seat of a team library analyses a clip only when it claimed it (team/syncs/clip-sharing.ts).
      const share = d.share();
      if (share && ctx.job.clipId !== null) {
        const row = footageRow(d, ctx.job.clipId);
        const decision = await share.beforeAnalysis(ctx.job.clipId);
        if (decision.kind === 'wait') return { again: { delayMs: decision.delayMs, note: decision.note } };
        if (decision.kind === 'adopted') {
          d.mediaChanged(ctx.job.clipId);
          d.analysed(ctx.job.clipId);
          ctx.progress(1, 'results from another seat');
          return { next: nextStage(ctx, 'index', row.duration_s) };
        }
      }
      return analyse.run(ctx);
    },
  };
}
