import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { Playback } from '../../../src-shared/contract/playback';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-proxies-0123456789';

/** Short clips in the codecs editors shoot (none of which the player decodes), and one it does. */
const CLIPS: Record<string, { args: string[]; native: boolean }> = {
  'A001_prores.mov': { args: ['-c:v', 'prores_ks', '-profile:v', '3', '-c:a', 'pcm_s24le', '-timecode', '01:00:00:00'], native: false },
  'B001_dnxhr.mxf': { args: ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', 'yuv422p', '-c:a', 'pcm_s16le'], native: false },
  'C001_422_10bit.mov': { args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv422p10le', '-c:a', 'aac'], native: false },
  'D001_mjpeg.avi': { args: ['-c:v', 'mjpeg', '-q:v', '5', '-c:a', 'pcm_s16le'], native: false },
  'E001_h264.mp4': { args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'], native: true },
};

function videoStream(file: string): { codec_name: string; pix_fmt: string; height: number; nb_read_packets: string } {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=codec_name,pix_fmt,height,nb_read_packets', '-of', 'json', file]);
  return (JSON.parse(out.toString()) as { streams: ReturnType<typeof videoStream>[] }).streams[0]!;
}

/**
 * Issue 37's proxies through the whole app (web mode, the emulator as the service): the analysis
 * decode of each clip the player cannot decode also writes its proxy, frame for frame; the viewer
 * is told to play it; with the footage folder renamed away every clip with a proxy still plays and
 * says the original is offline; back, the original is preferred at once. 'always' makes the
 * missing proxies in the background.
 */
describe('viewing proxies made in the one decode', () => {
  const tmp = tempDir('rs-proxies-');
  const footage = path.join(tmp.dir, 'card');
  const away = path.join(tmp.dir, 'card-away');
  let emu: EmulatorHandle;
  let app: WebApp;
  const ids: Record<string, number> = {};
  const call = async <T = unknown>(m: MethodName, a: unknown): Promise<T> => {
    const env = await app.core.dispatch(m, a, { transport: 'test' });
    if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
    return env.value as T;
  };
  const playback = (name: string) => call<Playback>('playback.get', { clipId: ids[name]! });
  const proxyRow = (name: string) => app.core.db.prepare('SELECT file, frames, bytes FROM proxies WHERE clip_id = ?').get(ids[name]!) as { file: string; frames: number; bytes: number } | undefined;

  beforeAll(async () => {
    fs.mkdirSync(footage);
    for (const [name, c] of Object.entries(CLIPS)) {
      // 3 s at 25 fps with a cut at 1.5 s (two shots) and a tone.
      execFileSync(footageFfmpeg(), [
        '-hide_banner', '-loglevel', 'error', '-y',
        '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=1.5', '-f', 'lavfi', '-i', 'mandelbrot=size=640x360:rate=25',
        '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3:sample_rate=48000',
        '-filter_complex', '[1:v]trim=duration=1.5,setpts=PTS-STARTPTS[b];[0:v][b]concat=n=2:v=1,format=yuv422p[v]',
        '-map', '[v]', '-map', '2:a', ...c.args, '-shortest', path.join(footage, name),
      ]);
    }
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000 });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [footage] });
    for (const c of (await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name' })).items) ids[c.name] = c.id;
    const one = (sql: string) => (app.core.db.prepare(sql).get() as { n: number }).n;
    await waitUntil(() => one('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL') === Object.keys(CLIPS).length, 150_000, 'every clip indexed');
  }, 200_000);

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  it('writes a 540p-or-smaller H.264 proxy with every frame of each clip the player cannot decode, and none for the one it can', async () => {
    for (const [name, c] of Object.entries(CLIPS)) {
      const row = proxyRow(name);
      if (c.native) {
        expect(row, name).toBeUndefined();
        expect(await playback(name)).toMatchObject({ source: 'original', offline: false, proxy: 'none' });
        continue;
      }
      expect(row, name).toBeDefined();
      const served = await app.core.resolveMedia({ kind: 'proxy', clipId: ids[name]! });
      expect(served, name).not.toBeNull();
      await served!.handle.close();
      expect(served!.contentType).toBe('video/mp4');
      const proxy = videoStream(served!.real);
      const original = videoStream(path.join(footage, name));
      expect(proxy).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
      expect(proxy.height).toBeLessThanOrEqual(540);
      // Frame for frame: the same count as the original's packets and as the catalog's decoded count.
      expect(Number(proxy.nb_read_packets), name).toBe(Number(original.nb_read_packets));
      expect(row!.frames).toBe(Number(original.nb_read_packets));
      const clip = await call<{ frameCount: number }>('library.get', { clipId: ids[name]! });
      expect(row!.frames, name).toBe(clip.frameCount);
      const p = await playback(name);
      expect(p, name).toMatchObject({ source: 'proxy', offline: false, proxy: 'ready', proxyFrames: row!.frames });
      expect(p.why, name).toMatch(/the player (does not decode|cannot open)/);
    }
    // A proxy emptied since it was written is refused (the viewer then says why instead of showing black).
    const row = proxyRow('B001_dnxhr.mxf')!;
    const file = path.join(tmp.dir, 'data', 'cache', row.file);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, '');
    expect(await app.core.resolveMedia({ kind: 'proxy', clipId: ids['B001_dnxhr.mxf']! })).toBeNull();
    // Until it is made again, a preview stream of the window watched plays, served by the media route like a proxy.
    const dnxhr = ids['B001_dnxhr.mxf']!;
    expect(await playback('B001_dnxhr.mxf')).toMatchObject({ source: 'stream', proxy: 'pending', why: expect.stringMatching(/DNxHD\/DNxHR|MXF/) });
    // The window after the 1 s head at 0 (frames 25-74, the clip's end), not a window main makes (frames 5-29) refused.
    expect(await app.core.resolveMedia({ kind: 'stream', clipId: dnxhr, from: 5, to: 30 })).toBeNull();
    const stream = await app.core.resolveMedia({ kind: 'stream', clipId: dnxhr, from: 25, to: 75 });
    expect(stream?.contentType).toBe('video/mp4');
    await stream!.handle.close();
    expect(videoStream(stream!.real)).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', nb_read_packets: '50' });
    // Only for a clip whose playback is a stream: a native clip or one with its proxy is never transcoded.
    expect(await app.core.resolveMedia({ kind: 'stream', clipId: ids['E001_h264.mp4']!, from: 0, to: 25 })).toBeNull();
    await call('playback.stopStream', { clipId: dnxhr });
    expect(fs.readdirSync(path.join(tmp.dir, 'data', 'cache', 'streams'))).toEqual([]);
    fs.writeFileSync(file, bytes);
    // No .part file is left behind.
    expect(fs.readdirSync(path.join(tmp.dir, 'data', 'cache', 'proxies')).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('plays the proxies with the footage folder away, says the original is offline, and prefers the original once it is back', async () => {
    fs.renameSync(footage, away);
    try {
      for (const [name, c] of Object.entries(CLIPS)) {
        const p = await playback(name);
        if (c.native) expect(p, name).toMatchObject({ source: 'none', offline: true });
        else expect(p, name).toMatchObject({ source: 'proxy', offline: true, why: expect.stringMatching(/no longer at/) });
      }
      expect(await app.core.resolveMedia({ kind: 'clip', clipId: ids['A001_prores.mov']! })).toBeNull();
      const served = await app.core.resolveMedia({ kind: 'proxy', clipId: ids['A001_prores.mov']! });
      expect(served).not.toBeNull();
      await served!.handle.close();
    } finally {
      fs.renameSync(away, footage);
    }
    expect(await playback('E001_h264.mp4')).toMatchObject({ source: 'original', offline: false });
    expect(await playback('A001_prores.mov')).toMatchObject({ source: 'proxy', offline: false });
  });

  it('"always" makes the missing proxy in the background, pausable as one from Jobs, and the original still plays first', async () => {
    await call('settings.update', { proxies: 'always' });
    // Paused as the background lane (what Jobs' Pause sends) while its one job waits or runs.
    expect(await call<{ changed: number }>('jobs.pause', { background: 'proxy' })).toEqual({ changed: 1 });
    const lane = async () => (await call<{ background: { stage: string; paused: number; queued: number; running: number }[] }>('jobs.summary', {})).background;
    // A running job is stopped (its ffmpeg killed) and parked: paused once its run has settled.
    await waitUntil(() => (app.core.db.prepare("SELECT state FROM jobs WHERE stage = 'proxy'").get() as { state: string }).state === 'paused', 10_000, 'the proxy job paused');
    expect(await lane()).toEqual([{ stage: 'proxy', queued: 0, running: 0, paused: 1, failed: 0 }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(proxyRow('E001_h264.mp4')).toBeUndefined();
    expect(await call<{ changed: number }>('jobs.resume', { background: 'proxy' })).toEqual({ changed: 1 });
    await waitUntil(() => proxyRow('E001_h264.mp4') !== undefined, 60_000, 'the background proxy');
    const job = app.core.db.prepare("SELECT state FROM jobs WHERE clip_id = ? AND stage = 'proxy'").get(ids['E001_h264.mp4']!) as { state: string };
    expect(job.state).toBe('done');
    expect(await lane()).toEqual([]);
    const frames = Number(videoStream(path.join(footage, 'E001_h264.mp4')).nb_read_packets);
    expect(proxyRow('E001_h264.mp4')!.frames).toBe(frames);
    expect(await playback('E001_h264.mp4')).toMatchObject({ source: 'original', proxy: 'ready', proxyFrames: frames });
    const space = await call<{ count: number; bytes: number }>('playback.proxySpace', {});
    expect(space.count).toBe(Object.keys(CLIPS).length);
    expect(space.bytes).toBeGreaterThan(0);
  }, 90_000);
});
