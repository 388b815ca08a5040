import { analyzeClip } from '../../analysis/analyze-clip';
import { storeAnalysis } from '../../analysis/analysis-store';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { decodeOptions, tensorSourceOf } from './analysis-stage';
import { footageRow } from './media-stages';
import { shotSpansOf } from './shot-tensors';

/**
 * Face identities for a clip whose faces were found without them (face recognition was off when it
 * was analysed, or its analysis came from another seat of a team, which shares boxes, never
 * identities): the clip's decode again, on its known shots, on the background lane after all
 * indexing (as the proxy stage), pausable and cancellable in Jobs. Faces, motion and local tags are
 * stored again as the same decode makes them, now with identities, and the people module is told
 * as after any analysis (`analysed`), so they join the people named since. Nothing is sent to the
 * service: the clip's segments and tensors are untouched. With recognition off again by the time it
 * runs, it does nothing.
 */
export function identityStage(d: StageDeps): StageHandler<'identities'> {
  return {
    stage: 'identities',
    maxAttempts: 2,
    async run(ctx) {
      if (!d.faceRecognition()) return {};
      const clipId = ctx.job.clipId!;
      const row = footageRow(d, clipId);
      const shots = shotSpansOf(d.db, clipId);
      if (shots.length === 0) return {};
      const src = tensorSourceOf(row);
      const pool = d.analysisPool();
      const result = await analyzeClip({
        ...decodeOptions(d, ctx, src, pool),
        shots,
        settings: { faceRecognition: true },
        onProgress: (p) => ctx.progress(p.fraction, 'faces'),
      });
      storeAnalysis(d.db, result.shots, { profileId: d.profile.id, faceModel: pool.modelPath });
      d.analysed(clipId);
      return {};
    },
  };
}
