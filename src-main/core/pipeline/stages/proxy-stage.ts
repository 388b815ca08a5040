import { ClipDecoder } from '../../media/clip-decoder';
import { discardProxy } from '../../proxies/proxy-files';
import type { StageHandler } from '../queue/job-types';
import type { StageDeps } from '../pipeline-deps';
import { footageRow } from './media-stages';
import { keepProxy, proxyPlanFor } from './proxy-plan';

/**
 * A viewing proxy for a clip whose analysis decode ran without writing one (indexed before
 * proxies, or before Settings wanted one): a decode of its own that feeds only the proxy branch.
 * Runs on the background lane, after all indexing; pausable and cancellable in Jobs like any job.
 */
export function proxyStage(d: StageDeps): StageHandler<'proxy'> {
  return {
    stage: 'proxy',
    maxAttempts: 2,
    async run(ctx) {
      const row = footageRow(d, ctx.job.clipId!);
      const plan = await proxyPlanFor(d, row, d.decodeThreads(ctx.job));
      if (!plan) return {};
      try {
        await new ClipDecoder(
          { filePath: plan.filePath, startS: 0, outputs: [], audioRate: null, proxy: plan.request, ffmpegPath: d.tools().ffmpeg, threads: d.decodeThreads(ctx.job), signal: ctx.signal },
          { onFrame: () => {}, onAudio: () => {} },
        ).run();
      } catch (e) {
        discardProxy(plan);
        throw e;
      }
      await keepProxy(d, plan, ctx.signal);
      return {};
    },
  };
}
