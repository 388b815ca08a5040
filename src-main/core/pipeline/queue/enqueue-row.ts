import { AppError } from '../../../../src-shared/errors';
import { STAGE_GRAPH } from '../../../../src-shared/contract/stage-graph';
import { parseJobPayload } from './job-payloads';
import { rowToJob, type JobStore } from './job-store';
import type { RunningJobs } from './running-jobs';
import type { Job, JobSpec } from './job-types';

/**
 * The row behind JobQueue.enqueue, written inside the caller's transaction: a settle's transaction
 * writes the stages a done job leads to (job-run.ts) the same way.
 */
export function enqueueRow(store: JobStore, running: RunningJobs, spec: JobSpec, reset: boolean, now: number): Job {
  const resource = STAGE_GRAPH[spec.stage].resource;
  const priority = spec.priority ?? 0;
  if (spec.payload !== undefined) {
    const parsed = parseJobPayload(spec.stage, spec.payload);
    if (!parsed.ok) throw new AppError('invalid', parsed.reason);
  }
  const payload = spec.payload === undefined ? null : JSON.stringify(spec.payload);
  const existing = store.rowOf(spec.clipId, spec.stage);
  if (!existing) {
    const id = store.insert({ clipId: spec.clipId, stage: spec.stage, resource, priority, payload, workS: spec.workS ?? null }, now);
    return rowToJob(store.row(id)!);
  }
  const run = running.get(existing.id);
  if (reset && run) {
    // Cannot rewrite a row its run will settle: the run ends as queued, from the start.
    running.abort(run, 'requeue');
  }
  if (reset && !run) {
    store.startOver(existing.id, { resource, priority, payload, workS: spec.workS ?? null }, now);
  } else if (priority > existing.priority || (spec.workS != null && existing.work_s == null)) {
    store.raisePriority(existing.id, priority, spec.workS ?? null, now);
  }
  return rowToJob(store.row(existing.id)!);
}
