import { AppError } from '../../../../src-shared/errors';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { nextStage } from './media-stages';

/**
 * Marks the clip indexed once every segment has its embedding and its tags. A shot that yielded no
 * decodable frame has no segment: it is reported in the note, not waited for.
 */
export function indexStage(d: StageDeps, onIndexed: (clipId: number, segments: number) => void): StageHandler {
  return {
    stage: 'index',
    maxAttempts: 2,
    async run(ctx) {
      const clipId = ctx.job.clipId!;
      const cov = d.store.coverage(clipId, d.profile.id);
      if (cov.shots > 0 && cov.segments === 0) throw new AppError('media', 'no shot of this clip yielded a decodable frame');
      if (cov.embedded < cov.segments || cov.tagged < cov.segments) {
        // Results missing (a segment was added by a split after the poll ran): wait for them.
        return { next: nextStage(ctx, 'poll', ctx.job.workS ?? null) };
      }
      d.store.markIndexed(clipId, d.profile.id);
      const skipped = cov.shots - cov.shotsWithSegments;
      ctx.progress(1, `${cov.segments} segment${cov.segments === 1 ? '' : 's'} indexed${skipped > 0 ? `, ${skipped} shot(s) without frames` : ''}`);
      onIndexed(clipId, cov.segments);
      d.share()?.indexed(clipId);
    },
  };
}
