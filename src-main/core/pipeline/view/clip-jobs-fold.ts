import type { ClipStatus } from '../../../../src-shared/contract/library';
import { STAGE_GRAPH } from '../../../../src-shared/contract/stage-graph';
import { INDEX_STAGES, type ClipJobs, type JobsSummary, type JobView, type StageName } from '../../../../src-shared/contract/jobs';
import type { Job, JobResource, JobState } from '../queue/job-types';

/**
 * The Jobs view's fold: a clip's jobs folded into where the clip is (ClipJobs in the contract
 * documents the states). Pure: the pipeline reads the rows (jobs-view-store.ts) and the gate, this
 * says what they mean; test/unit/pipeline/pipeline-clip-jobs-fold.test.ts drives it directly.
 */

export const STAGE_INDEX = new Map<string, number>(INDEX_STAGES.map((s, i) => [s, i]));
export const NETWORK_STAGES = new Set<string>(INDEX_STAGES.filter((st) => STAGE_GRAPH[st].resource === 'network'));

/** A clip's furthest indexing job, with what the fold needs of the clip. */
export interface FrontierRow {
  clip_id: number;
  stage: StageName;
  state: JobState;
  progress: number;
  resource: JobResource;
  priority: number;
  duration_s: number | null;
  indexed_at: number | null;
  indexed_profile: string | null;
}

/** What the Jobs view shows of a clip itself. */
export interface ClipForJobs {
  id: number;
  file_name: string;
  /** A clip added by URL: indexed by the service from its address, no local stage applies. */
  source_url: string | null;
  /** The stored status (clips-repository writes pending, probed, done, error, unsupported). */
  status: ClipStatus;
  duration_s: number | null;
  /** Null: never probed here (a team clip listed offline, library/team-share-entries.ts). */
  probed_at: number | null;
  indexed_at: number | null;
  indexed_profile: string | null;
}

/** What the fold needs besides the rows: the profile clips are indexed with and the network gate. */
export interface FoldContext {
  /** Profiles whose index counts as current (the pipeline's, and the one of clips added by URL). */
  currentProfiles: readonly string[];
  gateOpen: boolean;
  /** Whether the gate lets this stage start now (a free stage runs through a quota pause). */
  stageMayRun(stage: StageName): boolean;
}

export function jobView(j: Job): JobView {
  return {
    id: j.id,
    clipId: j.clipId,
    stage: j.stage,
    state: j.state,
    resource: j.resource,
    priority: j.priority,
    attempts: j.attempts,
    progress: j.progress,
    note: j.note ?? null,
    errorKind: j.lastErrorKind,
    errorMessage: j.lastErrorMessage,
    notBefore: j.notBefore,
    updatedAt: j.updatedAt ?? 0,
    runMs: j.runMs ?? 0,
  };
}

/**
 * Where a clip is: its furthest stage that is not done (a stage re-run after a later one, as a
 * resubmission does, is where the clip is), or its furthest stage when all are done.
 */
export function frontierOf(jobs: readonly Job[]): Job | null {
  const furthest = (list: readonly Job[]) => list.reduce<Job | null>((best, j) => (!best || STAGE_INDEX.get(j.stage)! > STAGE_INDEX.get(best.stage)! ? j : best), null);
  return furthest(jobs.filter((j) => j.state !== 'done')) ?? furthest(jobs);
}

/** The clip's state from its frontier job: done only once the index stage stamped it with a current profile. */
export function foldState(r: Pick<FrontierRow, 'stage' | 'state' | 'resource' | 'indexed_at' | 'indexed_profile'>, ctx: FoldContext): ClipJobs['state'] {
  if (r.state === 'done') {
    const current = r.indexed_profile !== null && ctx.currentProfiles.includes(r.indexed_profile);
    return r.stage === 'index' && r.indexed_at !== null && current ? 'done' : 'waiting';
  }
  if (r.state === 'running') return 'running';
  // gateOpen is read once per list; the per-stage answer covers polls running through a quota pause.
  if (r.state === 'queued') return r.resource === 'network' && !ctx.gateOpen && !ctx.stageMayRun(r.stage) ? 'blocked' : 'waiting';
  if (r.state === 'paused' || r.state === 'failed' || r.state === 'cancelled') return r.state;
  return 'waiting';
}

