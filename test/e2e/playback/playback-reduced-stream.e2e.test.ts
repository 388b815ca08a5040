import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { countingOf } from '../../../src-shared/timecode';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { forgetProxy, proxyOf } from '../../../src-main/core/proxies/proxy-store';
import { createRangeStreams } from '../../../src-main/core/proxies/range-streams';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';
import { tempDir } from '../../helpers/paths';
import type { E2eApp } from '../harness';
import { startPlaybackApp } from './playback-app';
import { closeViewer, openViewer, settled, video } from './viewer-page';

/**
 * The preview stream's badge in real Chromium (issue 37): "Preview stream · reduced size" while, and
 * only while, the window on screen was made smaller than the clip's full size (540 lines for a 720p
 * clip), as main makes them while its transcode is slower than real time (proxies/stream-size.ts,
 * whose rule test/unit/stream-size.test.ts runs directly; range-stream.test.ts checks the windows
 * come out at the size the streams stand at). The app has no setting that makes a transcode slow,
 * and speed on a shared machine is no test's to rely on, so the smaller windows come the way they
 * reach the viewer: over its media route, here answered by the same range streams (real ffmpeg, the
 * same arguments) standing one size down, as main's stand after a slow window. The badge reads the
 * picture it gets, never a flag.
 */
const KEY = 'k-reduced-stream-e2e';
let e: E2eApp;
let close: (() => Promise<void>) | undefined;
let ids = new Map<string, number>();
let card = '';
const tmp = tempDir('rs-reduced-stream-');

beforeAll(async () => {
  const [prores] = await makePlaybackFootage(undefined, ['prores-hq']);
  // The ProRes test clip is 270 lines, its full size already the smallest: at 720p a window can be made smaller.
  const hd = path.join(tmp.dir, 'prores-720.mov');
  execFileSync(footageFfmpeg(), ['-v', 'error', '-i', prores!.file, '-map', '0', '-vf', 'scale=1280:720', '-c:v', 'prores_ks', '-profile:v', '3', '-vendor', 'apl0', '-pix_fmt', 'yuv422p10le', '-c:a', 'copy', '-y', hd]);
  const clip: PlaybackClip = { ...prores!, name: 'prores-720', file: hd, width: 1280, height: 720 };
  ({ e, ids, close, card } = await startPlaybackApp([clip], KEY));
}, 400_000);

afterAll(async () => {
  await close?.();
  tmp.cleanup();
});

describe('the preview stream badge says when the picture is made smaller', () => {
  it('says "reduced size" while the window shown is made smaller, and not before nor after', async () => {
    const { page } = e;
    const id = ids.get('prores-720')!;
    const db = e.app.core.db;
    // Its proxy not made yet, as while it waits for its indexing: it plays from a preview stream.
    const made = proxyOf(db, id)!;
    forgetProxy(db, id);
    fs.rmSync(path.join(e.app.core.paths.cacheDir, made.file));
    const row = db.prepare('SELECT fps, vfr, frame_count, file_name FROM clips WHERE id = ?').get(id) as { fps: number; vfr: number; frame_count: number; file_name: string };
    const { rate } = countingOf(row.fps, row.vfr === 1);
    const badge = page.locator('[data-testid="viewer-source"]');
    const height = () => video(page).evaluate((v) => (v as HTMLVideoElement).videoHeight);
    const says = async () => ({ text: await badge.innerText(), reduced: await badge.getAttribute('data-reduced'), height: await height() });
    const full = { text: 'Preview stream · proxy not made yet', reduced: null, height: 540 };

    // Main's windows at full size: 540 lines, the badge says no more than that it is a preview.
    await openViewer(page, id);
    expect(await badge.getAttribute('data-source')).toBe('stream');
    await expect.poll(says, { timeout: 10_000 }).toEqual(full);
    const first = await settled(page);
    expect(first.picture).toBe(first.frame);

    // Main's windows one size down (360 lines), as after a window written slower than real time.
    const down = createRangeStreams({ cacheDir: path.join(tmp.dir, 'cache'), ffmpeg: () => ffPath('ffmpeg'), size: { step: 1 }, source: async () => ({ path: path.join(card, row.file_name), rate, frames: row.frame_count, audio: true, pictureTimes: null }) });
    const route = new RegExp(`/media/stream/${id}/(\\d+)/(\\d+)$`);
    const served: string[] = [];
    await page.route(route, async (r) => {
      const [, from, to] = route.exec(r.request().url())!;
      const f = await down.open(id, { from: Number(from), to: Number(to) });
      if (f instanceof AppError) return r.abort();
      const body = await f.handle.readFile();
      await f.handle.close();
      served.push(`${from}-${to}`);
      // Answered as main's media route answers (ranges), so the player can seek inside the window.
      const range = /^bytes=(\d+)-(\d*)$/.exec(r.request().headers()['range'] ?? '');
      if (!range) return r.fulfill({ status: 200, contentType: 'video/mp4', headers: { 'accept-ranges': 'bytes' }, body });
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      await r.fulfill({ status: 206, contentType: 'video/mp4', headers: { 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${body.length}` }, body: body.subarray(start, end + 1) });
    });
    try {
      // End: a window not loaded yet, now made smaller.
      await page.keyboard.press('End');
      await expect.poll(says, { timeout: 30_000 }).toEqual({ text: 'Preview stream · reduced size', reduced: 'true', height: 360 });
      expect(served.length).toBeGreaterThan(0);
      // Smaller, and still the frame read out is the frame on screen.
      const last = await settled(page);
      expect(last.frame).toBe(row.frame_count - 1);
      expect(last.picture).toBe(last.frame);
      expect(await badge.getAttribute('title')).toMatch(/Shown smaller while this computer cannot make the preview at full size/);
      await e.screenshot('playback-reduced-stream-1280');
    } finally {
      await page.unroute(route);
      await down.dispose();
    }

    // Main's windows at full size again (Home: the window at the clip's start): the badge drops the words with the smaller picture.
    await page.keyboard.press('Home');
    await expect.poll(says, { timeout: 30_000 }).toEqual(full);
    const back = await settled(page);
    expect(back).toEqual({ frame: 0, picture: 0 });
    await closeViewer(page);
    expect(e.pageErrors.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  }, 180_000);
});
