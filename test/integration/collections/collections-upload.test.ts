import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { API_KEY, catalogue, harness, serviceClient, UPLOAD_ROUTE, waitFor, type Harness } from './collections-fixture';
import { AppError } from '../../../src-shared/errors';

const MB = 1024 * 1024;

describe('collections against the emulator: attach, upload (direct and proxy), poll, map, search', () => {
  let emu: EmulatorHandle;
  let tmp: ReturnType<typeof tempDir>;
  let h: Harness;
  let ids: { friday: number; asl: number; flower: number; broken: number };
  let collectionId: string;

  const uploads200 = () => emu.stats().byEndpoint[UPLOAD_ROUTE]?.statuses['200'] ?? 0;

  beforeAll(async () => {
    emu = await startEmulator({ keys: [API_KEY], videoUploadedMs: 60, videoProcessingMs: 400 });
    tmp = tempDir('reelscout-collections-');
    // Not a video at all, named .mp4: it goes up as it is and the service fails it.
    const broken = path.join(tmp.dir, 'media', 'broken.mp4');
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, crypto.randomBytes(64 * 1024));
    h = harness({
      catalog: path.join(tmp.dir, 'catalog.sqlite'),
      cacheDir: path.join(tmp.dir, 'cache'),
      url: emu.url,
      // mdn_flower.mp4 is 1.1 MB: with the limit lowered to 1 MB the size rule sends a proxy.
      proxyThresholdBytes: 1 * MB,
    });
    const [friday, asl, flower, brk] = await catalogue(h.db, [mediaFile('mdn_friday.mp4'), mediaFile('intel_asl_thanks.mkv'), mediaFile('mdn_flower.mp4'), broken]);
    ids = { friday: friday!, asl: asl!, flower: flower!, broken: brk! };
  });

  afterAll(async () => {
    await h?.close();
    await emu?.close();
    tmp?.cleanup();
  });

  it('a service with no collections yet was still read: the list says when, and the cache answers next', async () => {
    const empty = await h.call('collections.list', { refresh: true });
    expect(empty).toMatchObject({ source: 'service', collections: [] });
    expect(empty.syncedAt).not.toBeNull();
    expect(await h.call('collections.list', { refresh: false })).toMatchObject({ source: 'cache', collections: [], syncedAt: empty.syncedAt });
  });

  it('creates a collection and lists it from the service, then from the cache while the service is down', async () => {
    const created = await h.call('collections.create', { name: 'Reel A', description: 'test reel' });
    collectionId = created.id;
    expect(created).toMatchObject({ name: 'Reel A', description: 'test reel', videos: 0 });
    const online = await h.call('collections.list', { refresh: true });
    expect(online.source).toBe('service');
    expect(online.collections.map((c) => c.id)).toContain(collectionId);

    await emu.suspend();
    try {
      const offline = await h.call('collections.list', { refresh: true });
      expect(offline.source).toBe('cache');
      expect(offline.error?.kind).toBe('offline');
      expect(offline.collections.find((c) => c.id === collectionId)).toMatchObject({ name: 'Reel A', description: 'test reel' });
    } finally {
      await emu.resume();
    }
  });

  it('attaches four clips: uploads finish, proxies where the rule says, statuses end processed or failed with a reason', async () => {
    const before = uploads200();
    const r = await h.call('collections.attach', { collectionId, clipIds: [ids.friday, ids.asl, ids.flower, ids.broken] });
    expect(r).toEqual({ queued: 4, already: 0, clipIds: [ids.friday, ids.asl, ids.flower, ids.broken] });
    await h.idle();

    const { videos } = await h.call('collections.videos', { collectionId });
    const byClip = new Map(videos.map((v) => [v.clipId, v]));
    expect(byClip.get(ids.friday)).toMatchObject({ status: 'processed', source: 'original', uploads: 1, progress: 1 });
    expect(byClip.get(ids.asl)).toMatchObject({ status: 'processed', source: 'proxy', uploads: 1 });
    expect(byClip.get(ids.flower)).toMatchObject({ status: 'processed', source: 'proxy', uploads: 1 });
    const broken = byClip.get(ids.broken)!;
    expect(broken).toMatchObject({ status: 'failed', source: 'original', errorKind: 'media' });
    expect(broken.errorMessage).toBeTruthy();
    expect(broken.videoId).toBeTruthy();

    // The mapping: one distinct video id per clip, and the service holds exactly these four.
    const videoIds = videos.map((v) => v.videoId);
    expect(new Set(videoIds).size).toBe(4);
    expect(uploads200() - before).toBe(4);
    const listed = (await serviceClient(emu.url).listCollections()).find((c) => c.id === collectionId);
    expect((listed?.raw as { video_count: number }).video_count).toBe(4);

    // Progress events for each step were pushed: transcoding, uploading, processing.
    const statusesOf = (clipId: number) => h.seen.filter((e) => e.clipId === clipId).map((e) => e.status);
    expect(statusesOf(ids.asl)).toEqual(expect.arrayContaining(['queued', 'transcoding', 'uploading', 'uploaded', 'processed']));
    expect(statusesOf(ids.friday)).not.toContain('transcoding');
    expect(h.seen.some((e) => e.clipId === ids.friday && e.status === 'uploading' && e.progress !== null && e.progress > 0)).toBe(true);
    expect(h.seen.some((e) => e.status === 'processing' && e.progress !== null && e.progress > 0 && e.progress < 1)).toBe(true);

    // Proxies leave the cache once the service has the video.
    const proxyDir = path.join(tmp.dir, 'cache', 'collection-proxies');
    expect(fs.existsSync(proxyDir) ? fs.readdirSync(proxyDir) : []).toEqual([]);

    const summary = (await h.call('collections.list', {})).collections.find((c) => c.id === collectionId);
    expect(summary).toMatchObject({ videos: 4, processed: 3, failed: 1, inFlight: 0 });
  });

  it('attaching the same clips again uploads nothing; re-attaching the failed one uploads it anew', async () => {
    const before = uploads200();
    const again = await h.call('collections.attach', { collectionId, clipIds: [ids.friday, ids.asl, ids.flower] });
    expect(again).toMatchObject({ queued: 0, already: 3 });
    const retry = await h.call('collections.attach', { collectionId, clipIds: [ids.broken] });
    expect(retry).toMatchObject({ queued: 1, already: 0 });
    await h.idle();
    expect(uploads200() - before).toBe(1);
    const row = (await h.call('collections.videos', { collectionId })).videos.find((v) => v.clipId === ids.broken);
    expect(row).toMatchObject({ status: 'failed', errorKind: 'media', uploads: 2 });
  });

  it('attaching a folder picks the catalogued clips under it', async () => {
    const second = await h.call('collections.create', { name: 'Folder reel' });
    const r = await h.call('collections.attach', { collectionId: second.id, folder: path.join(tmp.dir, 'media') });
    expect(r.clipIds).toEqual([ids.broken]);
    await expect(h.call('collections.attach', { collectionId: second.id, folder: tmp.dir + '/nope' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.call('collections.attach', { collectionId: 'unknown', clipIds: [ids.friday] })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.call('collections.attach', { collectionId: second.id, clipIds: [999_999] })).rejects.toMatchObject({ kind: 'not_found' });
    await h.idle();
  });

  it('collection search maps the service results back to clips; a video uploaded elsewhere stays unmapped', async () => {
    const r = await h.call('collections.search', { collectionId, text: 'bright colourful flower', topK: 10 });
    // Three processed videos can match (the broken one never processed).
    expect(r.results).toHaveLength(3);
    expect(r.unmapped).toBe(0);
    expect(new Set(r.results.map((x) => x.clipId))).toEqual(new Set([ids.friday, ids.asl, ids.flower]));
    expect(r.results.map((x) => x.rank)).toEqual([1, 2, 3]);
    const sims = r.results.map((x) => x.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(r.results.find((x) => x.clipId === ids.asl)?.fileName).toBe('intel_asl_thanks.mkv');

    // An upload from outside this catalog is in the collection but maps to no clip.
    const outside = serviceClient(emu.url);
    const { videoId } = await outside.uploadVideoToCollection(collectionId, mediaFile('mdn_bug_video_640.mp4'));
    await outside.pollVideoStatus(videoId, { initialDelayMs: 50, maxDelayMs: 100 });
    const r2 = await h.call('collections.search', { collectionId, text: 'bright colourful flower', topK: 2 });
    expect(r2.results.length).toBe(2);
    const all = await h.call('collections.search', { collectionId, text: 'bright colourful flower', topK: 10 });
    expect(all.unmapped).toBe(1);
    expect(all.results.find((x) => x.videoId === videoId)).toMatchObject({ clipId: null, fileName: null });
  });

  it('an upload that meets an unreachable service waits with the reason and carries on by itself when it is back', async () => {
    const col = await h.call('collections.create', { name: 'Offline reel' });
    await emu.suspend();
    let resumed = false;
    try {
      await h.call('collections.attach', { collectionId: col.id, clipIds: [ids.friday] });
      const key = { collectionId: col.id, region: 'asia', clipId: ids.friday };
      await waitFor('the offline reason on the row', () => h.module.store.row(key)?.errorKind === 'offline');
      expect(h.module.store.row(key)).toMatchObject({ status: 'queued', videoId: null });
      await emu.resume();
      resumed = true;
      // Nothing to do meanwhile: the queue's offline block lifts on the network watch's next probe.
      await waitFor('the upload to carry on by itself', () => h.module.store.row(key)?.status === 'processed', 30_000);
      await h.idle();
      expect(h.module.store.row(key)).toMatchObject({ status: 'processed', errorKind: null, errorMessage: null });
    } finally {
      if (!resumed) await emu.resume();
    }
  });

  it('search needs the service: offline it fails with kind offline', async () => {
    await emu.suspend();
    try {
      await expect(h.call('collections.search', { collectionId, text: 'red', topK: 3 })).rejects.toMatchObject({ kind: 'offline' });
    } finally {
      await emu.resume();
    }
  });

  it('a collection the service no longer lists stays with its clips and shows as gone from the service (last: it wipes the service)', async () => {
    const before = (await h.call('collections.list', { refresh: true })).collections.find((c) => c.id === collectionId)!;
    expect(before).toMatchObject({ goneAt: null });
    expect(before.videos).toBeGreaterThan(0);
    emu.admin.reset({ data: true }); // the service lost every collection (a reset on its side)
    const after = await h.call('collections.list', { refresh: true });
    expect(after.source).toBe('service');
    const gone = after.collections.find((c) => c.id === collectionId)!;
    expect(gone.goneAt).not.toBeNull();
    expect(gone.videos).toBe(before.videos);
    // A collection with nothing attached here simply leaves the list.
    expect(after.collections.every((c) => c.goneAt !== null)).toBe(true);
  });
});

describe('collections without a configured service', () => {
  it('attach keeps the rows queued and writes why on each (no key), the list falls back to the empty cache', async () => {
    const tmp = tempDir('reelscout-collections-nokey-');
    const h = harness({
      catalog: path.join(tmp.dir, 'catalog.sqlite'),
      cacheDir: path.join(tmp.dir, 'cache'),
      url: 'http://127.0.0.1:9',
      client: () => {
        throw new AppError('auth', 'no API key is set (Settings)');
      },
    });
    try {
      const list = await h.call('collections.list', { refresh: true });
      expect(list).toMatchObject({ source: 'cache', collections: [], syncedAt: null, error: { kind: 'auth' } });
      await expect(h.call('collections.create', { name: 'x' })).rejects.toMatchObject({ kind: 'auth' });
      const [clip] = await catalogue(h.db, [mediaFile('mdn_friday.mp4')]);
      h.module.store.upsertCollection('asia', { id: 'cached', name: 'Cached' });
      await h.call('collections.attach', { collectionId: 'cached', clipIds: [clip!] });
      await h.idle();
      const [row] = (await h.call('collections.videos', { collectionId: 'cached' })).videos;
      expect(row).toMatchObject({ status: 'queued', errorKind: 'auth', errorMessage: 'no API key is set (Settings)', uploads: 0 });
    } finally {
      await h.close();
      tmp.cleanup();
    }
  });
});
