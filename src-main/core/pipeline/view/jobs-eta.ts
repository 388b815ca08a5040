import { INDEX_STAGES, type StageName } from '../../../../src-shared/contract/jobs';
import { NETWORK_STAGES, STAGE_INDEX, type FoldedRow } from './clip-jobs-fold';
import { EtaModel, type ClipRemaining, type StageSample } from './eta';
import { nextShownEta, type ShownEta } from './eta-display';
import type { JobResource } from '../queue/job-types';

/** A finished job as the ETA learns from it (a queue event or a stored row). */
export interface FinishedRun {
  stage: StageName;
  clipId: number | null;
  /** Running time, all attempts together; null when not known. */
  runMs: number | null;
  workS: number | null;
  finishedAt: number;
}

/**
 * What one finished run teaches the model. Poll mostly waits for the service: its cost is the wall
 * time since the clip's tasks were submitted (`submitFinishedAt`), null when that is not known.
 */
export function sampleOf(run: FinishedRun, submitFinishedAt: (clipId: number) => number | null): StageSample | null {
  if (run.stage !== 'poll') return run.runMs === null ? null : { stage: run.stage, ms: run.runMs, workS: run.workS };
  const sub = run.clipId === null ? null : submitFinishedAt(run.clipId);
  return sub ? { stage: run.stage, ms: Math.max(0, run.finishedAt - sub), workS: run.workS } : null;
}

/**
 * What is left of the clips with work, for the model; null when the estimate cannot be made now:
 * the network is held and some clip still has a network stage ahead (it waits for the editor).
 */
export function remainingWork(active: readonly FoldedRow[], gateOpen: boolean): ClipRemaining[] | null {
  const networkAhead = (stage: StageName) => INDEX_STAGES.slice(STAGE_INDEX.get(stage) ?? 0).some((st) => NETWORK_STAGES.has(st));
  if (!gateOpen && active.some((x) => networkAhead(x.r.stage))) return null;
  return active.map(({ r }) => ({
    stage: r.stage,
    progress: r.state === 'done' ? 1 : r.progress,
    later: INDEX_STAGES.slice((STAGE_INDEX.get(r.stage) ?? 0) + 1),
    workS: r.duration_s,
  }));
}

/** The Jobs view's ETA: the model (eta.ts) fed with finished runs, and the value shown (eta-display.ts). */
export class JobsEta {
  private readonly model = new EtaModel((stage) => (NETWORK_STAGES.has(stage) ? 'network' : 'cpu'));
  private shownEta: ShownEta | null = null;

  constructor(private readonly submitFinishedAt: (clipId: number) => number | null) {}

  /** Learns from runs, oldest first. */
  observe(runs: readonly FinishedRun[]): void {
    for (const run of runs) {
      const s = sampleOf(run, this.submitFinishedAt);
      if (s) this.model.observe(s);
    }
  }

  get shown(): ShownEta | null {
    return this.shownEta;
  }

  /** One refresh of the shown ETA: once per summary event, whoever reads it. */
  advance(active: readonly FoldedRow[], gateOpen: boolean, slots: Record<JobResource, number>, now: number): ShownEta {
    let rawMs: number | null = null;
    if (active.length === 0) rawMs = 0;
    else {
      const remaining = remainingWork(active, gateOpen);
      if (remaining) rawMs = this.model.estimate(remaining, slots);
    }
    this.shownEta = nextShownEta(this.shownEta, { rawMs, now, activeClips: active.length, networkOpen: gateOpen });
    return this.shownEta;
  }
}
