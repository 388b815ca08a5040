import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcodeProxy } from '../../../src-main/core/collections/proxy-transcode';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { processesUsing } from '../../helpers/app/processes';
import { API_KEY, catalogue, harness, UPLOAD_ROUTE, waitFor } from './collections-fixture';

function probe(file: string): { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { format_name: string } } {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file]);
  return JSON.parse(out.toString('utf8')) as ReturnType<typeof probe>;
}

describe('proxy transcode', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir('reelscout-proxy-');
  });
  afterAll(() => tmp?.cleanup());

  it('turns a VP8/Vorbis webm into an H.264/AAC mp4 with progress up to 1', async () => {
    const out = path.join(tmp.dir, 'flower.mp4');
    const progress: number[] = [];
    // ffmpeg reports progress every half second of its own work: a 5 s clip can be done before the
    // first report on a quiet machine, so the clip is played six times over (copied, no decode).
    const input = path.join(tmp.dir, 'flower x6.webm');
    execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-stream_loop', '5', '-i', mediaFile('mdn_flower.webm'), '-c', 'copy', input]);
    const started = Date.now();
    await transcodeProxy({ ffmpeg: ffPath('ffmpeg'), input, output: out, durationS: 6 * 5.059, onProgress: (f) => progress.push(f) });
    const tookMs = Date.now() - started;
    const p = probe(out);
    expect(p.format.format_name).toContain('mp4');
    const v = p.streams.find((s) => s.codec_type === 'video')!;
    expect(v.codec_name).toBe('h264');
    expect([v.width, v.height]).toEqual([960, 540]);
    expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1]!))).toBe(true);
    // Reports come each half second of ffmpeg's work: a transcode that lasted a second has one in between.
    if (tookMs > 1000) expect(progress.some((f) => f > 0 && f < 1)).toBe(true);
    expect(fs.readdirSync(tmp.dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('caps the height at 720 lines and keeps both sides even (odd 1081-line source, no audio)', async () => {
    const src = path.join(tmp.dir, 'tall.mkv');
    execFileSync(ffPath('ffmpeg'), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=1921x1081:rate=5:duration=0.4', '-c:v', 'ffv1', src]);
    const out = path.join(tmp.dir, 'tall.mp4');
    await transcodeProxy({ ffmpeg: ffPath('ffmpeg'), input: src, output: out, durationS: 0.4 });
    const p = probe(out);
    const v = p.streams.find((s) => s.codec_type === 'video')!;
    expect(v.height).toBe(720);
    expect(v.width! % 2).toBe(0);
    expect(Math.abs(v.width! - Math.round((1921 * 720) / 1081))).toBeLessThanOrEqual(2);
    expect(p.streams.some((s) => s.codec_type === 'audio')).toBe(false);
  });

  it('an unreadable input fails as media with ffmpeg\'s reason and leaves no file', async () => {
    const bad = path.join(tmp.dir, 'bad.webm');
    fs.writeFileSync(bad, Buffer.alloc(4096, 7));
    const out = path.join(tmp.dir, 'bad.mp4');
    await expect(transcodeProxy({ ffmpeg: ffPath('ffmpeg'), input: bad, output: out, durationS: null })).rejects.toMatchObject({ kind: 'media', message: expect.stringMatching(/bad\.webm/) });
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(tmp.dir).filter((f) => f.startsWith('bad.mp4'))).toEqual([]);
  });

  it('cancelling kills ffmpeg and removes the partial file', async () => {
    const out = path.join(tmp.dir, 'long.mp4');
    const ac = new AbortController();
    let sawRunning = 0;
    const run = transcodeProxy({
      ffmpeg: ffPath('ffmpeg'),
      input: mediaFile('mdn_tears-of-steel-battle-clip-medium.webm'),
      output: out,
      durationS: 70.5,
      signal: ac.signal,
      onProgress: (f) => {
        if (f > 0 && !ac.signal.aborted) {
          sawRunning = processesUsing(out).length;
          ac.abort();
        }
      },
    });
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    expect(sawRunning).toBe(1);
    await waitFor('ffmpeg to exit', () => processesUsing(out).length === 0, 5000);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(tmp.dir).filter((f) => f.startsWith('long.mp4'))).toEqual([]);
  });
});

describe('collections.cancel during a proxy transcode', () => {
  let emu: EmulatorHandle;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    emu = await startEmulator({ keys: [API_KEY], videoUploadedMs: 20, videoProcessingMs: 100 });
    tmp = tempDir('reelscout-collections-cancel-');
  });
  afterAll(async () => {
    await emu?.close();
    tmp?.cleanup();
  });

  it('stops ffmpeg, uploads nothing, marks the row cancelled; re-attaching queues it again', async () => {
    const h = harness({ catalog: path.join(tmp.dir, 'catalog.sqlite'), cacheDir: path.join(tmp.dir, 'cache'), url: emu.url });
    try {
      const [clipId] = await catalogue(h.db, [mediaFile('mdn_tears-of-steel-battle-clip-medium.webm')]);
      const col = await h.call('collections.create', { name: 'Cancel me' });
      await h.call('collections.attach', { collectionId: col.id, clipIds: [clipId!] });
      await waitFor('transcode progress', () => h.seen.some((e) => e.status === 'transcoding' && (e.progress ?? 0) > 0), 30_000);
      const proxyDir = path.join(tmp.dir, 'cache', 'collection-proxies');
      expect(processesUsing(proxyDir).length).toBe(1);
      expect(await h.call('collections.cancel', { collectionId: col.id })).toEqual({ cancelled: 1 });
      await h.idle();
      await waitFor('ffmpeg to exit', () => processesUsing(proxyDir).length === 0, 5000);
      expect(fs.readdirSync(proxyDir)).toEqual([]);
      expect(emu.stats().byEndpoint[UPLOAD_ROUTE]).toBeUndefined();
      const row = (await h.call('collections.videos', { collectionId: col.id })).videos[0];
      expect(row).toMatchObject({ status: 'cancelled', videoId: null, uploads: 0 });

      // Attaching again queues it from scratch (a full transcode of this clip takes long: cancel it again).
      expect(await h.call('collections.attach', { collectionId: col.id, clipIds: [clipId!] })).toMatchObject({ queued: 1 });
      await waitFor('transcoding again', () => h.seen.filter((e) => e.status === 'transcoding').length >= 2 || undefined, 30_000);
      expect(await h.call('collections.cancel', { collectionId: col.id, clipIds: [clipId!] })).toEqual({ cancelled: 1 });
      await h.idle();
      await waitFor('ffmpeg to exit', () => processesUsing(proxyDir).length === 0, 5000);
      expect(emu.stats().byEndpoint[UPLOAD_ROUTE]).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
