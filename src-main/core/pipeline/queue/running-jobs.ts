import { AppError } from '../../../../src-shared/errors';
import type { AbortWhy } from './run-end';
import type { Job, JobResource } from './job-types';

/** A job the queue has claimed and runs: its signals, why it was stopped, its last progress write. */
export interface Run {
  job: Job;
  controller: AbortController;
  soft: AbortController;
  hardTimer: NodeJS.Timeout | null;
  why: AbortWhy | null;
  startedAt: number;
  lastWrite: number;
  promise: Promise<void>;
}

/**
 * The runs in flight, by job id: how a run is stopped (CPU at once; network after a grace period
 * for its calls in flight) and when its progress is worth writing.
 */
export class RunningJobs {
  private readonly runs = new Map<number, Run>();

  constructor(private readonly o: { stopGraceMs: number; progressWriteMs: number }) {}

  /** A claimed job's run, registered before its handler starts. */
  add(job: Job, now: number): Run {
    const run: Run = { job, controller: new AbortController(), soft: new AbortController(), hardTimer: null, why: null, startedAt: now, lastWrite: now, promise: Promise.resolve() };
    this.runs.set(job.id, run);
    return run;
  }

  /** The run has ended: its hard stop is no longer needed. */
  end(run: Run): void {
    if (run.hardTimer) clearTimeout(run.hardTimer);
    this.runs.delete(run.job.id);
  }

  get(id: number): Run | undefined {
    return this.runs.get(id);
  }

  all(): Run[] {
    return [...this.runs.values()];
  }

  ids(): number[] {
    return [...this.runs.keys()];
  }

  get size(): number {
    return this.runs.size;
  }

  busy(resource: JobResource): number {
    return this.all().filter((r) => r.job.resource === resource).length;
  }

  abort(run: Run, why: AbortWhy): void {
    // The first reason wins: a job paused and then shut down still comes back paused.
    if (run.why === null) run.why = why;
    const reason = new AppError('cancelled', `job ${why}`);
    if (!run.soft.signal.aborted) run.soft.abort(reason);
    if (run.job.resource === 'cpu') {
      if (!run.controller.signal.aborted) run.controller.abort(reason);
      return;
    }
    // Network: the stage stops before its next call; calls in flight get the grace period.
    run.hardTimer ??= setTimeout(() => {
      if (!run.controller.signal.aborted) run.controller.abort(reason);
    }, this.o.stopGraceMs);
  }

  /**
   * A stage's progress report taken into its job (a stopping job still reports its calls in flight
   * landing). Returns whether to write it now: at most every progressWriteMs, and at the end.
   */
  report(run: Run, fraction: number, note: string | undefined, now: number): boolean {
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : run.job.progress;
    run.job.progress = f;
    if (note !== undefined) run.job.note = note;
    if (now - run.lastWrite < this.o.progressWriteMs && f < 1) return false;
    run.lastWrite = now;
    return true;
  }
}
