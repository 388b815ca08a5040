import { AppError, toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import type { BackoffOptions, BlockReason } from './error-policy';
import { parseJobPayload } from './job-payloads';
import { rowToJob, type JobRow, type JobStore, type SettleFields } from './job-store';
import { settlementOf } from './run-end';
import type { Run, RunningJobs } from './running-jobs';
import type { AnyStageHandler, Job, JobSpec, StageContext, StageOutcome } from './job-types';

/** What a run needs of its queue (job-queue.ts). */
export interface RunHost {
  readonly store: JobStore;
  readonly running: RunningJobs;
  readonly backoff: BackoffOptions;
  readonly defaultMaxAttempts: number;
  readonly logger?: Logger;
  now(): number;
  /** Writes the job of a stage a done job leads to, inside the settle's transaction. */
  enqueueRow(spec: JobSpec, reset: boolean): Job;
  block(reason: BlockReason, message: string): void;
  blockForDisk(): void;
  emitJob(job: Job): void;
  pump(): void;
}

/** Claims a due row and runs its handler; a row another claim took first is left alone. */
export function startRun(h: RunHost, row: JobRow, handler: AnyStageHandler): void {
  const now = h.now();
  if (!h.store.markRunning(row.id, now)) return;
  const job = rowToJob({ ...row, state: 'running', started_at: now, updated_at: now, not_before: null, finished_at: null });
  const run = h.running.add(job, now);
  h.emitJob(job);
  run.promise = execute(h, run, handler);
}

async function execute(h: RunHost, run: Run, handler: AnyStageHandler): Promise<void> {
  let outcome: StageOutcome | void = undefined;
  let error: AppError | null = null;
  try {
    // A microtask first: the handler must never run inside startRun's caller (the pump).
    await Promise.resolve();
    // A payload the stage cannot read fails the job with the reason ('invalid' is never retried).
    const parsed = parseJobPayload(run.job.stage, run.job.payload);
    if (!parsed.ok) throw new AppError('invalid', parsed.reason);
    const ctx: StageContext = {
      job: run.job,
      payload: parsed.payload,
      signal: run.controller.signal,
      stopping: run.soft.signal,
      progress: (fraction, note) => onProgress(h, run, fraction, note),
    };
    outcome = await handler.run(ctx);
  } catch (e) {
    error = toAppError(e);
  }
  try {
    settle(h, run, handler, outcome, error);
  } catch (e) {
    // No room to record the outcome: the row stays `running` and goes back to queued once
    // there is room (requeueUnsettled). Otherwise the catalog is gone (closed under us) or broken.
    if (toAppError(e).kind === 'disk_full') h.blockForDisk();
    else h.logger?.error('queue.settle.failed', { jobId: run.job.id, stage: run.job.stage, message: (e as Error).message });
  } finally {
    h.running.end(run);
    h.pump();
  }
}

function onProgress(h: RunHost, run: Run, fraction: number, note?: string): void {
  if (run.controller.signal.aborted) return;
  const now = h.now();
  if (h.running.report(run, fraction, note, now)) {
    try {
      h.store.writeProgress(run.job.id, run.job.progress, run.job.note ?? null, now);
    } catch {
      // Progress is advisory; the settle write is the one that matters.
    }
  }
  h.emitJob({ ...run.job });
}

/** Writes where the run's end sends its job (run-end.ts) and does what goes with it. */
function settle(h: RunHost, run: Run, handler: AnyStageHandler, outcome: StageOutcome | void, error: AppError | null): void {
  const job = run.job;
  const now = h.now();
  const ranMs = Math.max(0, now - run.startedAt);
  const update = (fields: SettleFields) => h.store.settle(job.id, fields, ranMs, now);
  const s = settlementOf({ job, why: run.why, outcome, error, now, backoff: h.backoff, maxAttempts: handler.maxAttempts ?? h.defaultMaxAttempts });
  if (s.kind === 'done') {
    h.store.inTransaction(() => {
      update(s.fields);
      for (const next of s.next) {
        const j = h.enqueueRow(next, true);
        queueMicrotask(() => h.emitJob(j));
      }
    });
  } else if (s.kind === 'block') {
    // The disk first: recording the outcome may itself find no room.
    if (s.reason === 'disk') h.blockForDisk();
    update(s.fields);
    if (s.reason !== 'disk') h.block(s.reason, s.message);
  } else {
    update(s.fields);
    if (s.kind === 'failed') h.logger?.warn('queue.job.failed', { jobId: job.id, clipId: job.clipId, stage: job.stage, kind: s.error.kind, message: s.error.message });
  }
  const after = h.store.row(job.id);
  if (after) h.emitJob(rowToJob(after));
}