export const isActive = (s: ClipJobs['state']) => s === 'running' || s === 'waiting' || s === 'blocked';

/** One clip's jobs folded into where it is. `segments`: its segments with the current profile. */
export function clipJobsOf(clip: ClipForJobs, jobs: Job[], segments: number, ctx: FoldContext): ClipJobs {
  const indexJobs = jobs.filter((j) => STAGE_INDEX.has(j.stage));
  const stageCount = INDEX_STAGES.length;
  const frontier = frontierOf(indexJobs);
  const stage = frontier?.stage ?? 'probe';
  const stageIndex = STAGE_INDEX.get(stage) ?? 0;
  const state: ClipJobs['state'] = frontier
    ? foldState({ stage: frontier.stage, state: frontier.state, resource: frontier.resource, indexed_at: clip.indexed_at, indexed_profile: clip.indexed_profile }, ctx)
    : 'waiting';
  const failed = indexJobs.find((j) => j.state === 'failed');
  const errorFrom = frontier?.lastErrorMessage ? frontier : failed;
  const within = frontier ? (frontier.state === 'done' ? 1 : frontier.progress) : 0;
  return {
    clipId: clip.id,
    name: clip.file_name,
    durationS: clip.duration_s,
    state,
    stage,
    stageIndex,
    stageCount,
    progress: state === 'done' ? 1 : Math.min(1, (stageIndex + within) / stageCount),
    note: frontier?.note ?? null,
    errorKind: errorFrom?.lastErrorKind ?? null,
    errorMessage: errorFrom?.lastErrorMessage ?? null,
    priority: frontier?.priority ?? 0,
    indexedAt: clip.indexed_at,
    segments,
    jobs: jobs.sort((a, b) => (STAGE_INDEX.get(a.stage) ?? 99) - (STAGE_INDEX.get(b.stage) ?? 99) || a.id - b.id).map(jobView),
  };
}

/** A clip added by URL in the Jobs view's words: indexed by the service when it was added, no jobs. */
export function remoteClipJobs(clip: ClipForJobs, segments: number): ClipJobs {
  const indexed = clip.indexed_at !== null;
  return {
    clipId: clip.id,
    name: clip.file_name,
    durationS: clip.duration_s,
    state: indexed ? 'done' : 'failed',
    stage: 'index',
    stageIndex: INDEX_STAGES.length - 1,
    stageCount: INDEX_STAGES.length,
    progress: indexed ? 1 : 0,
    note: 'indexed by the service from its address',
    errorKind: indexed ? null : 'cancelled',
    errorMessage: indexed ? null : 'the add was cut short before the service indexed it: add the address again',
    priority: 0,
    indexedAt: clip.indexed_at,
    segments,
    jobs: [],
  };
}

export type FoldedRow = { r: FrontierRow; state: ClipJobs['state'] };

/** The summary's clip counts: clips, each in its folded state (a clip with two jobs running is one running clip). */
export function clipCounts(folded: readonly FoldedRow[]): JobsSummary['clips'] {
  return {
    total: folded.length,
    done: folded.filter((x) => x.state === 'done').length,
    active: folded.filter((x) => isActive(x.state)).length,
    running: folded.filter((x) => x.state === 'running').length,
    waiting: folded.filter((x) => x.state === 'waiting' || x.state === 'blocked').length,
    failed: folded.filter((x) => x.state === 'failed').length,
  };
}

export type ClipListFilter = 'all' | 'active' | 'failed' | 'done';

const RANK: Record<ClipJobs['state'], number> = { running: 0, blocked: 1, waiting: 2, failed: 3, paused: 4, cancelled: 5, done: 6 };

/** The Jobs list: the clips the filter keeps, running first, then by priority, the latest indexed, the clip's id. */
export function listOrder(folded: readonly FoldedRow[], filter: ClipListFilter): FoldedRow[] {
  return folded
    .filter(({ state }) => {
      if (filter === 'active') return state !== 'done' && state !== 'failed' && state !== 'cancelled';
      if (filter === 'failed') return state === 'failed';
      if (filter === 'done') return state === 'done';
      return true;
    })
    .sort((a, b) => RANK[a.state] - RANK[b.state] || b.r.priority - a.r.priority || (b.r.indexed_at ?? 0) - (a.r.indexed_at ?? 0) || a.r.clip_id - b.r.clip_id);
}
