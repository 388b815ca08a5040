import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WebApp } from '../../../../src-main/web/web-app';
import type { CollectionSummary, CollectionVideo } from '../../../../src-shared/contract/collections';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { joinedWebApps } from '../../../helpers/team/team-web-apps';

const KEY = 'team-collections-key';
const CLIPS = ['mdn_friday.mp4', 'mdn_bug_video_640.mp4', 'intel_bottle-detection.mp4'];
const [X, Y, Z] = CLIPS as [string, string, string];

/**
 * The service's collections shared by two seats of a team library: two app cores (web mode, their own
 * catalogs, the same folder through two paths), one PostgreSQL, one service (the team's one key). What a
 * seat adds to a collection is listed by the other; a clip two seats add to one collection is uploaded
 * once; a removal reaches the other seat; an add made while the server is away is sent when it is back.
 */
describeWithPostgres('team library: two seats share the service\'s collections', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  const apps: WebApp[] = [];
  const tmp = tempDir('rs-team-collections-');
  let a: WebApp;
  let b: WebApp;

  const clipOf = (app: WebApp, file: string) => (app.core.db.prepare('SELECT id FROM clips WHERE file_name = ?').get(file) as { id: number }).id;
  const videos = async (app: WebApp, collectionId: string) => (await callOk<{ videos: CollectionVideo[] }>(app.core, 'collections.videos', { collectionId })).videos;
  const videoOf = async (app: WebApp, collectionId: string, file: string) => (await videos(app, collectionId)).find((v) => v.clipId === clipOf(app, file));
  /** The service's own count of the videos in a collection (the emulator's list). */
  const serviceCount = async (collectionId: string) => {
    const list = (await (await fetch(`${emu.url}/collections`, { headers: { 'x-api-key': KEY } })).json()) as { id: string; video_count: number }[];
    return list.find((c) => c.id === collectionId)?.video_count ?? 0;
  };
  /** Waits until `done()` holds, or fails after `ms` saying what it waited for (a bound, not a timing assertion); returns the wait. */
  async function until(what: string, done: () => Promise<boolean>, ms = 20_000): Promise<number> {
    const t0 = Date.now();
    while (!(await done())) {
      if (Date.now() - t0 > ms) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(25);
    }
    return Date.now() - t0;
  }
  async function collection(name: string): Promise<string> {
    const c = await callOk<CollectionSummary>(a.core, 'collections.create', { name });
    // the team shares one key: B lists the same collections from the service
    await callOk(b.core, 'collections.list', { refresh: true });
    return c.id;
  }

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    emu = await startEmulator({ keys: [KEY], taskIds: 'upload-request-id', videoUploadedMs: 50, videoProcessingMs: 200 });
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    for (const c of CLIPS) fs.copyFileSync(mediaFile(c), path.join(footage, c));
    const { apps: joined, mounts } = await joinedWebApps({ dir: tmp.dir, cluster, emulatorUrl: emu.url, apiKey: KEY, footage, names: ['A', 'B'], teamLeaseMs: 6000 });
    apps.push(...joined);
    [a, b] = apps as [WebApp, WebApp];
    await Promise.all(apps.map((app, i) => callOk(app.core, 'library.import', { paths: [mounts[i]] })));
    // Each seat links its clips to the team's (by fingerprint) before their analysis.
    const linked = (app: WebApp) => (app.core.db.prepare('SELECT COUNT(*) AS n FROM team_clips').get() as { n: number }).n === CLIPS.length;
    await until('both seats to link every clip', async () => apps.every(linked), 120_000);
  }, 180_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await emu?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('A adds a clip to a collection: B lists it with the one video the team uploaded; B adding it uploads nothing', async () => {
    const c = await collection('Selects');
    await callOk(a.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(a, X)] });
    const listedMs = await until('B to list X in C', async () => (await videoOf(b, c, X)) !== undefined);
    console.info(`team-collections: A's add listed by B after ${listedMs} ms`);
    await until('both seats to hold the video as processed', async () => [await videoOf(a, c, X), await videoOf(b, c, X)].every((v) => v?.status === 'processed'), 60_000);
    // B's add of the same clip: already in the collection, nothing sent
    expect(await callOk(b.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(b, X)] })).toMatchObject({ queued: 0, already: 1 });
    await sleep(500);
    const [va, vb] = [(await videoOf(a, c, X))!, (await videoOf(b, c, X))!];
    expect(vb.videoId).toBe(va.videoId);
    // One upload for the team. Which seat sends it is the claim's race (B hears of A's add from the feed and may
    // claim first while A's upload stage is busy), so only the sum is the team's promise.
    expect(va.uploads + vb.uploads).toBe(1);
    expect(await serviceCount(c)).toBe(1);
  }, 90_000);

  it('both seats add one clip to one collection at the same moment: it is uploaded once, the other seat takes its video', async () => {
    const c = await collection('Both at once');
    await Promise.all([a, b].map((app) => callOk(app.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(app, Y)] })));
    await until('both seats to hold a processed video', async () => [await videoOf(a, c, Y), await videoOf(b, c, Y)].every((v) => v?.status === 'processed'), 60_000);
    const [va, vb] = [(await videoOf(a, c, Y))!, (await videoOf(b, c, Y))!];
    expect(vb.videoId).toBe(va.videoId);
    expect(va.uploads + vb.uploads).toBe(1);
    expect(await serviceCount(c)).toBe(1);
  }, 90_000);

  it('a removal on A reaches B; the service keeps the video', async () => {
    const c = await collection('Removed');
    await callOk(a.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(a, X)] });
    await until('B to list X', async () => (await videoOf(b, c, X))?.status === 'processed', 60_000);
    expect(await callOk(a.core, 'collections.remove', { collectionId: c, clipIds: [clipOf(a, X)] })).toEqual({ removed: 1 });
    expect(await videoOf(a, c, X)).toBeUndefined();
    await until('B to drop X', async () => (await videoOf(b, c, X)) === undefined);
    const summary = (await callOk<{ collections: CollectionSummary[] }>(b.core, 'collections.list', {})).collections.find((s) => s.id === c);
    expect(summary?.videos).toBe(0);
    expect(await serviceCount(c)).toBe(1);
    // B adds it again: a later add wins over the removal on both seats, and the service's video is kept (no upload)
    await callOk(b.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(b, X)] });
    await until('A to list X again', async () => (await videoOf(a, c, X)) !== undefined);
    expect(await serviceCount(c)).toBe(1);
  }, 90_000);

  it('the server stopped while A adds a clip: A uploads it alone, and B lists it with that video once the server is back', async () => {
    const c = await collection('Offline add');
    await cluster.pause();
    try {
      await callOk(a.core, 'collections.attach', { collectionId: c, clipIds: [clipOf(a, Z)] });
      await until('A to upload Z without the team', async () => (await videoOf(a, c, Z))?.videoId != null, 60_000);
      expect(await videoOf(b, c, Z)).toBeUndefined();
    } finally {
      await cluster.resume();
    }
    await until('B to list Z with A\'s video', async () => (await videoOf(b, c, Z))?.videoId === (await videoOf(a, c, Z))!.videoId, 60_000);
    await until('B to hold it processed', async () => (await videoOf(b, c, Z))?.status === 'processed', 60_000);
    expect((await videoOf(b, c, Z))!.uploads).toBe(0);
    expect(await serviceCount(c)).toBe(1);
  }, 150_000);
});
