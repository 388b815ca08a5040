import { spawn } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { createCollectionStore } from '../../../src-main/core/collections/collection-store';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';
import { API_KEY, catalogue, harness, serviceClient, UPLOAD_ROUTE, waitFor } from './collections-fixture';

const CHILD = path.join(__dirname, 'collections-crash-child.ts');

describe('restart after a crash mid-upload (SIGKILL of the process doing the work)', () => {
  let emu: EmulatorHandle;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    emu = await startEmulator({ keys: [API_KEY], videoUploadedMs: 40, videoProcessingMs: 150 });
    tmp = tempDir('reelscout-collections-crash-');
  });
  afterAll(async () => {
    await emu?.close();
    tmp?.cleanup();
  });

  it('a video that got its video_id is never uploaded again; the one cut off before its answer is uploaded again, proxy reused', async () => {
    const catalog = path.join(tmp.dir, 'catalog.sqlite');
    const cacheDir = path.join(tmp.dir, 'cache');
    const uploads200 = () => emu.stats().byEndpoint[UPLOAD_ROUTE]?.statuses['200'] ?? 0;

    // The catalog as the user left it: two clips attached, nothing uploaded yet.
    const db = openCatalog(catalog);
    const [friday, flower] = await catalogue(db, [mediaFile('mdn_friday.mp4'), mediaFile('mdn_flower.webm')]);
    const store = createCollectionStore(db);
    const { collectionId } = await serviceClient(emu.url).createCollection('Crash reel');
    store.upsertCollection('asia', { id: collectionId, name: 'Crash reel' });
    store.attach('asia', collectionId, [friday!, flower!]);
    const row = (clipId: number) => store.row({ collectionId, region: 'asia', clipId })!;

    // One clip at a time: friday (direct) uploads and processes; then the webm transcodes and uploads.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, catalog, cacheDir, emu.url], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
    try {
      // The queue works clip after clip; friday's status rounds overlap the webm's transcode.
      await waitFor('the webm to start transcoding', () => row(flower!).status === 'transcoding' || (child.exitCode !== null && fail(stderr)), 60_000);
      await waitFor('friday processed', () => row(friday!).status === 'processed' || (child.exitCode !== null && fail(stderr)), 60_000);
      expect(row(friday!)).toMatchObject({ status: 'processed', uploads: 1 });
      // Hold every answer: the next upload goes out and waits for its answer, where the kill lands.
      emu.admin.setConfig({ latencyMs: 2500 });
      await waitFor('the webm upload to start', () => row(flower!).status === 'uploading', 60_000);
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGKILL');
      expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    emu.admin.setConfig({ latencyMs: 0 });

    const fridayVideo = row(friday!).videoId;
    expect(fridayVideo).toBeTruthy();
    expect(row(flower!)).toMatchObject({ status: 'uploading', videoId: null, uploads: 1, source: 'proxy' });
    const proxy = row(flower!).proxyPath!;
    expect(fs.existsSync(proxy)).toBe(true);
    expect(uploads200()).toBe(1);
    db.close();

    // Restart: the app opens the same catalog and picks up what was open.
    const h = harness({ catalog, cacheDir, url: emu.url });
    try {
      // The killed upload's job is in the durable queue again (crash recovery), so nothing is left for resume().
      expect(['queued', 'running']).toContain(h.queue.find(flower!, 'collection-upload')?.state);
      expect(h.module.resume()).toBe(0);
      await h.idle();
      const { videos } = await h.call('collections.videos', { collectionId });
      const f = videos.find((v) => v.clipId === friday)!;
      const w = videos.find((v) => v.clipId === flower)!;
      expect(f).toMatchObject({ status: 'processed', videoId: fridayVideo, uploads: 1 });
      expect(w).toMatchObject({ status: 'processed', source: 'proxy', uploads: 2 });
      // The finished proxy from before the crash was sent as it was: no second transcode.
      expect(h.seen.filter((e) => e.clipId === flower && e.status === 'transcoding')).toEqual([]);
      expect(fs.existsSync(proxy)).toBe(false);

      // What the service holds. The upload cut off by the kill may or may not have reached it (the
      // body was sent; the answer was not read): at most one extra copy, and only of the webm.
      await new Promise((r) => setTimeout(r, 3000)); // the held request ends one way or the other
      const total = uploads200();
      expect(total === 2 || total === 3).toBe(true);
      const hits = await serviceClient(emu.url).searchCollection(collectionId, 'flower', 100);
      const ids = hits.map((x) => x.videoId);
      expect(ids.filter((id) => id === fridayVideo)).toHaveLength(1);
      expect(ids).toContain(w.videoId);
      expect(hits).toHaveLength(total);
      const webmSimilarity = hits.find((x) => x.videoId === w.videoId)!.similarity;
      const fridaySimilarity = hits.find((x) => x.videoId === fridayVideo)!.similarity;
      expect(webmSimilarity).not.toBe(fridaySimilarity);
      for (const extra of hits.filter((x) => x.videoId !== fridayVideo && x.videoId !== w.videoId)) {
        expect(extra.similarity).toBe(webmSimilarity);
      }
    } finally {
      await h.close();
    }
  });
});

function fail(stderr: string): never {
  throw new Error(`the child exited early: ${stderr}`);
}
