import { AppError } from '../../../../src-shared/errors';
import { storeAnalysis } from '../../analysis/store-analysis';
import { analyzeClip } from '../../analysis/analyze-clip';
import { clipAbsPath, getClipRow, type ClipRow } from '../../library/clip-store';
import { detectShots, makeThumbnails, probeClip } from '../../library/media-stages';
import type { JobSpec, StageContext, StageHandler } from '../job-types';
import type { StageDeps } from '../pipeline-deps';

function clipIdOf(ctx: StageContext): number {
  if (ctx.job.clipId === null) throw new AppError('internal', `${ctx.job.stage} job ${ctx.job.id} has no clip`);
  return ctx.job.clipId;
}

export function nextStage(ctx: StageContext, stage: string, workS: number | null): JobSpec[] {
  return [{ clipId: ctx.job.clipId, stage, workS }];
}

/** Footage only: an error/unsupported clip stops its indexing with the library's reason. */
function requireFootage(row: ClipRow): void {
  if (row.status === 'error' || row.status === 'unsupported') {
    const kind = row.error_kind === 'media' || row.error_kind === 'invalid' ? row.error_kind : 'media';
    throw new AppError(kind, row.status_reason ?? `clip is ${row.status}`);
  }
}

/**
 * probe -> shots -> thumbnails: the library's own stage functions (library/media-stages), each
 * skipped when its result is already in the catalog for the current file. The library refreshes
 * the fingerprint and drops stale shots itself when the file changed.
 */
export function probeStage(d: StageDeps): StageHandler {
  return {
    stage: 'probe',
    resource: 'cpu',
    maxAttempts: 3,
    async run(ctx) {
      const clipId = clipIdOf(ctx);
      let row = getClipRow(d.db, clipId);
      if (row.status === 'pending' || row.probed_at === null) {
        await probeClip(d.db, clipId, { signal: ctx.signal, onProgress: (f) => ctx.progress(f), ffprobe: d.tools().ffprobe });
        row = getClipRow(d.db, clipId);
        d.mediaChanged(clipId);
      }
      requireFootage(row);
      return { next: nextStage(ctx, 'shots', row.duration_s) };
    },
  };
}

export function shotsStage(d: StageDeps): StageHandler {
  return {
    stage: 'shots',
    resource: 'cpu',
    maxAttempts: 3,
    async run(ctx) {
      const clipId = clipIdOf(ctx);
      let row = getClipRow(d.db, clipId);
      requireFootage(row);
      if (row.shots_at === null) {
        await detectShots(d.db, clipId, { signal: ctx.signal, onProgress: (f) => ctx.progress(f, 'detecting cuts'), ffmpeg: d.tools().ffmpeg });
        row = getClipRow(d.db, clipId);
        d.mediaChanged(clipId);
      }
      const shots = d.store.shotsOf(clipId).length;
      ctx.progress(1, `${shots} shot${shots === 1 ? '' : 's'}`);
      return { next: nextStage(ctx, 'thumbnails', row.duration_s) };
    },
  };
}

export function thumbnailsStage(d: StageDeps): StageHandler {
  return {
    stage: 'thumbnails',
    resource: 'cpu',
    maxAttempts: 3,
    async run(ctx) {
      const clipId = clipIdOf(ctx);
      const row = getClipRow(d.db, clipId);
      requireFootage(row);
      if (row.thumbs_at === null) {
        await makeThumbnails(d.db, clipId, { cacheDir: d.cacheDir, signal: ctx.signal, onProgress: (f) => ctx.progress(f), ffmpeg: d.tools().ffmpeg });
        d.mediaChanged(clipId);
      }
      return { next: nextStage(ctx, 'analysis', row.duration_s) };
    },
  };
}

/**
 * Faces, camera motion and local tags (analysis/). Skipped when every shot already has an
 * analysis made with this profile. The tensors analysis builds on the way are not kept here: the
 * tensors stage decodes each shot on its own so that an upload can rebuild exactly the same bytes.
 */
export function analysisStage(d: StageDeps): StageHandler {
  return {
    stage: 'analysis',
    resource: 'cpu',
    maxAttempts: 3,
    async run(ctx) {
      const clipId = clipIdOf(ctx);
      const row = getClipRow(d.db, clipId);
      requireFootage(row);
      const shots = d.store.shotsOf(clipId);
      const missing = d.db
        .prepare(
          `SELECT COUNT(*) AS n FROM shots s LEFT JOIN shot_analysis a ON a.shot_id = s.id AND a.profile_id = ?
           WHERE s.clip_id = ? AND a.shot_id IS NULL`,
        )
        .get(d.profile.id, clipId) as { n: number };
      if (shots.length > 0 && missing.n > 0) {
        const pool = d.analysisPool();
        const result = await analyzeClip({
          filePath: clipAbsPath(row),
          shots: shots.map((s) => ({ id: s.id, startS: s.startS, endS: s.endS })),
          profile: d.profile,
          retainTensors: false,
          pool,
          signal: ctx.signal,
          ffmpegPath: d.tools().ffmpeg,
          onProgress: (p) => ctx.progress(p.fraction, `${p.shotsDone}/${p.shotsTotal} shots`),
        });
        storeAnalysis(d.db, result.shots, { profileId: d.profile.id, faceModel: pool.modelPath });
      }
      return { next: nextStage(ctx, 'tensors', row.duration_s) };
    },
  };
}
