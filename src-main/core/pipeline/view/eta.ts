import type { JobResource } from '../queue/job-types';

/** One finished run of a stage, as the ETA learns from it. */
export interface StageSample {
  stage: string;
  /** Time the stage took: running time, or wall time for stages that mostly wait (poll). */
  ms: number;
  /** Media seconds the job covered; null when unknown (then the sample counts per job). */
  workS: number | null;
}

/** What is left of one clip: the stage it is at, how far, and the stages after it. */
export interface ClipRemaining {
  stage: string;
  progress: number;
  later: readonly string[];
  workS: number | null;
}

interface Rate {
  /** ms per media second, exponentially weighted. */
  perS: number | null;
  /** ms per job, for jobs of unknown length. */
  perJob: number | null;
  samples: number;
}

/**
 * The ETA: per stage, milliseconds per media second (and per job when the length is unknown),
 * averaged with an exponential weight so the estimate follows the machine and the service as they
 * are now. The remaining work of each clip (the rest of its current stage plus every later stage)
 * is summed per resource and divided by that resource's parallel slots; CPU and network stages run
 * side by side, so the ETA is the larger of the two lanes. Unknown until every stage with work
 * left has been seen at least once.
 */
export class EtaModel {
  private readonly rates = new Map<string, Rate>();

  constructor(
    private readonly resourceOf: (stage: string) => JobResource,
    private readonly alpha = 0.2,
  ) {}

  observe(s: StageSample): void {
    if (!(s.ms >= 0)) return;
    const r = this.rates.get(s.stage) ?? { perS: null, perJob: null, samples: 0 };
    const mix = (old: number | null, v: number) => (old === null ? v : old + this.alpha * (v - old));
    if (s.workS !== null && s.workS > 0) r.perS = mix(r.perS, s.ms / s.workS);
    r.perJob = mix(r.perJob, s.ms);
    r.samples++;
    this.rates.set(s.stage, r);
  }

  known(stage: string): boolean {
    return (this.rates.get(stage)?.samples ?? 0) > 0;
  }

  /** Expected ms of one stage for a clip of `workS` media seconds, or null when never seen. */
  stageMs(stage: string, workS: number | null): number | null {
    const r = this.rates.get(stage);
    if (!r || r.samples === 0) return null;
    if (workS !== null && workS > 0 && r.perS !== null) return r.perS * workS;
    return r.perJob;
  }

  estimate(clips: readonly ClipRemaining[], slots: Record<JobResource, number>): number | null {
    const lane: Record<JobResource, number> = { cpu: 0, network: 0 };
    for (const c of clips) {
      const current = this.stageMs(c.stage, c.workS);
      if (current === null) return null;
      lane[this.resourceOf(c.stage)] += current * (1 - Math.min(1, Math.max(0, c.progress)));
      for (const st of c.later) {
        const ms = this.stageMs(st, c.workS);
        if (ms === null) return null;
        lane[this.resourceOf(st)] += ms;
      }
    }
    return Math.round(Math.max(lane.cpu / Math.max(1, slots.cpu), lane.network / Math.max(1, slots.network)));
  }
}
