import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { JobQueue } from '../../../src-main/core/pipeline/queue/job-queue';
import { BlockWatch } from '../../../src-main/core/pipeline/watch/block-watch';
import type { AnyStageHandler, StageContext } from '../../../src-main/core/pipeline/queue/job-types';
import { STAGE_GRAPH, type StageName } from '../../../src-shared/contract/stage-graph';
import { backoffDelay, primaryBlock, reactionFor } from '../../../src-main/core/pipeline/queue/error-policy';
import { tempDir } from '../../helpers/paths';
import path from 'node:path';

function addClips(db: CatalogDb, n: number): number[] {
  const now = Date.now();
  db.prepare("INSERT OR IGNORE INTO volumes (id, volume_key, mount_path, last_seen_at) VALUES (1, 'v', '/', ?)").run(now);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const info = db
      .prepare("INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, ?, ?, 1, 1, 'pending', ?, ?)")
      .run(`c${i}-${Math.random()}.mp4`, `c${i}.mp4`, now, now);
    ids.push(Number(info.lastInsertRowid));
  }
  return ids;
}

function waitFor(pred: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (pred()) return resolve();
      if (Date.now() - start > timeoutMs) return reject(new Error('condition not reached'));
      setTimeout(tick, 5);
    };
    tick();
  });
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Rejects when the job is asked to stop (a well-behaved stage stops at `stopping`), like a cancelled ffmpeg would. */
function untilAborted(ctx: StageContext): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () => reject(new AppError('cancelled', 'aborted'));
    ctx.signal.addEventListener('abort', stop, { once: true });
    ctx.stopping.addEventListener('abort', stop, { once: true });
  });
}

const opened: Array<{ db: CatalogDb; q?: JobQueue; cleanup: () => void }> = [];
function setup(opts: ConstructorParameters<typeof JobQueue>[0] extends infer O ? Partial<O> : never = {}) {
  const t = tempDir('rs-queue-');
  const db = openCatalog(path.join(t.dir, 'catalog.sqlite'));
  const q = new JobQueue({ db, backoff: { baseMs: 5, maxMs: 20 }, progressWriteMs: 0, ...opts });
  const entry = { db, q, cleanup: t.cleanup, dir: t.dir };
  opened.push(entry);
  return entry;
}

afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.q?.stop();
    o.db.close();
    o.cleanup();
  }
});

describe('error policy', () => {
  it('maps kinds to reactions', () => {
    expect(reactionFor(new AppError('quota', 'x'), 'network', 0)).toEqual({ kind: 'block', reason: 'quota' });
    expect(reactionFor(new AppError('auth', 'x'), 'network', 0)).toEqual({ kind: 'block', reason: 'auth' });
    expect(reactionFor(new AppError('offline', 'x'), 'network', 0)).toEqual({ kind: 'block', reason: 'offline' });
    // No room to write holds every stage, CPU ones too, without spending attempts.
    expect(reactionFor(new AppError('disk_full', 'database or disk is full'), 'cpu', 2)).toEqual({ kind: 'block', reason: 'disk' });
    // A clip's drive or folder away waits, whatever the stage (an upload may decode the file again).
    expect(reactionFor(new AppError('unplugged', 'volume unplugged'), 'cpu', 0)).toEqual({ kind: 'retry', delayMs: 60_000, counts: false });
    expect(reactionFor(new AppError('unplugged', 'folder renamed'), 'network', 4)).toEqual({ kind: 'retry', delayMs: 60_000, counts: false });
    expect(reactionFor(new AppError('quota', 'x'), 'cpu', 0)).toEqual({ kind: 'fail' });
    expect(reactionFor(new AppError('invalid', 'x'), 'network', 0)).toEqual({ kind: 'fail' });
    expect(reactionFor(new AppError('too_large', 'x'), 'network', 0)).toEqual({ kind: 'fail' });
    expect(reactionFor(new AppError('rate_limit', 'x', { retryAfterMs: 1234 }), 'network', 3)).toEqual({ kind: 'retry', delayMs: 1234, counts: false });
    const t = reactionFor(new AppError('timeout', 'x'), 'network', 2);
    expect(t.kind === 'retry' && t.counts).toBe(true);
    expect(primaryBlock(['user', 'offline', 'quota'])).toBe('quota');
    expect(primaryBlock(['user', 'auth', 'disk'])).toBe('disk');
    expect(primaryBlock([])).toBeNull();
  });

  it('backs off exponentially within bounds', () => {
    const o = { baseMs: 100, maxMs: 1000, random: () => 1 };
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, o))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, { ...o, random: () => 0 })).toBe(200);
  });
});

