import { describe, expect, it } from 'vitest';
import { clipCounts, clipJobsOf, foldState, frontierOf, listOrder, remoteClipJobs, type ClipForJobs, type FoldContext, type FrontierRow } from '../../../src-main/core/pipeline/view/clip-jobs-fold';
import { JobsEta, remainingWork, sampleOf } from '../../../src-main/core/pipeline/view/jobs-eta';
import type { Job, JobState } from '../../../src-main/core/pipeline/queue/job-types';
import { INDEX_STAGES, type StageName } from '../../../src-shared/contract/jobs';
import { STAGE_GRAPH } from '../../../src-shared/contract/stage-graph';

const ctx = (o: Partial<FoldContext> = {}): FoldContext => ({ currentProfiles: ['p1', 'url'], gateOpen: true, stageMayRun: () => true, ...o });
let nextId = 1;
const job = (stage: StageName, state: JobState, o: Partial<Job> = {}): Job => ({
  id: nextId++,
  clipId: 7,
  stage,
  state,
  resource: STAGE_GRAPH[stage].resource,
  priority: 0,
  attempts: 0,
  progress: state === 'done' ? 1 : 0,
  lastErrorKind: null,
  lastErrorMessage: null,
  payload: null,
  notBefore: null,
  ...o,
});
const row = (stage: StageName, state: JobState, o: Partial<FrontierRow> = {}): FrontierRow => ({
  clip_id: 1,
  stage,
  state,
  progress: 0,
  resource: STAGE_GRAPH[stage].resource,
  priority: 0,
  duration_s: 10,
  indexed_at: null,
  indexed_profile: null,
  ...o,
});
const clip: ClipForJobs = { id: 7, file_name: 'a.mp4', source_url: null, status: 'done', duration_s: 10, probed_at: 1, indexed_at: null, indexed_profile: null };

