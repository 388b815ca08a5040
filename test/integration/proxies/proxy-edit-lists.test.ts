import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { readPictureTimes } from '../../../src-main/core/media/probe';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { burntInNumbers } from '../../helpers/footage/burnt-in';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { makePlaybackFootage } from '../../helpers/footage/playback-footage';
import { callOk } from '../../helpers/app/app-call';
import { tempDir } from '../../helpers/paths';
import { x264Options } from '../../helpers/footage/x264-options';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-proxy-edit-lists-0123456789';

const probe = (file: string, args: string[]) => execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', ...args, file]).toString().trim();

/** Frames a decoder presents (the bundled ffprobe decoding the file, its edit list applied). */
const decodedFrames = (file: string) => Number(probe(file, ['-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0']));
/** Packets in the container, those an edit list hides included. */
const packets = (file: string) => Number(probe(file, ['-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0']));
/** The presented pictures' times (s) as the decoder stamps them. */
const decodedTimes = (file: string) => probe(file, ['-show_entries', 'frame=best_effort_timestamp_time', '-of', 'csv=p=0']).split('\n').map((l) => Number(l.replace(/,$/, '')));

/** Each video packet's size and checksum in file order: the coded pictures themselves. */
function packetHashes(file: string): string[] {
  const out = execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'framemd5', '-']).toString();
  return out.split('\n').filter((l) => /^\d+,/.test(l)).map((l) => l.split(',').slice(4).map((x) => x.trim()).join(' '));
}

/**
 * Small H.264 MP4/MOV originals get their picture copied into their proxy (proxies/proxy-picture.ts),
 * edit list and all, through the whole app (import, analysis decode, finishProxy): an MP4 whose
 * B-frames give it an encoder-delay edit, and a MOV trimmed with `-ss` and `-c copy`, which starts
 * at the keyframe before the cut and hides the pictures before it behind its edit. Each proxy must
 * present the original's pictures, from the same first one, at the same times, and count as many
 * frames as the catalog's frame_count (the analysis decode's) and the app's picture times.
 */
describe('a copied proxy of an original with an edit list', () => {
  const tmp = tempDir('rs-proxy-edit-lists-');
  const card = path.join(tmp.dir, 'card');
  let emu: EmulatorHandle;
  let app: WebApp;
  const call = <T = unknown>(m: MethodName, a: unknown): Promise<T> => callOk<T>(app.core, m, a);

  beforeAll(async () => {
    const [h264] = await makePlaybackFootage(undefined, ['h264-25']);
    fs.mkdirSync(card);
    fs.copyFileSync(h264!.file, path.join(card, 'bframes.mp4'));
    // 3 s in: the cut falls between the keyframes at 0 and 1.2 s (x264's -g 30 at 25 fps), so the copy starts at the one before it.
    execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', '-ss', '1.5', '-i', h264!.file, '-map', '0', '-c', 'copy', '-f', 'mov', path.join(card, 'trimmed.mov')]);
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000, proxies: 'always' });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [card] });
    const one = (sql: string) => (app.core.db.prepare(sql).get() as { n: number }).n;
    await waitUntil(() => one('SELECT COUNT(*) AS n FROM proxies') === 2 && one("SELECT COUNT(*) AS n FROM clips WHERE status = 'done'") === 2, 150_000, 'both clips indexed with their proxies');
  }, 200_000);

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('the MP4 carries B-frames (the trimmed MOV is its packets) and the trimmed MOV hides pictures behind its edit: the cases this test is about', () => {
    const trimmed = path.join(card, 'trimmed.mov');
    expect(x264Options(path.join(card, 'bframes.mp4')).get('bframes')).not.toBe('0');
    expect(packets(trimmed) - decodedFrames(trimmed)).toBeGreaterThan(0);
  });

  for (const name of ['bframes.mp4', 'trimmed.mov']) {
    it(`${name}: the proxy is its packets copied, presenting the original's pictures from the same first one at the same times, as many as the catalog counts`, async () => {
      const original = path.join(card, name);
      const row = app.core.db.prepare('SELECT c.frame_count, p.file, p.frames FROM clips c JOIN proxies p ON p.clip_id = c.id WHERE c.file_name = ?').get(name) as { frame_count: number; file: string; frames: number };
      const proxy = path.join(tmp.dir, 'data', 'cache', row.file);
      // Copied, not encoded: the coded pictures are the original's, the hidden ones too.
      expect(packetHashes(proxy)).toEqual(packetHashes(original));
      const frames = decodedFrames(original);
      // The catalog's frame count (the analysis decode's), the proxy's recorded frames and what a decoder presents of each: one number.
      expect({ catalog: row.frame_count, proxyRow: row.frames, proxy: decodedFrames(proxy) }).toEqual({ catalog: frames, proxyRow: frames, proxy: frames });
      // The same pictures from the same first one (the burnt-in frame numbers); the trimmed one starts past the keyframe.
      const shown = await burntInNumbers(original);
      expect(shown).toHaveLength(frames);
      expect(await burntInNumbers(proxy)).toEqual(shown);
      // The trimmed one's first is past the keyframe at frame 30 its copy starts from.
      if (name === 'trimmed.mov') expect(shown[0]).toBeGreaterThan(30);
      else expect(shown[0]).toBe(0);
      // At the same times, as the decoder stamps them and as the app reads them from the container.
      expect(decodedTimes(proxy)).toEqual(decodedTimes(original));
      const [inOriginal, inProxy] = [await readPictureTimes(original), await readPictureTimes(proxy)];
      expect(inOriginal).toHaveLength(frames);
      expect(inProxy).toEqual(inOriginal);
      expect(inOriginal![0]).toBe(decodedTimes(original)[0]);
    });
  }
});
