import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/server';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { createJobsHandlers } from '../../../src-main/core/pipeline/pipeline-handlers';
import type { EventName } from '../../../src-shared/contract';
import type { JobsSummary } from '../../../src-shared/contract/jobs';
import { mediaFile } from '../../helpers/paths';
import type { IndexingPipelineOptions } from '../../../src-main/core/pipeline/pipeline-options';
import {
  IndexingPipeline,
  TEST_KEY,
  TEST_PROFILE,
  indexReport,
  testPipelineOptions,
  testServiceAccess,
  waitUntil,
} from '../fixtures/pipeline-harness';
import { expectFullyIndexed, preparedTemplate } from '../fixtures/pipeline-suite';
import { setTimeout as sleep } from 'node:timers/promises';

const CLIPS = ['intel_asl_thanks.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4'];
const ctx = { transport: 'test' as const };
/** Nothing left to run: idle, and not because the network stages are blocked. */
const settled = (p: IndexingPipeline) => p.queue.isIdle() && p.networkState().open;

interface Fresh {
  db: CatalogDb;
  emu: EmulatorHandle;
  service: ReturnType<typeof testServiceAccess>;
  pipeline: IndexingPipeline;
  handlers: ReturnType<typeof createJobsHandlers>;
  events: Array<{ event: EventName; payload: unknown }>;
}

/**
 * The service's error statuses driving the queue: 402 pauses until the user resumes, offline
 * pauses until the service answers again, 413 splits, 401 waits for a key, 4xx validation fails
 * the job with its reason. The clips' CPU stages run once; each test starts from a copy.
 */
