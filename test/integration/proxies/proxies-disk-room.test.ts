import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { tempDir } from '../../helpers/paths';
import { mountSmallDisk, unmountSmallDisk } from '../../helpers/app/small-disk';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-proxy-room-0123456789';

/**
 * A data folder on a disk too small for proxies (a 300 MiB tmpfs, under the 1 GiB proxies leave
 * free): a ProRes clip still indexes completely, no proxy is started (so none can fill the disk half
 * way), Settings says why new proxies wait, and the viewer is told what it cannot play and why.
 */
describe('proxies on a disk without room for them', () => {
  const tmp = tempDir('rs-proxy-room-');
  const data = path.join(tmp.dir, 'data');
  let mounted = false;
  let emu: EmulatorHandle | undefined;
  let app: WebApp | undefined;

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    if (mounted) unmountSmallDisk(data);
    tmp.cleanup();
  });

  it('stops proxies with a message and loses nothing else', async (ctx) => {
    const why = mountSmallDisk(data, 300);
    if (why) ctx.skip(why);
    mounted = true;
    const footage = path.join(tmp.dir, 'card');
    fs.mkdirSync(footage);
    execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=480x270:rate=25:duration=2', '-c:v', 'prores_ks', '-profile:v', '3', path.join(footage, 'A001.mov')]);
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: data, rendererDir: renderer });
    const call = async <T = unknown>(m: MethodName, a: unknown): Promise<T> => {
      const env = await app!.core.dispatch(m, a, { transport: 'test' });
      if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
      return env.value as T;
    };
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000 });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [footage] });
    const db = app.core.db;
    await waitUntil(() => (db.prepare('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL').get() as { n: number }).n === 1, 60_000, 'the clip indexed');
    expect(db.prepare("SELECT stage, last_error_message FROM jobs WHERE state = 'failed'").all()).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM proxies').get()).toEqual({ n: 0 });
    expect(fs.existsSync(path.join(data, 'cache', 'proxies')) ? fs.readdirSync(path.join(data, 'cache', 'proxies')) : []).toEqual([]);
    const space = await call<{ stopped: string | null; count: number }>('playback.proxySpace', {});
    expect(space.count).toBe(0);
    expect(space.stopped).toMatch(/New proxies wait for room: .* free/);
    const id = (db.prepare('SELECT id FROM clips').get() as { id: number }).id;
    // Its proxy waits for room; meanwhile the viewer plays a preview stream of the window watched.
    expect(await call('playback.get', { clipId: id })).toMatchObject({ source: 'stream', offline: false, proxy: 'pending', why: expect.stringMatching(/ProRes/) });
  }, 120_000);
});
