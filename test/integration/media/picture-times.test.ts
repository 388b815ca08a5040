import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import { readPictureTimes } from '../../../src-main/core/media/probe';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';
import { tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-picture-times-0123456789';

/**
 * A conformed (VFR) clip's presentation times through the whole app (issue 37): read once from the
 * container when the viewer asks (`playback.pictureTimes`), kept in the catalog (migration 0057),
 * equal to the times the clip was made with and to its proxy's; read from the proxy while the
 * original is away; none for a clip counted at its own rate.
 */
describe('the picture times of a conformed clip', () => {
  const tmp = tempDir('rs-picture-times-');
  const card = path.join(tmp.dir, 'card');
  let emu: EmulatorHandle;
  let app: WebApp;
  let phone: PlaybackClip;
  const ids: Record<string, number> = {};
  const call = async <T = unknown>(m: MethodName, a: unknown): Promise<T> => {
    const env = await app.core.dispatch(m, a, { transport: 'test' });
    if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
    return env.value as T;
  };
  const times = (name: string) => call<{ times: number[] | null }>('playback.pictureTimes', { clipId: ids[name]! }).then((r) => r.times);
  const kept = () => app.core.db.prepare('SELECT COUNT(*) AS n FROM picture_times').get() as { n: number };

  beforeAll(async () => {
    const clips = await makePlaybackFootage(undefined, ['h264-vfr-phone', 'h264-25']);
    phone = clips.find((c) => c.vfr)!;
    fs.mkdirSync(card);
    for (const c of clips) fs.copyFileSync(c.file, path.join(card, `${c.name}.mp4`));
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000, proxies: 'always' });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [card] });
    for (const c of (await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name' })).items) ids[c.name] = c.id;
    const one = (sql: string) => (app.core.db.prepare(sql).get() as { n: number }).n;
    await waitUntil(() => one('SELECT COUNT(*) AS n FROM proxies') === clips.length, 150_000, 'both clips indexed with their proxies');
  }, 200_000);

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('reads the VFR clip its times once, as it was made, and its proxy holds the same', async () => {
    expect(kept().n).toBe(0);
    const read = (await times('h264-vfr-phone.mp4'))!;
    expect(read.map((t) => Math.round(t * 90000))).toEqual(phone.ptsSeconds!.map((t) => Math.round(t * 90000)));
    expect(read.every((t, i) => Math.abs(t - phone.ptsSeconds![i]!) < 1e-9)).toBe(true);
    expect(kept().n).toBe(1);
    const proxy = app.core.db.prepare('SELECT file FROM proxies WHERE clip_id = ?').get(ids['h264-vfr-phone.mp4']!) as { file: string };
    const inProxy = (await readPictureTimes(path.join(tmp.dir, 'data', 'cache', proxy.file)))!;
    // Every time the proxy holds is the original's, exactly. The bundled ffmpeg 4.1 gives the last
    // packet on the fine clock no duration and the MP4 edit list ends at its start, depending on
    // where the keyframes fall (here it does: 89 of 90 read back): a known shortfall, see the README.
    expect(inProxy.length).toBeGreaterThanOrEqual(read.length - 1);
    expect(inProxy).toEqual(read.slice(0, inProxy.length));
    // A constant-rate clip's frames are its pictures: no times asked or kept.
    expect(await times('h264-25.mp4')).toBeNull();
    expect(kept().n).toBe(1);
  });

  it('with the original away, reads them from the proxy', async () => {
    const before = await times('h264-vfr-phone.mp4');
    app.core.db.prepare('DELETE FROM picture_times').run();
    fs.renameSync(card, `${card}-away`);
    try {
      const fromProxy = (await times('h264-vfr-phone.mp4'))!;
      expect(fromProxy.length).toBeGreaterThanOrEqual(before!.length - 1);
      expect(fromProxy).toEqual(before!.slice(0, fromProxy.length));
    } finally {
      fs.renameSync(`${card}-away`, card);
    }
    expect(kept().n).toBe(1);
  });
});