describe('indexing pipeline: service errors drive the queue', () => {
  const template = preparedTemplate('rs-pipeline-errors-', CLIPS.map(mediaFile));
  const open: Fresh[] = [];

  afterEach(async () => {
    for (const f of open.splice(0)) {
      await f.pipeline.stop();
      f.db.close();
      await f.emu.close();
    }
  });

  async function fresh(emuOpts: EmulatorOptions = {}, over: Partial<IndexingPipelineOptions> = {}): Promise<Fresh> {
    const { dir, db } = template.copy();
    const emu = await startEmulator({ keys: [TEST_KEY], ...emuOpts });
    const service = testServiceAccess(emu.url);
    const opts = testPipelineOptions(db, dir, service, over);
    const events: Fresh['events'] = [];
    opts.events!.subscribe((event, payload) => events.push({ event, payload }));
    const pipeline = new IndexingPipeline(opts);
    const f = { db, emu, service, pipeline, handlers: createJobsHandlers({ pipeline }), events };
    open.push(f);
    return f;
  }

  const summaries = (f: Fresh) => f.events.filter((e) => e.event === 'jobs.summary').map((e) => e.payload as JobsSummary);
  const attention = (f: Fresh) => f.events.filter((e) => e.event === 'jobs.attention').map((e) => (e.payload as { reason: string }).reason);

  function expectComplete(f: Fresh): void {
    expect(f.pipeline.queue.list({ states: ['failed'] }).map((j) => `${j.stage}: ${j.lastErrorMessage}`)).toEqual([]);
    expectFullyIndexed(f.db, CLIPS.length);
  }

  it('402 mid-run pauses every network stage with the quota banner; after the quota is raised and the user resumes, the run finishes', async () => {
    const f = await fresh({ keys: [`${TEST_KEY}::5`] }); // 5 billable calls, then 402
    f.pipeline.start();
    await waitUntil(() => f.pipeline.networkState().reason === 'quota', 30_000, 'the quota pause');
    await waitUntil(() => f.pipeline.queue.runningJobs().every((j) => j.resource !== 'network'), 5000, 'network jobs to stop');
    const banner = await f.handlers['jobs.summary']({}, ctx);
    expect(banner.network).toMatchObject({ open: false, reason: 'quota', configured: true });
    expect(banner.network.message).toMatch(/402|quota/i);
    expect(banner.etaMs).toBeNull();
    expect(attention(f)).toContain('quota');
    expect(summaries(f).some((s) => s.network.reason === 'quota')).toBe(true);
    const listed = await f.handlers['jobs.list']({ filter: 'active', offset: 0, limit: 50 }, ctx);
    expect(listed.clips.some((c) => c.state === 'blocked')).toBe(true);

    // Paused means paused: no billable call goes out, even after the quota is raised, until Resume.
    // (Status polls of tasks already submitted go on: they cost nothing and bring results in.)
    await sleep(300); // requests written before the pause reach the in-process emulator late
    const billable = () => f.emu.stats().requestLog.filter((r) => r.endpoint.startsWith('POST')).length;
    const sent = billable();
    await sleep(600);
    f.emu.admin.setKey({ key: TEST_KEY, quota: null });
    await sleep(600);
    expect(billable()).toBe(sent);
    expect(f.pipeline.networkState().reason).toBe('quota');
    expect(indexReport(f.db, TEST_PROFILE.id).indexedClips).toBeLessThan(CLIPS.length);

    const resumed = await f.handlers['jobs.resumeNetwork']({}, ctx);
    expect(resumed.open).toBe(true);
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run to finish');
    expectComplete(f);
    const st = f.emu.stats();
    expect(st.byEndpoint['POST /files/upload/tensors']?.statuses['402'] ?? st.byEndpoint['POST /video_embedding/encode_video/async']?.statuses['402']).toBeGreaterThan(0);
    expect(st.duplicateTensorUploads).toBe(0);
    expect(st.duplicateTaskSubmissions).toBe(0);
    expect(summaries(f).at(-1)!.network.open).toBe(true);
  }, 90_000);

  it('the service going away mid-run pauses network stages; when it is back on the same port the run finishes by itself', async () => {
    const f = await fresh();
    f.pipeline.start();
    await waitUntil(() => f.emu.stats().tensorUploads >= 2, 30_000, 'the first uploads');
    await f.emu.suspend();
    await waitUntil(() => f.pipeline.networkState().reasons.includes('offline'), 30_000, 'the offline pause');
    expect(attention(f)).toContain('offline');
    const during = await f.handlers['jobs.summary']({}, ctx);
    expect(during.network.reason).toBe('offline');
    await sleep(1500);
    expect(f.pipeline.networkState().reasons).toContain('offline');
    await f.emu.resume();
    // No user action from here on.
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run to finish');
    expectComplete(f);
    expect(f.pipeline.networkState().open).toBe(true);
    expect(f.emu.stats().conflictingTensorUploads).toBe(0);
  }, 90_000);

  it('413 halves the chunk into new segments until it fits; 429 only slows down', async () => {
    // Embedding uploads of the planned chunks are ~250 KB (mostly audio): 100 KB forces two splits.
    const f = await fresh({ maxBodyBytes: 100_000 });
    f.emu.admin.failNext({ status: 429, count: 4, endpoint: 'POST /video_tagging/async', retryAfterSeconds: 1 });
    f.pipeline.start();
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run to finish');
    expectComplete(f);
    const st = f.emu.stats();
    expect(st.byEndpoint['POST /files/upload/tensors']!.statuses['413']).toBeGreaterThan(0);
    expect(st.injected['429']).toBe(4);
    const parts = f.db.prepare("SELECT part FROM segments WHERE part <> ''").all() as { part: string }[];
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.some((p) => p.part.length >= 2)).toBe(true);
    // Split segments tile their chunk: no gaps or overlaps within a shot.
    const segs = f.db.prepare('SELECT shot_id, start_s, end_s FROM segments ORDER BY shot_id, start_s').all() as { shot_id: number; start_s: number; end_s: number }[];
    for (let i = 1; i < segs.length; i++) if (segs[i]!.shot_id === segs[i - 1]!.shot_id) expect(segs[i]!.start_s).toBeCloseTo(segs[i - 1]!.end_s, 3);
    expect(st.duplicateTensorUploads).toBe(0);
    expect(st.duplicateTaskSubmissions).toBe(0);
    const submit = f.pipeline.queue.list({ stages: ['submit'] });
    expect(submit.every((j) => j.state === 'done' && j.attempts === 0)).toBe(true);
  }, 90_000);

  it('401 stops network stages and asks for the key; a new key lets the run finish', async () => {
    const f = await fresh();
    f.service.setKey('rs-wrong-key-000000');
    f.pipeline.start();
    await waitUntil(() => f.pipeline.networkState().reason === 'auth', 30_000, 'the auth stop');
    expect(attention(f)).toContain('auth');
    expect(f.pipeline.networkState().message).toMatch(/401/);
    expect(f.emu.stats().tensorUploads).toBe(0);
    await sleep(500);
    expect(f.pipeline.networkState().reason).toBe('auth');
    f.service.setKey(TEST_KEY);
    f.pipeline.onSettingsChanged(); // what a settings.changed event does
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run to finish');
    expectComplete(f);
  }, 90_000);

  it('jobs failed by a storm of 500s run again by themselves once the service answers well, and the run finishes', async () => {
    const f = await fresh({ failureRates: { 500: 1 } }, { recoveryProbe: { initialMs: 200, maxMs: 1000 } });
    f.pipeline.start();
    // Every call answers 500: the network jobs spend their attempts and fail.
    await waitUntil(() => f.pipeline.queue.list({ states: ['failed'] }).length === CLIPS.length && f.pipeline.queue.runningJobs().length === 0, 90_000, 'every clip failed in the storm');
    expect(f.pipeline.queue.list({ states: ['failed'] }).every((j) => j.stage === 'upload' && j.lastErrorKind === 'server')).toBe(true);
    await sleep(1500);
    expect(f.pipeline.queue.list({ states: ['failed'] })).toHaveLength(CLIPS.length);
    // The storm passes; nobody presses Retry.
    f.emu.admin.setConfig({ failureRates: { 500: 0 } });
    await waitUntil(() => settled(f.pipeline) && f.pipeline.queue.list({ states: ['failed'] }).length === 0, 60_000, 'the run to finish by itself');
    expectComplete(f);
  }, 180_000);

  it('a validation failure (422) fails the job with the reason; retry finishes it', async () => {
    const f = await fresh();
    f.emu.admin.failNext({ status: 422, endpoint: 'POST /files/upload/tensors' });
    f.pipeline.start();
    await waitUntil(() => settled(f.pipeline), 60_000, 'the run to settle');
    const failed = f.pipeline.queue.list({ states: ['failed'] });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ stage: 'upload', lastErrorKind: 'invalid', attempts: 1 });
    expect(failed[0]!.lastErrorMessage).toMatch(/422/);
    const listed = await f.handlers['jobs.list']({ filter: 'failed', offset: 0, limit: 10 }, ctx);
    expect(listed.clips).toHaveLength(1);
    expect(listed.clips[0]!.errorMessage).toMatch(/422/);
    expect(indexReport(f.db, TEST_PROFILE.id).indexedClips).toBe(CLIPS.length - 1);
    expect((await f.handlers['jobs.retry']({ clipId: failed[0]!.clipId! }, ctx)).changed).toBe(1);
    await waitUntil(() => settled(f.pipeline), 60_000, 'the retried clip');
    expectComplete(f);
    expect(f.emu.stats().duplicateTensorUploads).toBe(0);
  }, 90_000);

  const submits = (f: Fresh) =>
    ['POST /video_embedding/encode_video/async', 'POST /video_tagging/async'].reduce((n, r) => n + (f.emu.stats().byEndpoint[r]?.statuses['200'] ?? 0), 0);
  const uploads = (f: Fresh) => f.emu.stats().byEndpoint['POST /files/upload/tensors']?.statuses['200'] ?? 0;
  const segments = (f: Fresh) => (f.db.prepare('SELECT COUNT(*) AS n FROM segments').get() as { n: number }).n;
  const losses = (f: Fresh) => (f.db.prepare('SELECT COALESCE(SUM(losses), 0) AS n FROM tensor_uploads').get() as { n: number }).n;

  it('a service that forgets every storage key and task mid-run: every clip ends indexed, at most one extra upload and submission per segment', async () => {
    const f = await fresh({ asyncPendingMs: 300, asyncProcessingMs: 300 });
    f.pipeline.start();
    // Forget everything once tasks are in flight (a restart of the service, keys expired).
    await waitUntil(() => submits(f) >= 4, 60_000, 'the first submissions');
    f.emu.admin.reset({ data: true });
    await waitUntil(() => settled(f.pipeline), 90_000, 'the run to finish');
    expectComplete(f);
    expect(losses(f)).toBeGreaterThan(0);
    const perService = segments(f) * 2;
    expect(uploads(f)).toBeLessThanOrEqual(2 * perService);
    expect(submits(f)).toBeLessThanOrEqual(2 * perService);
    expect((f.db.prepare('SELECT MAX(losses) AS n FROM tensor_uploads').get() as { n: number }).n).toBe(1);
  }, 120_000);

  it('a service that forgets the same segment twice fails its clip with the reason instead of sending it forever', async () => {
    const f = await fresh({ asyncPendingMs: 5000, asyncProcessingMs: 5000 });
    f.pipeline.start();
    await waitUntil(() => submits(f) >= 2, 60_000, 'the first submissions');
    f.emu.admin.reset({ data: true });
    const resent = () =>
      (f.db
        .prepare('SELECT COUNT(*) AS n FROM tensor_uploads u JOIN service_tasks t ON t.segment_id = u.segment_id AND t.kind = u.service AND t.region = u.region WHERE u.losses = 1 AND t.task_id IS NOT NULL')
        .get() as { n: number }).n;
    await waitUntil(() => resent() > 0, 60_000, 'a lost segment uploaded and submitted anew');
    f.emu.admin.reset({ data: true });
    await waitUntil(() => f.pipeline.queue.list({ states: ['failed'] }).length > 0, 60_000, 'a clip to fail');
    const failed = f.pipeline.queue.list({ states: ['failed'] })[0]!;
    expect(failed.lastErrorKind).toBe('not_found');
    expect(failed.lastErrorMessage).toMatch(/lost the .* again/);
    expect((await f.handlers['jobs.list']({ filter: 'failed', offset: 0, limit: 10 }, ctx)).clips[0]!.errorMessage).toMatch(/does not keep what it is sent/);
  }, 120_000);
});
