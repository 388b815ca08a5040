import type { ErrorKind } from '../../../../src-shared/errors';
import type { NextOf, StageName, StageResource } from '../../../../src-shared/contract/stage-graph';
import { JOB_STATE_VALUES } from '../../../../src-shared/contract/jobs';
import type { PayloadOf } from './job-payloads';

/** The contract's states: `done` is the app's one word for finished. */
export const JOB_STATES = JOB_STATE_VALUES;
export type JobState = (typeof JOB_STATES)[number];

/** CPU stages (ffmpeg, ONNX) and network stages (service calls) are bounded separately. */
export type JobResource = StageResource;

export interface Job {
  id: number;
  clipId: number | null;
  stage: StageName;
  state: JobState;
  resource: JobResource;
  priority: number;
  attempts: number;
  progress: number;
  lastErrorKind: ErrorKind | null;
  lastErrorMessage: string | null;
  /** As stored; a stage reads it parsed, from `StageContext.payload` (job-payloads.ts). */
  payload: unknown;
  /** Epoch ms before which the job must not run (backoff). */
  notBefore: number | null;
  /** Short progress note ("uploading 3/12"). */
  note?: string | null;
  createdAt?: number;
  updatedAt?: number;
  startedAt?: number | null;
  finishedAt?: number | null;
  /** Time spent running, all attempts together. */
  runMs?: number;
  /** Media seconds the job covers: the unit of the ETA's rates. */
  workS?: number | null;
}

export interface JobSpec<S extends StageName = StageName> {
  clipId: number | null;
  stage: S;
  priority?: number;
  /** The stage's payload as it declares it (job-payloads.ts); parsed again when the job is enqueued. */
  payload?: PayloadOf<S>;
  /** Media seconds the job covers (for the ETA). */
  workS?: number | null;
}

export interface StageContext<S extends StageName = StageName> {
  job: Job;
  /** The job's payload as its stage declares it, parsed before the run (a job whose payload does not parse fails with the reason). */
  payload: PayloadOf<S>;
  /** Aborted on cancel, pause or shutdown: pass it to every ffmpeg child and fetch. */
  signal: AbortSignal;
  /**
   * Network stages: aborted first when the job must stop (pause, cancel, a block, shutdown). A
   * stage checks it before each service call and stops there; calls already in flight finish and
   * their answers are recorded, since cutting a call the service has already done would lose its
   * answer (and cost a duplicate later). `signal` follows after a grace period. For CPU stages
   * both abort together.
   */
  stopping: AbortSignal;
  progress(fraction: number, note?: string): void;
}

export interface StageOutcome<S extends StageName = StageName> {
  /** Jobs to enqueue once this one succeeds: the stage's `next` or one of its loop-backs (stage-graph.ts). */
  next?: Array<JobSpec & { stage: NextOf<S> }>;
  /**
   * Not finished, nothing wrong: run again after this delay without holding a slot meanwhile
   * (polling a task the service is still processing). Attempts are not counted.
   */
  again?: { delayMs: number; note?: string };
}

/**
 * One stage of the pipeline. Its resource, lane and billing come from the stage graph
 * (src-shared/contract/stage-graph.ts). run() must be idempotent: it may be re-run after a crash.
 */
export interface StageHandler<S extends StageName = StageName> {
  stage: S;
  maxAttempts?: number;
  run(ctx: StageContext<S>): Promise<StageOutcome<S> | void>;
}

/** Any registered handler (the queue keeps them by name). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStageHandler = StageHandler<any>;