describe('the Jobs fold', () => {
  it('puts a clip at its furthest stage not done, or its furthest stage when all are done', () => {
    const probe = job('probe', 'done');
    const upload = job('upload', 'queued');
    const submit = job('submit', 'done');
    // A resubmission re-runs upload after submit finished: the clip is at upload.
    expect(frontierOf([probe, submit, upload])).toBe(upload);
    expect(frontierOf([probe, submit])).toBe(submit);
    expect(frontierOf([])).toBeNull();
  });

  it('calls a clip done only once the index stage stamped it with a current profile', () => {
    expect(foldState(row('index', 'done', { indexed_at: 5, indexed_profile: 'p1' }), ctx())).toBe('done');
    expect(foldState(row('index', 'done', { indexed_at: 5, indexed_profile: 'url' }), ctx())).toBe('done');
    expect(foldState(row('index', 'done', { indexed_at: 5, indexed_profile: 'old' }), ctx())).toBe('waiting');
    expect(foldState(row('submit', 'done', { indexed_at: 5, indexed_profile: 'p1' }), ctx())).toBe('waiting');
    expect(foldState(row('index', 'done'), ctx())).toBe('waiting');
  });

  it('blocks a queued network stage only while the gate holds it', () => {
    expect(foldState(row('upload', 'queued'), ctx({ gateOpen: false, stageMayRun: () => false }))).toBe('blocked');
    // A free stage runs through a quota pause.
    expect(foldState(row('poll', 'queued'), ctx({ gateOpen: false, stageMayRun: (st) => st === 'poll' }))).toBe('waiting');
    expect(foldState(row('probe', 'queued'), ctx({ gateOpen: false, stageMayRun: () => false }))).toBe('waiting');
    expect(foldState(row('upload', 'queued'), ctx())).toBe('waiting');
    for (const s of ['running', 'paused', 'failed', 'cancelled'] as const) expect(foldState(row('upload', s), ctx())).toBe(s);
  });

  it('folds one clip: progress over every stage, the frontier error first, jobs in stage order', () => {
    const jobs = [job('poster', 'done'), job('analysis', 'running', { progress: 0.5, note: 'shot 3/6' }), job('probe', 'done')];
    const c = clipJobsOf(clip, jobs, 4, ctx());
    const at = INDEX_STAGES.indexOf('analysis');
    expect(c).toMatchObject({ clipId: 7, state: 'running', stage: 'analysis', stageIndex: at, note: 'shot 3/6', segments: 4, errorMessage: null });
    expect(c.progress).toBeCloseTo((at + 0.5) / INDEX_STAGES.length);
    expect(c.jobs.map((j) => j.stage)).toEqual(['probe', 'poster', 'analysis']);
    const failed = clipJobsOf(clip, [job('probe', 'done'), job('upload', 'failed', { lastErrorKind: 'invalid', lastErrorMessage: 'bad shape' })], 0, ctx());
    expect(failed).toMatchObject({ state: 'failed', stage: 'upload', errorKind: 'invalid', errorMessage: 'bad shape' });
    const done = clipJobsOf({ ...clip, indexed_at: 9, indexed_profile: 'p1' }, INDEX_STAGES.map((st) => job(st, 'done')), 2, ctx());
    expect(done).toMatchObject({ state: 'done', progress: 1, stage: 'index' });
    expect(clipJobsOf(clip, [], 0, ctx())).toMatchObject({ state: 'waiting', stage: 'probe', progress: 0 });
  });

  it('shows a clip added by URL as one index step, done or cut short', () => {
    expect(remoteClipJobs({ ...clip, source_url: 'https://x/a.mp4', indexed_at: 3 }, 5)).toMatchObject({ state: 'done', progress: 1, segments: 5, jobs: [] });
    expect(remoteClipJobs({ ...clip, source_url: 'https://x/a.mp4' }, 0)).toMatchObject({ state: 'failed', errorKind: 'cancelled' });
  });

  it('counts and orders the list: running first, then priority, the latest indexed, the id', () => {
    const folded = [
      { r: row('index', 'done', { clip_id: 1, indexed_at: 1 }), state: 'done' as const },
      { r: row('index', 'done', { clip_id: 2, indexed_at: 2 }), state: 'done' as const },
      { r: row('upload', 'failed', { clip_id: 3 }), state: 'failed' as const },
      { r: row('probe', 'queued', { clip_id: 4 }), state: 'waiting' as const },
      { r: row('probe', 'queued', { clip_id: 5, priority: 100 }), state: 'waiting' as const },
      { r: row('analysis', 'running', { clip_id: 6 }), state: 'running' as const },
    ];
    expect(clipCounts(folded)).toEqual({ total: 6, done: 2, active: 3, running: 1, waiting: 2, failed: 1 });
    expect(listOrder(folded, 'all').map((x) => x.r.clip_id)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(listOrder(folded, 'active').map((x) => x.r.clip_id)).toEqual([6, 5, 4]);
    expect(listOrder(folded, 'done').map((x) => x.r.clip_id)).toEqual([2, 1]);
    expect(listOrder(folded, 'failed').map((x) => x.r.clip_id)).toEqual([3]);
  });
});

describe('the Jobs ETA', () => {
  it('learns a poll from the wall time since its clip was submitted, other stages from their running time', () => {
    const submitted = (clipId: number) => (clipId === 1 ? 1000 : null);
    expect(sampleOf({ stage: 'poll', clipId: 1, runMs: 5, workS: 10, finishedAt: 4000 }, submitted)).toEqual({ stage: 'poll', ms: 3000, workS: 10 });
    expect(sampleOf({ stage: 'poll', clipId: 2, runMs: 5, workS: 10, finishedAt: 4000 }, submitted)).toBeNull();
    expect(sampleOf({ stage: 'upload', clipId: 1, runMs: 700, workS: null, finishedAt: 4000 }, submitted)).toEqual({ stage: 'upload', ms: 700, workS: null });
    expect(sampleOf({ stage: 'upload', clipId: 1, runMs: null, workS: null, finishedAt: 4000 }, submitted)).toBeNull();
  });

  it('makes no estimate while the network is held and a clip still has a network stage ahead', () => {
    const cpuOnly = [{ r: row('probe', 'running'), state: 'running' as const }];
    expect(remainingWork(cpuOnly, false)).toBeNull();
    const atIndex = [{ r: row('index', 'queued'), state: 'waiting' as const }];
    expect(remainingWork(atIndex, true)).toEqual([{ stage: 'index', progress: 0, later: [], workS: 10 }]);
    expect(remainingWork([{ r: row('analysis', 'running', { progress: 0.25 }), state: 'running' as const }], true)).toEqual([
      { stage: 'analysis', progress: 0.25, later: INDEX_STAGES.slice(INDEX_STAGES.indexOf('analysis') + 1), workS: 10 },
    ]);
  });

  it('shows 0 with nothing to do, unknown until every stage ahead was seen, then the model estimate', () => {
    const eta = new JobsEta(() => null);
    expect(eta.advance([], true, { cpu: 1, network: 1 }, 0).ms).toBe(0);
    const active = [{ r: row('index', 'queued', { duration_s: 10 }), state: 'waiting' as const }];
    expect(eta.advance(active, true, { cpu: 1, network: 1 }, 1).ms).toBeNull();
    eta.observe([{ stage: 'index', clipId: 1, runMs: 2000, workS: 10, finishedAt: 1 }]);
    expect(eta.advance(active, true, { cpu: 1, network: 1 }, 2).ms).toBe(2000);
    expect(eta.shown?.ms).toBe(2000);
  });
});
