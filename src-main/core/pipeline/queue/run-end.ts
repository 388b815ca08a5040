import type { AppError } from '../../../../src-shared/errors';
import { reactionFor, type BackoffOptions, type BlockReason } from './error-policy';
import type { SettleFields } from './job-store';
import type { Job, JobSpec, JobState, StageOutcome } from './job-types';

/** Why a running job's signal was aborted: decides where the job goes when its run ends. */
export type AbortWhy = 'cancel' | 'pause' | 'block' | 'shutdown' | 'requeue';

/** How a run ended, as the queue saw it. */
export interface RunEnd {
  job: Job;
  why: AbortWhy | null;
  outcome: StageOutcome | void;
  error: AppError | null;
  now: number;
  backoff: BackoffOptions;
  /** Failed runs before the job is failed (the handler's, or the queue's default). */
  maxAttempts: number;
}

/** What the queue writes for a run's end, and what it does besides. */
export type Settlement =
  /** Done: written with the jobs it hands over to (at least the job's own priority), in one transaction. */
  | { kind: 'done'; fields: SettleFields; next: JobSpec[] }
  /** Back to queued (or paused): the stage asked to run again later, the run was stopped, or a retry waits. */
  | { kind: 'write'; fields: SettleFields }
  /** Queued again, and the gate held for the reason. */
  | { kind: 'block'; fields: SettleFields; reason: BlockReason; message: string }
  /** Failed for good. */
  | { kind: 'failed'; fields: SettleFields; error: AppError };

const STOPPED: Record<AbortWhy, JobState> = { cancel: 'cancelled', pause: 'paused', block: 'queued', shutdown: 'queued', requeue: 'queued' };

/**
 * Where a job goes when its run ends (pure): done and its next stages; again later; where a stop
 * sends it; or, for an error, the reaction of error-policy.ts within the attempts left.
 */
export function settlementOf(e: RunEnd): Settlement {
  const { job, why, outcome, error, now } = e;
  if (!error && why !== 'cancel' && why !== 'requeue') {
    if (outcome && outcome.again) {
      return { kind: 'write', fields: { state: why === 'pause' ? 'paused' : 'queued', not_before: now + Math.max(0, outcome.again.delayMs), note: outcome.again.note ?? job.note ?? null, progress: job.progress } };
    }
    return {
      kind: 'done',
      fields: { state: 'done', progress: 1, finished_at: now, last_error_kind: null, last_error_message: null, not_before: null, note: job.note ?? null },
      next: (outcome?.next ?? []).map((next) => ({ ...next, priority: Math.max(next.priority ?? 0, job.priority) })),
    };
  }
  if (why) {
    const fields: SettleFields = { state: STOPPED[why], progress: why === 'requeue' ? 0 : job.progress, note: job.note ?? null };
    if (why === 'cancel') fields.finished_at = now;
    if (why === 'requeue') Object.assign(fields, { attempts: 0, last_error_kind: null, last_error_message: null, not_before: null });
    return { kind: 'write', fields };
  }
  const err = error!;
  const reaction = reactionFor(err, job.resource, job.attempts, e.backoff);
  const base = { last_error_kind: err.kind, last_error_message: err.message, progress: job.progress, note: job.note ?? null };
  if (reaction.kind === 'block') return { kind: 'block', fields: { ...base, state: 'queued' }, reason: reaction.reason, message: err.message };
  if (reaction.kind === 'retry' && (!reaction.counts || job.attempts + 1 < e.maxAttempts)) {
    return { kind: 'write', fields: { ...base, state: 'queued', attempts: job.attempts + (reaction.counts ? 1 : 0), not_before: now + reaction.delayMs } };
  }
  return { kind: 'failed', fields: { ...base, state: 'failed', attempts: job.attempts + 1, finished_at: now }, error: err };
}
