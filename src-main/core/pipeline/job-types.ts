import type { ErrorKind } from '../../../src-shared/errors';

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'paused', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** CPU stages (ffmpeg, ONNX) and network stages (service calls) are bounded separately. */
export type JobResource = 'cpu' | 'network';

export interface Job {
  id: number;
  clipId: number | null;
  stage: string;
  state: JobState;
  resource: JobResource;
  priority: number;
  attempts: number;
  progress: number;
  lastErrorKind: ErrorKind | null;
  lastErrorMessage: string | null;
  payload: unknown;
  /** Epoch ms before which the job must not run (backoff). */
  notBefore: number | null;
}

export interface JobSpec {
  clipId: number | null;
  stage: string;
  resource?: JobResource;
  priority?: number;
  payload?: unknown;
}

export interface StageContext {
  job: Job;
  /** Aborted on cancel, pause or shutdown: pass it to every ffmpeg child and fetch. */
  signal: AbortSignal;
  progress(fraction: number, note?: string): void;
}

export interface StageOutcome {
  /** Jobs to enqueue once this one succeeds (the next stages). */
  next?: JobSpec[];
}

/** One stage of the pipeline. run() must be idempotent: it may be re-run after a crash. */
export interface StageHandler {
  stage: string;
  resource: JobResource;
  maxAttempts?: number;
  run(ctx: StageContext): Promise<StageOutcome | void>;
}