describe('job queue', () => {
  it('fails a job whose payload its stage cannot read with the reason, without running the stage or retrying it', async () => {
    const { db, q } = setup();
    const [a, b] = addClips(db, 2);
    const ran: number[] = [];
    q.register({ stage: 'probe', run: async (ctx) => void ran.push(ctx.job.clipId!) });
    // A row this version did not write (a newer app, a hand-edited catalog): the probe reads no payload.
    db.prepare("INSERT INTO jobs (clip_id, stage, state, resource, payload_json, created_at, updated_at) VALUES (?, 'probe', 'queued', 'cpu', ?, 1, 1)").run(a, JSON.stringify({ frames: [1, 2] }));
    // And one that is not JSON at all.
    db.prepare("INSERT INTO jobs (clip_id, stage, state, resource, payload_json, created_at, updated_at) VALUES (?, 'probe', 'queued', 'cpu', ?, 1, 1)").run(b, 'frames=1,2');
    const [c] = addClips(db, 1);
    q.enqueue({ clipId: c!, stage: 'probe' });
    q.start();
    await waitFor(() => q.list({ states: ['failed', 'done'] }).length === 3);
    expect(ran).toEqual([c]);
    const bad = q.find(a!, 'probe')!;
    expect(bad).toMatchObject({ state: 'failed', attempts: 1, lastErrorKind: 'invalid' });
    expect(bad.lastErrorMessage).toMatch(/^the probe job's payload is not one this version reads \(\{"frames":\[1,2\]\}\)/);
    expect(q.find(b!, 'probe')).toMatchObject({ state: 'failed', lastErrorKind: 'invalid', lastErrorMessage: expect.stringContaining('"frames=1,2"') });
    // Enqueueing one (from outside the types: JobSpec says the analysis takes null) is refused before it is written.
    expect(() => q.enqueue({ clipId: c!, stage: 'analysis', payload: { shots: 3 } as unknown as null })).toThrow(/analysis job's payload is not one this version reads/);
    expect(q.find(c!, 'analysis')).toBeUndefined();
  });

  it('runs the stage graph in order, cpu and network bounded separately', async () => {
    const { db, q } = setup({ concurrency: { cpu: 1, network: 2 } });
    const clips = addClips(db, 4);
    const active = { cpu: 0, network: 0 };
    const peak = { cpu: 0, network: 0 };
    const order: string[] = [];
    const stage = (name: StageName, next?: StageName): AnyStageHandler => ({
      stage: name,
      async run(ctx) {
        const resource = STAGE_GRAPH[name].resource;
        active[resource]++;
        peak[resource] = Math.max(peak[resource], active[resource]);
        order.push(`${ctx.job.clipId}:${name}`);
        await new Promise((r) => setTimeout(r, 10));
        ctx.progress(0.5, 'half');
        active[resource]--;
        return next ? { next: [{ clipId: ctx.job.clipId, stage: next }] } : undefined;
      },
    });
    q.register(stage('poll', 'index'));
    q.register(stage('index', 'analysis'));
    q.register(stage('analysis'));
    for (const c of clips) q.enqueue({ clipId: c, stage: 'poll' });
    q.start();
    await waitFor(() => q.list({ states: ['done'] }).length === 12);
    expect(peak.cpu).toBe(1);
    expect(peak.network).toBeGreaterThanOrEqual(1);
    expect(peak.network).toBeLessThanOrEqual(2);
    for (const c of clips) {
      const seq = order.filter((o) => o.startsWith(`${c}:`)).map((o) => o.split(':')[1]);
      expect(seq).toEqual(['poll', 'index', 'analysis']);
      expect(q.find(c, 'analysis')!.state).toBe('done');
      expect(q.find(c, 'poll')!.resource).toBe('network');
    }
    expect(q.isIdle()).toBe(true);
  });

  it('runs the preview lane (probe, poster) for every clip first, then the local stages clip after clip', async () => {
    const { db, q } = setup({ concurrency: { cpu: 1, network: 1 } });
    const clips = addClips(db, 4);
    const order: string[] = [];
    const chain: Array<[StageName, StageName | null]> = [['probe', 'poster'], ['poster', 'analysis'], ['analysis', 'index'], ['index', null]];
    for (const [name, next] of chain) {
      q.register({
        stage: name,
        run: async (ctx) => {
          order.push(`${name}${ctx.job.clipId}`);
          return next ? { next: [{ clipId: ctx.job.clipId, stage: next }] } : undefined;
        },
      } as AnyStageHandler);
    }
    for (const c of [...clips].reverse()) q.enqueue({ clipId: c, stage: 'probe' });
    q.start();
    await waitFor(() => q.list({ states: ['done'] }).length === 16);
    const [a, b, c, d] = clips;
    expect(order).toEqual([
      ...[a, b, c, d].flatMap((id) => [`probe${id}`, `poster${id}`]),
      ...[a, b, c, d].flatMap((id) => [`analysis${id}`, `index${id}`]),
    ]);
  });

  it('puts a prioritised clip first, and its later stages inherit the priority', async () => {
    const { db, q } = setup();
    const clips = addClips(db, 5);
    const order: string[] = [];
    q.register({ stage: 'probe', run: async (ctx) => { order.push(`a${ctx.job.clipId}`); return { next: [{ clipId: ctx.job.clipId, stage: 'poster' }] }; } });
    q.register({ stage: 'poster', run: async (ctx) => { order.push(`b${ctx.job.clipId}`); } });
    for (const c of clips) q.enqueue({ clipId: c, stage: 'probe' });
    const last = clips[4]!;
    q.prioritizeClip(last);
    q.start();
    await waitFor(() => q.list({ states: ['done'] }).length === 10);
    expect(order.slice(0, 2)).toEqual([`a${last}`, `b${last}`]);
    expect(q.find(last, 'poster')!.priority).toBe(100);
  });

  it('requeues jobs found running after a crash, and fails one that keeps crashing the app', async () => {
    const { db, q } = setup({ maxRecoveries: 2 });
    const [c1, c2] = addClips(db, 2);
    q.enqueue({ clipId: c1!, stage: 'probe' });
    q.enqueue({ clipId: c2!, stage: 'probe' });
    // Both were running when the process died; c2's job had already taken the app down twice.
    db.prepare("UPDATE jobs SET state = 'running'").run();
    db.prepare('UPDATE jobs SET recoveries = 2 WHERE clip_id = ?').run(c2);
    let runs = 0;
    q.register({ stage: 'probe', run: async () => { runs++; } });
    q.start();
    await waitFor(() => q.find(c1!, 'probe')!.state === 'done');
    expect(runs).toBe(1);
    const poisoned = q.find(c2!, 'probe')!;
    expect(poisoned.state).toBe('failed');
    expect(poisoned.lastErrorMessage).toMatch(/3 times/);
  });

  it('fails invalid input with its reason, retries transient failures with backoff until attempts run out', async () => {
    const { db, q } = setup();
    const [c1, c2, c3] = addClips(db, 3);
    let flaky = 0;
    q.register({ stage: 'upload', run: async () => { throw new AppError('invalid', 'video_input.shape: must be a non-empty array'); } });
    q.register({ stage: 'submit', maxAttempts: 4, run: async () => { if (++flaky < 3) throw new AppError('upstream', '502'); } });
    q.register({ stage: 'analysis', maxAttempts: 3, run: async () => { throw new AppError('io', 'disk full'); } });
    q.enqueue({ clipId: c1!, stage: 'upload' });
    q.enqueue({ clipId: c2!, stage: 'submit' });
    q.enqueue({ clipId: c3!, stage: 'analysis' });
    q.start();
    await waitFor(() => q.isIdle());
    const bad = q.find(c1!, 'upload')!;
    expect(bad.state).toBe('failed');
    expect(bad.lastErrorKind).toBe('invalid');
    expect(bad.lastErrorMessage).toContain('must be a non-empty array');
    const fl = q.find(c2!, 'submit')!;
    expect(fl.state).toBe('done');
    expect(fl.attempts).toBe(2);
    const doomed = q.find(c3!, 'analysis')!;
    expect(doomed.state).toBe('failed');
    expect(doomed.attempts).toBe(3);
    expect(doomed.lastErrorKind).toBe('io');
    // retry starts it over
    q.retryJob(doomed.id);
    expect(q.get(doomed.id)!.attempts).toBe(0);
    await waitFor(() => q.get(doomed.id)!.state === 'failed');
  });

  it('quota blocks every network stage (cpu goes on) until unblocked; the block survives a restart', async () => {
    const { db, q } = setup({ concurrency: { cpu: 1, network: 2 } });
    const clips = addClips(db, 4);
    let quotaLeft = 1;
    let netRuns = 0;
    let cpuRuns = 0;
    q.register({
      stage: 'upload',
      run: async () => {
        netRuns++;
        if (quotaLeft-- <= 0) throw new AppError('quota', 'upload: 402 quota exceeded', { status: 402 });
      },
    });
    q.register({ stage: 'analysis', run: async () => { cpuRuns++; } });
    for (const c of clips) q.enqueue({ clipId: c, stage: 'upload' });
    for (const c of clips) q.enqueue({ clipId: c, stage: 'analysis' });
    const gates: string[] = [];
    q.onGate((g) => gates.push(g.primary?.reason ?? 'open'));
    q.start();
    await waitFor(() => q.isBlocked('quota') && cpuRuns === 4 && q.runningJobs().length === 0);
    const runsWhenBlocked = netRuns;
    await new Promise((r) => setTimeout(r, 50));
    expect(netRuns).toBe(runsWhenBlocked);
    expect(q.gate().primary?.reason).toBe('quota');
    const blockedJobs = q.list({ stages: ['upload'], states: ['queued'] });
    expect(blockedJobs.length).toBeGreaterThanOrEqual(3);
    // The quota error did not cost the job an attempt.
    expect(blockedJobs.every((j) => j.attempts === 0)).toBe(true);
    expect(blockedJobs.some((j) => j.lastErrorKind === 'quota')).toBe(true);

    // A restart remembers the quota pause.
    await q.stop();
    const q2 = new JobQueue({ db, backoff: { baseMs: 5, maxMs: 20 } });
    opened.push({ db, q: q2, cleanup: () => {} });
    q2.register({ stage: 'upload', run: async () => { netRuns++; } });
    q2.register({ stage: 'analysis', run: async () => {} });
    q2.start();
    expect(q2.gate().primary?.reason).toBe('quota');
    await new Promise((r) => setTimeout(r, 30));
    expect(q2.list({ stages: ['upload'], states: ['done'] }).length).toBe(1);
    q2.unblock('quota');
    await waitFor(() => q2.list({ stages: ['upload'], states: ['done'] }).length === 4);
    expect(gates).toContain('quota');
  });

  it('a quota pause holds billable network stages only; offline holds every network stage', async () => {
    const { db, q } = setup({ concurrency: { network: 2 } });
    const [c1, c2] = addClips(db, 2);
    let polls = 0;
    let uploads = 0;
    q.register({ stage: 'upload', run: async () => { uploads++; } });
    q.register({ stage: 'poll', run: async () => { polls++; } });
    q.start();
    q.block('quota', '402');
    q.enqueue({ clipId: c1!, stage: 'upload' });
    q.enqueue({ clipId: c1!, stage: 'poll' });
    await waitFor(() => polls === 1);
    expect(uploads).toBe(0);
    expect(q.stageMayRun('poll')).toBe(true);
    expect(q.stageMayRun('upload')).toBe(false);
    q.block('offline', 'unreachable');
    q.enqueue({ clipId: c2!, stage: 'poll' });
    await new Promise((r) => setTimeout(r, 40));
    expect(polls).toBe(1);
    expect(q.isIdle()).toBe(true);
    q.unblock('offline', 'quota');
    await waitFor(() => polls === 2 && uploads === 1);
  });

  it('rate limits requeue after Retry-After without spending attempts; "again" reschedules without holding a slot', async () => {
    const { db, q } = setup({ concurrency: { network: 1 } });
    const [c1, c2] = addClips(db, 2);
    let limited = 0;
    let polls = 0;
    q.register({
      stage: 'upload',
      maxAttempts: 1,
      run: async () => {
        if (limited++ < 3) throw new AppError('rate_limit', '429', { retryAfterMs: 10 });
      },
    });
    q.register({ stage: 'poll', run: async () => (++polls < 4 ? { again: { delayMs: 15, note: `poll ${polls}` } } : undefined) });
    q.enqueue({ clipId: c1!, stage: 'upload' });
    q.enqueue({ clipId: c2!, stage: 'poll' });
    q.start();
    await waitFor(() => q.isIdle());
    expect(q.find(c1!, 'upload')!.state).toBe('done');
    expect(q.find(c1!, 'upload')!.attempts).toBe(0);
    const p = q.find(c2!, 'poll')!;
    expect(p.state).toBe('done');
    expect(p.attempts).toBe(0);
    expect(polls).toBe(4);
  });

  it('pauses, resumes, cancels and retries a running job; a user network pause aborts running network jobs', async () => {
    const { db, q } = setup({ concurrency: { cpu: 1, network: 1 } });
    const [c1, c2, c3] = addClips(db, 3);
    const release = deferred();
    let starts = 0;
    q.register({
      stage: 'analysis',
      run: async (ctx) => {
        starts++;
        ctx.progress(0.3, 'working');
        await Promise.race([untilAborted(ctx), release.promise]);
      },
    });
    q.register({ stage: 'upload', run: (ctx) => untilAborted(ctx) });
    const j = q.enqueue({ clipId: c1!, stage: 'analysis' });
    q.start();
    await waitFor(() => q.get(j.id)!.state === 'running');
    expect(q.get(j.id)!.progress).toBeCloseTo(0.3);
    q.pauseJob(j.id);
    await waitFor(() => q.get(j.id)!.state === 'paused');
    expect(q.get(j.id)!.note).toBe('working');
    q.resumeJob(j.id);
    await waitFor(() => q.get(j.id)!.state === 'running' && starts === 2);
    q.cancelJob(j.id);
    await waitFor(() => q.get(j.id)!.state === 'cancelled');
    q.retryJob(j.id);
    await waitFor(() => starts === 3);
    release.resolve();
    await waitFor(() => q.get(j.id)!.state === 'done');

    const n = q.enqueue({ clipId: c2!, stage: 'upload' });
    q.enqueue({ clipId: c3!, stage: 'upload' });
    await waitFor(() => q.get(n.id)!.state === 'running');
    q.block('user', 'paused by you');
    await waitFor(() => q.get(n.id)!.state === 'queued');
    expect(q.runningJobs()).toEqual([]);
    expect(q.gate()).toMatchObject({ open: false, primary: { reason: 'user' } });
    q.unblock('user');
    await waitFor(() => q.get(n.id)!.state === 'running');
  });

  it('stopping a network job lets its call in flight finish (its answer is recorded); a CPU job is cut at once', async () => {
    const { db, q } = setup({ concurrency: { cpu: 1, network: 1 }, stopGraceMs: 60_000 });
    const [c1, c2] = addClips(db, 2);
    const answer = deferred();
    const log: string[] = [];
    q.register({
      stage: 'upload',
      run: async (ctx) => {
        log.push('call 1 sent');
        await answer.promise; // the service is answering call 1
        log.push(`call 1 answered, hard abort: ${ctx.signal.aborted}`);
        if (ctx.stopping.aborted) throw new AppError('cancelled', 'stopped before call 2');
        log.push('call 2 sent');
      },
    });
    q.register({ stage: 'analysis', run: (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new AppError('cancelled', 'killed')), { once: true })) });
    const n = q.enqueue({ clipId: c1!, stage: 'upload' });
    const c = q.enqueue({ clipId: c2!, stage: 'analysis' });
    q.start();
    await waitFor(() => log.length === 1 && q.get(c.id)!.state === 'running');
    q.block('offline', 'unreachable');
    q.pauseJob(c.id);
    await waitFor(() => q.get(c.id)!.state === 'paused');
    expect(q.get(n.id)!.state).toBe('running');
    answer.resolve();
    await waitFor(() => q.get(n.id)!.state === 'queued');
    expect(log).toEqual(['call 1 sent', 'call 1 answered, hard abort: false']);
    expect(q.get(n.id)!.attempts).toBe(0);
  });

  it('a write that meets a full catalog holds every stage with the disk guard\'s words, ends nothing, fails no job, and carries on once there is room', async () => {
    let roomOk = true;
    const disk = { room: () => ({ ok: roomOk }), describe: () => 'The disk holding /data has 0 kB free.' };
    const { db, q } = setup({ disk, concurrency: { cpu: 2, network: 1 } });
    const watch = new BlockWatch(q, { reason: 'disk', clears: () => disk.room().ok, delay: { initialMs: 20, maxMs: 20 } });
    const clips = addClips(db, 6);
    db.exec('CREATE TABLE scratch (b BLOB)');
    const grow = db.prepare('INSERT INTO scratch (b) VALUES (zeroblob(65536))');
    q.register({ stage: 'analysis', run: async () => void grow.run() });
    for (const c of clips) q.enqueue({ clipId: c, stage: 'analysis' });
    // The catalog may grow by two pages only: the first job's write meets "database or disk is full".
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
    // What the disk guard's statfs would then say too.
    q.onGate((g) => {
      if (g.blocks.some((b) => b.reason === 'disk')) roomOk = false;
    });
    q.start();
    await waitFor(() => q.isBlocked('disk') && q.runningJobs().length === 0);
    expect(q.gate().primary).toMatchObject({ reason: 'disk', message: 'The disk holding /data has 0 kB free.' });
    await new Promise((r) => setTimeout(r, 60));
    expect(q.list({ states: ['failed'] })).toEqual([]);
    expect(q.list({ states: ['done'] })).toEqual([]);
    expect(q.list({ states: ['queued'] })).toHaveLength(6);
    db.pragma('max_page_count = 1073741823');
    roomOk = true;
    await waitFor(() => q.list({ states: ['done'] }).length === 6);
    expect(q.isBlocked('disk')).toBe(false);
    watch.stop();
  });

  it('a BlockWatch looks only while its block holds, takes a throw for "not yet", lifts the block, and looks at once when asked', async () => {
    const { q } = setup();
    let looks = 0;
    let clears = false;
    const watch = new BlockWatch(q, {
      reason: 'offline',
      clears: () => {
        looks++;
        if (looks === 1) throw new Error('no answer');
        return clears;
      },
      delay: { initialMs: 5, maxMs: 20 },
    });
    await new Promise((r) => setTimeout(r, 40));
    expect(looks).toBe(0);
    q.block('offline', 'unreachable');
    await waitFor(() => looks >= 3);
    expect(q.isBlocked('offline')).toBe(true);
    clears = true;
    await waitFor(() => !q.isBlocked('offline'));
    const after = looks;
    await new Promise((r) => setTimeout(r, 60));
    expect(looks).toBe(after);
    q.block('offline', 'unreachable again');
    watch.lookNow();
    expect(looks).toBe(after + 1);
    await waitFor(() => !q.isBlocked('offline'));
    watch.stop();
    q.block('offline', 'after stop');
    await new Promise((r) => setTimeout(r, 60));
    expect(looks).toBe(after + 1);
  });

  it('enqueue is one job per clip and stage; reset starts a finished job over', async () => {
    const { db, q } = setup();
    const [c1] = addClips(db, 1);
    let runs = 0;
    q.register({ stage: 'probe', run: async () => { runs++; } });
    q.start();
    const a = q.enqueue({ clipId: c1!, stage: 'probe', workS: 12 });
    await waitFor(() => q.get(a.id)!.state === 'done');
    const again = q.enqueue({ clipId: c1!, stage: 'probe' });
    expect(again.id).toBe(a.id);
    expect(again.state).toBe('done');
    q.enqueue({ clipId: c1!, stage: 'probe' }, { reset: true });
    await waitFor(() => runs === 2 && q.get(a.id)!.state === 'done');
    expect(q.list({ clipId: c1! })).toHaveLength(1);
    expect(q.get(a.id)!.workS).toBe(12);
  });
});
