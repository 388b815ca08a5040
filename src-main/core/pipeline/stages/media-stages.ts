import { AppError } from '../../../../src-shared/errors';
import { getClipRow, type ClipRow } from '../../library/clip-store';
import { makeQuickPoster, probeClip } from './clip-media';
import type { NextOf, StageName } from '../../../../src-shared/contract/stage-graph';
import type { JobSpec, StageContext, StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';

function clipIdOf(ctx: StageContext): number {
  if (ctx.job.clipId === null) throw new AppError('internal', `${ctx.job.stage} job ${ctx.job.id} has no clip`);
  return ctx.job.clipId;
}

/** The hand-over to `stage` (the handler's declared type checks it against the stage graph). */
export function nextStage<T extends StageName>(ctx: StageContext, stage: T, workS: number | null): Array<JobSpec & { stage: T }> {
  return [{ clipId: ctx.job.clipId, stage, workS }];
}

/** Footage only: an error/unsupported clip stops its indexing with the library's reason. */
function requireFootage(row: ClipRow): void {
  if (row.status === 'error' || row.status === 'unsupported') {
    const kind = row.error_kind === 'media' || row.error_kind === 'invalid' ? row.error_kind : 'media';
    throw new AppError(kind, row.status_reason ?? `clip is ${row.status}`);
  }
}

/** The clip's row after the footage check: later stages refuse what the library could not read. */
export function footageRow(d: StageDeps, clipId: number): ClipRow {
  const row = getClipRow(d.db, clipId);
  requireFootage(row);
  return row;
}

/** Runs a library step that changes the clip's media, then reads the row it left. */
async function remake(d: StageDeps, clipId: number, step: () => Promise<unknown>): Promise<ClipRow> {
  await step();
  d.mediaChanged(clipId);
  return getClipRow(d.db, clipId);
}

/**
 * A CPU stage over one clip: `body` does the work and returns the clip row, whose duration sizes
 * the `then` stage it hands over to.
 */
export function clipStage<S extends StageName>(stage: S, then: NextOf<S>, body: (ctx: StageContext, clipId: number) => Promise<ClipRow>): StageHandler<S> {
  return {
    stage,
    maxAttempts: 3,
    async run(ctx) {
      const row = await body(ctx, clipIdOf(ctx));
      return { next: nextStage(ctx, then, row.duration_s) };
    },
  };
}

/**
 * probe -> poster: the clip's media work (clip-media.ts), each skipped when its result is already
 * in the catalog for the current file. The probe refreshes the fingerprint and drops stale shots
 * itself when the file changed.
 */
export function probeStage(d: StageDeps): StageHandler<'probe'> {
  return clipStage('probe', 'poster', async (ctx, clipId) => {
    let row = getClipRow(d.db, clipId);
    if (row.status === 'pending' || row.probed_at === null) {
      row = await remake(d, clipId, () => probeClip(d.db, clipId, { signal: ctx.signal, onProgress: (f) => ctx.progress(f), ffprobe: d.tools().ffprobe }));
    }
    // Probing is what tells footage from the rest, so the check comes after it here.
    requireFootage(row);
    return row;
  });
}

/** The preview lane's poster (a keyframe seek): every card shows a picture before any clip is analysed. */
export function posterStage(d: StageDeps): StageHandler<'poster'> {
  return clipStage('poster', 'analysis', async (ctx, clipId) => {
    const row = footageRow(d, clipId);
    if (await makeQuickPoster(d.db, clipId, { cacheDir: d.cacheDir, signal: ctx.signal, ffmpeg: d.tools().ffmpeg })) d.mediaChanged(clipId);
    return row;
  });
}
