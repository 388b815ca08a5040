import { z } from 'zod';
import { ERROR_KINDS } from '../errors';
import { method, voidSchema } from './define';
import { STAGE_GRAPH } from './stage-graph';

/** A job's states. `done` is the app's one word for finished (jobs, service tasks, clips, imports). */
export const JOB_STATE_VALUES = ['queued', 'running', 'done', 'failed', 'paused', 'cancelled'] as const;
export const jobStateSchema = z.enum(JOB_STATE_VALUES);

export { INDEX_STAGES, type StageName } from './stage-graph';

/** Stage labels for the Jobs view, from the stage graph. */
export const STAGE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(STAGE_GRAPH).map(([k, v]) => [k, v.label]));

export const jobViewSchema = z.object({
  id: z.number().int(),
  clipId: z.number().int().nullable(),
  stage: z.string(),
  state: jobStateSchema,
  resource: z.enum(['cpu', 'network']),
  priority: z.number().int(),
  attempts: z.number().int(),
  progress: z.number().min(0).max(1),
  note: z.string().nullable(),
  errorKind: z.enum(ERROR_KINDS).nullable(),
  errorMessage: z.string().nullable(),
  /** Epoch ms: a queued job waits for this (backoff, or the next poll). */
  notBefore: z.number().nullable(),
  updatedAt: z.number(),
  runMs: z.number(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/**
 * One clip's way through the stages. `state` folds its jobs: running when one runs, waiting when
 * one is queued, blocked when its next job is a network stage held by the gate, failed/paused/
 * cancelled when its current job is, done when indexed.
 */
export const CLIP_JOB_STATES = ['waiting', 'running', 'blocked', 'paused', 'failed', 'cancelled', 'done'] as const;
/** Where a clip's indexing is, folded from its jobs: the one fold the Jobs view and the Library both show. */
export const clipIndexStateSchema = z.enum(CLIP_JOB_STATES);
export type ClipIndexState = z.infer<typeof clipIndexStateSchema>;
export const clipJobsSchema = z.object({
  clipId: z.number().int(),
  name: z.string(),
  durationS: z.number().nullable(),
  state: clipIndexStateSchema,
  /** The stage it is at (the last one when done). */
  stage: z.string(),
  stageIndex: z.number().int(),
  stageCount: z.number().int(),
  /** 0..1 over every stage of the clip. */
  progress: z.number().min(0).max(1),
  note: z.string().nullable(),
  errorKind: z.enum(ERROR_KINDS).nullable(),
  errorMessage: z.string().nullable(),
  priority: z.number().int(),
  indexedAt: z.number().nullable(),
  segments: z.number().int(),
  jobs: z.array(jobViewSchema),
});
export type ClipJobs = z.infer<typeof clipJobsSchema>;

/** Why the queue holds work: `disk` holds every stage (no room to write), the others the network stages. */
export const BLOCK_REASON_VALUES = ['disk', 'auth', 'quota', 'offline', 'user'] as const;
export const networkStateSchema = z.object({
  /** Network stages may start. */
  open: z.boolean(),
  /** The block the banner shows (disk > auth > quota > offline > user). */
  reason: z.enum(BLOCK_REASON_VALUES).nullable(),
  message: z.string().nullable(),
  since: z.number().nullable(),
  /** Every block in force. */
  reasons: z.array(z.enum(BLOCK_REASON_VALUES)),
  /** Whether a service URL and key are set at all (no key: indexing stops before uploading). */
  configured: z.boolean(),
});
export type NetworkState = z.infer<typeof networkStateSchema>;

/** A clip-less job (the reference queries), shown apart from the clip counts while it waits or runs. */
export const otherJobSchema = z.object({
  stage: z.string(),
  state: z.enum(['queued', 'running']),
});
export type OtherJob = z.infer<typeof otherJobSchema>;

/** The background lane's stages (viewing proxies, face prints, frame rates read again): work for clips already indexed, each stage paused and resumed as one. */
export const BACKGROUND_STAGES = ['proxy', 'identities', 'rate'] as const;
export const backgroundStageSchema = z.enum(BACKGROUND_STAGES);
export type BackgroundStage = z.infer<typeof backgroundStageSchema>;


export const jobsSummarySchema = z.object({
  /** Counts of clips (each clip's indexing folded into one state), never of jobs. */
  clips: z.object({
    total: z.number().int(),
    done: z.number().int(),
    /** running + waiting (waiting includes clips held by a block). */
    active: z.number().int(),
    running: z.number().int(),
    waiting: z.number().int(),
    failed: z.number().int(),
  }),
  otherJobs: z.array(otherJobSchema),
  /** The background lane (viewing proxies for clips indexed before): its jobs by state, apart from the clips' indexing. */
  background: z.array(z.object({ stage: backgroundStageSchema, queued: z.number().int(), running: z.number().int(), paused: z.number().int(), failed: z.number().int() })),
  /**
   * Milliseconds until the queue is empty at the measured rates, counting down with the clock and
   * moving at most 1.5x per refresh unless etaNote names why (pipeline/view/eta-display.ts); null while
   * unknown (no rates yet, or blocked).
   */
  etaMs: z.number().nullable(),
  /** Why the ETA last moved by more than the clock (footage added, uploads held or resumed); null when it did not. */
  etaNote: z.string().nullable(),
  network: networkStateSchema,
  updatedAt: z.number(),
});
export type JobsSummary = z.infer<typeof jobsSummarySchema>;

export const JOB_LIST_FILTERS = ['all', 'active', 'failed', 'done'] as const;

const target = z
  .object({ jobId: z.number().int().optional(), clipId: z.number().int().optional(), background: backgroundStageSchema.optional() })
  .strict()
  .refine((t) => [t.jobId, t.clipId, t.background].filter((x) => x !== undefined).length === 1, 'give exactly one of jobId, clipId or background');

const changedSchema = z.object({ changed: z.number().int() });

export const jobsMethods = {
  'jobs.summary': method(voidSchema, jobsSummarySchema),
  /** Clips with their jobs, most urgent first (running, waiting, failed, then done). */
  'jobs.list': method(
    z
      .object({
        filter: z.enum(JOB_LIST_FILTERS).default('all'),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(200),
      })
      .strict(),
    z.object({ clips: z.array(clipJobsSchema), total: z.number().int() }),
  ),
  'jobs.pause': method(target, changedSchema),
  'jobs.resume': method(target, changedSchema),
  'jobs.cancel': method(target, changedSchema),
  'jobs.retry': method(target, changedSchema),
  /** Every failed job back to the queue. */
  'jobs.retryFailed': method(voidSchema, changedSchema),
  /** Stops starting network stages (uploads, submissions, polls); CPU stages go on. */
  'jobs.pauseNetwork': method(voidSchema, networkStateSchema),
  /** Lifts the user's pause and a quota or auth stop (after the quota was raised or the key fixed). */
  'jobs.resumeNetwork': method(voidSchema, networkStateSchema),
  /** The clip the user opened goes first. */
  'jobs.prioritizeClip': method(z.object({ clipId: z.number().int() }).strict(), changedSchema),
  /** Queues indexing for these clips (all clips without jobs when omitted); `restart` redoes finished stages. */
  'jobs.indexClips': method(
    z.object({ clipIds: z.array(z.number().int()).max(100_000).optional(), restart: z.boolean().default(false) }).strict(),
    changedSchema,
  ),
} as const;

export const jobsEvents = {
  /** Clips whose jobs changed (batched, a few per second at most). */
  'jobs.clips': z.object({ clips: z.array(clipJobsSchema) }),
  /** Queue totals, ETA and the network gate (throttled). */
  'jobs.summary': jobsSummarySchema,
  /** The network stages stopped for a reason the user must see (auth: enter the key; quota: resume when raised). */
  'jobs.attention': z.object({ reason: z.enum(BLOCK_REASON_VALUES), message: z.string() }),
  /** A clip finished indexing: its embeddings and tags are in the catalog. */
  'jobs.clipIndexed': z.object({ clipId: z.number().int(), segments: z.number().int() }),
} as const;
