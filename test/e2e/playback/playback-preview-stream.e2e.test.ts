import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';
import { frameAtSeconds, makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';
import { processesUsing } from '../../helpers/app/processes';
import { countingOf, frameToSeconds } from '../../../src-shared/timecode';
import type { E2eApp } from '../harness';
import { startPlaybackApp } from './playback-app';
import { closeViewer, countPresentedPictures, openViewer, readout, settled, shown, video } from './viewer-page';
import { forgetProxy, proxyOf } from '../../../src-main/core/proxies/proxy-store';
import { STREAMS_DIR } from '../../../src-main/core/proxies/range-streams';

/**
 * Issue 37's preview stream in real Chromium: a clip the player cannot decode (ProRes 422 HQ, the
 * frame number burnt in as a machine-readable pattern, test/helpers/footage/playback-footage.ts) whose proxy
 * is not made yet plays from windows transcoded on demand around the playhead, frame-exact (the
 * frame presented, read out and marked are one at every stop), says so on its card and in the
 * viewer, says so over the black while a window is made, plays on and back across windows (in
 * reverse play the window before made ahead: moving pictures and no wait at a boundary), and leaves
 * no file behind once closed; a VFR phone clip in HEVC streams with its pictures' own times, frame-exact
 * at every stop. Screenshots at 1280x720 and 1920x1080.
 */
const KEY = 'k-preview-stream-e2e';
let e: E2eApp;
let close: (() => Promise<void>) | undefined;
let prores: PlaybackClip;
let ids = new Map<string, number>();

beforeAll(async () => {
  prores = (await makePlaybackFootage(undefined, ['prores-hq']))[0]!;
  ({ e, ids, close } = await startPlaybackApp([prores], KEY));
}, 400_000);

afterAll(async () => {
  await close?.();
});

/**
 * Imports `file` alone from its own folder, waits until it is indexed (its proxy made then), and
 * forgets its proxy, as while it waits for its indexing: it plays from a preview stream.
 */
async function importWithoutProxy(folderName: string, make: (folder: string) => void, fileName: string): Promise<number> {
  const folder = path.join(e.dataDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  make(folder);
  const r = await e.app.core.dispatch('library.import', { paths: [folder] }, { transport: 'test' });
  expect(r.ok).toBe(true);
  const db = e.app.core.db;
  const row = () => db.prepare('SELECT id, indexed_at FROM clips WHERE file_name = ?').get(fileName) as { id: number; indexed_at: number | null } | undefined;
  await expect.poll(() => row()?.indexed_at ?? null, { timeout: 180_000, interval: 1000 }).not.toBeNull();
  const id = row()!.id;
  const made = proxyOf(db, id);
  forgetProxy(db, id);
  if (made) fs.rmSync(path.join(e.app.core.paths.cacheDir, made.file), { force: true });
  return id;
}

/** 24 s of ProRes (prores-hq looped 8 times: its burnt-in number is the frame's modulo 72), past the 20 s window; imported once. */
let longId: Promise<number> | undefined;
const longProres = () =>
  (longId ??= importWithoutProxy('long-card', (folder) => {
    execFileSync(footageFfmpeg(), ['-v', 'error', '-stream_loop', '7', '-i', prores.file, '-map', '0:v:0', '-map', '0:a:0', '-c', 'copy', '-y', path.join(folder, 'prores-long.mov')]);
  }, 'prores-long.mov'));

describe('the preview stream of a clip without its proxy, frame-exact', () => {
  it('a ProRes clip whose proxy is not made yet plays from a preview stream of the range watched, frame-exact, and says so', async () => {
    const { page } = e;
    const id = ids.get('prores-hq')!;
    const cacheDir = e.app.core.paths.cacheDir;
    const streams = path.join(cacheDir, STREAMS_DIR);
    // Its proxy not made yet, as while it waits for its indexing: the row and the file gone.
    const made = proxyOf(e.app.core.db, id)!;
    forgetProxy(e.app.core.db, id);
    fs.rmSync(path.join(cacheDir, made.file));
    // The card says what the viewer will: a preview stream (the cards in view look again every 5 s).
    await page.click('[data-nav="library"]');
    const tag = page.locator(`.clip-card[data-clip-id="${id}"] [data-testid="clip-source"]`);
    await expect.poll(() => tag.innerText().catch(() => ''), { timeout: 15_000 }).toBe('Preview stream');
    const asked = Date.now();
    await openViewer(page, id);
    // Reported, not asserted: from the viewer's opening to a picture to show (readyState 2).
    console.log(`preview stream: first picture ${((Date.now() - asked) / 1000).toFixed(2)} s after the viewer opened`);
    const badge = page.locator('[data-testid="viewer-source"]');
    expect(await badge.getAttribute('data-source')).toBe('stream');
    expect(await badge.innerText()).toBe('Preview stream · proxy not made yet');
    // The 1 s head at the playhead (24 frames at 23.976).
    expect(await video(page).getAttribute('src')).toMatch(new RegExp(`/stream/${id}/0/24$`));
    await expect.poll(() => shown(page), { timeout: 10_000, message: 'frame 0 on screen' }).toBe(0);
    // The head, and at most the window after it (frames 24-71: the clip's end) made ahead.
    expect(fs.readdirSync(streams).filter((n) => !new RegExp(`^${id}-(0-24|24-72)-`).test(n))).toEqual([]);
    await e.screenshot('playback-prores-stream-1280');
    const stops: { what: string; frame: number; picture: number | null; marked: string; tc: string }[] = [];
    const stop = async (what: string) => {
      const { frame, picture } = await settled(page);
      // The picture is there: nothing says it is still coming.
      expect(await page.locator('[data-testid="viewer-loading"]').count(), what).toBe(0);
      await page.keyboard.press('i');
      stops.push({ what, frame, picture, tc: await page.locator('[data-testid="viewer-tc"]').innerText(), marked: await page.locator('[data-testid="mark-in"]').innerText() });
    };
    await page.keyboard.press('l');
    await page.waitForTimeout(700);
    await page.keyboard.press('k');
    await stop('L');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await stop('3 x ArrowRight');
    await page.keyboard.press('End');
    // A window not made yet (its transcode starts now): the black stage says what it waits for.
    await page.locator('[data-testid="viewer-loading"]').waitFor({ timeout: 5_000 });
    expect(await page.locator('[data-testid="viewer-loading"]').innerText()).toBe('Making the preview of this part…');
    await stop('End');
    await page.keyboard.press('j');
    await page.waitForTimeout(500);
    await page.keyboard.press('k');
    await stop('J');
    const bar = (await page.locator('.viewer-timeline').boundingBox())!;
    await page.mouse.click(bar.x + bar.width * 0.37, bar.y + bar.height / 2);
    await stop('click 0.37');
    await page.keyboard.press('Home');
    await stop('Home');
    console.log(`preview stream stops: ${stops.map((s) => `${s.what}: picture ${s.picture}, readout ${s.frame}`).join('; ')}`);
    for (const s of stops) {
      expect(s.picture, s.what).toBe(s.frame);
      expect(s.marked, s.what).toBe(s.tc);
    }
    // Not all stops at the start: play and End moved the picture.
    expect(new Set(stops.map((s) => s.frame)).size).toBeGreaterThan(3);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('playback-prores-stream-1920');
    await page.setViewportSize({ width: 1280, height: 720 });
    // Closing the viewer stops the stream and removes its file.
    await closeViewer(page);
    await expect.poll(() => fs.readdirSync(streams), { timeout: 10_000 }).toEqual([]);
    expect(e.pageErrors.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  }, 120_000);

  it('plays on from one preview-stream window into the next, frame-exact', async () => {
    const { page } = e;
    const id = await longProres();
    await openViewer(page, id);
    expect(await page.locator('[data-testid="viewer-source"]').getAttribute('data-source')).toBe('stream');
    // 19 s in (frame 456: its head is frames 456-479), then play past the head's end into the window after it (480-527).
    for (let i = 0; i < 19; i++) await page.keyboard.press('Shift+ArrowRight');
    expect(await settled(page)).toMatchObject({ frame: 456 });
    // Its picture too: the head at 456 is the window served (a step answered out of order once left the one before it).
    await expect.poll(() => shown(page), { timeout: 10_000, message: 'frame 456 on screen' }).toBe(456 % 72);
    await page.keyboard.press('l');
    await expect.poll(() => readout(page), { timeout: 60_000, message: 'play ran on into the second window' }).toBeGreaterThan(490);
    await page.keyboard.press('k');
    const { frame } = await settled(page);
    const picture = await shown(page);
    console.log(`preview stream across windows: readout ${frame}, burnt-in ${picture} (frame modulo 72)`);
    expect(frame).toBeGreaterThan(490);
    expect(picture).toBe(frame % 72);
    expect(await video(page).getAttribute('src')).toMatch(new RegExp(`/stream/${id}/480/528$`));
    // The window served and the one after it made ahead (528-575, the clip's end); the head's file is gone.
    const left = fs.readdirSync(path.join(e.app.core.paths.cacheDir, STREAMS_DIR));
    expect(left).toContainEqual(expect.stringMatching(new RegExp(`^${id}-480-528-`)));
    expect(left.filter((n) => !new RegExp(`^${id}-(480-528|528-576)-`).test(n))).toEqual([]);
    // Reverse play back out of that window's start: the window before it (frames 384-479), frame-exact where it stops.
    await page.keyboard.press('j');
    await expect.poll(() => readout(page), { timeout: 60_000, message: 'reverse play ran back past frame 480' }).toBeLessThan(476);
    await page.keyboard.press('k');
    const back = await settled(page);
    console.log(`preview stream reversed across windows: readout ${back.frame}, burnt-in ${await shown(page)}`);
    expect(back.frame).toBeLessThan(480);
    // A bound, not a timing: on a loaded machine reverse play may have run on into a window still being made.
    await expect.poll(() => shown(page), { timeout: 60_000 }).toBe(back.frame % 72);
    // The window before it (384-479), or on a loaded machine one further back that holds the frame stopped at.
    const [from, to] = (await video(page).getAttribute('src'))!.split('/').slice(-2).map(Number) as [number, number];
    expect(from <= back.frame && back.frame < to && to <= 480, `window ${from}-${to}`).toBe(true);
    await closeViewer(page);
  }, 300_000);

  it('reverse play runs back across windows with the window before made ahead: moving pictures, no wait at a boundary', async () => {
    const { page } = e;
    const id = await longProres();
    const streams = path.join(e.app.core.paths.cacheDir, STREAMS_DIR);
    await openViewer(page, id);
    // Frame 263, the last of the head 240-263.
    for (let i = 0; i < 11; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const burnt = (f: number) => f % 72;
    expect(await settled(page, burnt)).toMatchObject({ frame: 263, picture: burnt(263) });
    // A nudge back (J, K once the picture moved): main learns the playhead goes back and makes the
    // window before (192-239) in place of the one after; its transcode is over before J runs on.
    await page.keyboard.press('j');
    await expect.poll(() => readout(page), { timeout: 10_000 }).toBeLessThan(263);
    await page.keyboard.press('k');
    await settled(page, burnt);
    await expect.poll(() => fs.readdirSync(streams).some((n) => n.startsWith(`${id}-192-240-`)), { timeout: 30_000, message: 'the window before made ahead' }).toBe(true);
    await expect.poll(() => processesUsing(streams).length, { timeout: 30_000 }).toBe(0);
    expect(fs.readdirSync(streams).filter((n) => !new RegExp(`^${id}-(240-264|192-240)-`).test(n))).toEqual([]);
    // In the page: the distinct burnt-in pictures presented while J runs back past 240 (the window before
    // it made ahead and written), and each time the stage said it waits, down to frame 200.
    const counting = countPresentedPictures(page, { frameAtOrBelow: 200 });
    await page.keyboard.press('j');
    // In 192-239 the window before it (96-191, twice as long) is made while the playhead is still there, not once it gets there.
    await expect.poll(() => video(page).getAttribute('src'), { timeout: 30_000 }).toMatch(new RegExp(`/stream/${id}/192/240$`));
    await expect.poll(() => fs.readdirSync(streams).some((n) => n.startsWith(`${id}-96-192-`)), { timeout: 30_000 }).toBe(true);
    expect(await readout(page), 'the window before was started before the playhead reached it').toBeGreaterThanOrEqual(192);
    const { perSecond, waits } = await counting;
    await expect.poll(() => readout(page), { timeout: 60_000, message: 'reverse play ran back past frame 192' }).toBeLessThanOrEqual(180);
    await page.keyboard.press('k');
    const stopped = await settled(page, burnt);
    console.log(`preview stream reverse play from 263 to 200, across 240: ${perSecond.toFixed(1)} distinct pictures a second, ${waits} waits said; stopped past 192 at ${stopped.frame} (burnt-in ${stopped.picture})`);
    expect(perSecond).toBeGreaterThanOrEqual(10);
    expect(waits).toBe(0);
    expect(stopped.frame).toBeLessThan(192);
    await expect.poll(() => shown(page), { timeout: 60_000 }).toBe(burnt(stopped.frame));
    await closeViewer(page);
  }, 300_000);

  it('a VFR phone clip the player cannot decode plays from windows that keep its pictures\' times: every stop presented = readout = mark', async () => {
    const { page } = e;
    // The phone clip as HEVC, its times kept on its 1/90000 clock: the player here does not decode HEVC, so it streams.
    const [phone] = await makePlaybackFootage(undefined, ['h264-vfr-phone']);
    const id = await importWithoutProxy('vfr-card', (folder) => {
      execFileSync(footageFfmpeg(), ['-v', 'error', '-i', phone!.file, '-map', '0', '-c:v', 'libx265', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1', '-x265-params', 'log-level=error:keyint=30', '-fps_mode', 'passthrough', '-enc_time_base', '1/90000', '-video_track_timescale', '90000', '-c:a', 'copy', '-y', path.join(folder, 'phone-hevc.mp4')]);
    }, 'phone-hevc.mp4');
    const row = e.app.core.db.prepare('SELECT fps, vfr FROM clips WHERE id = ?').get(id) as { fps: number; vfr: number };
    const { rate, conformed } = countingOf(row.fps, row.vfr === 1);
    expect(conformed).toBe(true);
    // Grid position k shows the picture a player shows at k / rate (src-shared/picture-grid.ts).
    const pictureAt = (frame: number) => frameAtSeconds(phone!, frameToSeconds(frame, rate));
    await openViewer(page, id);
    expect(await page.locator('[data-testid="viewer-source"]').getAttribute('data-source')).toBe('stream');
    const stops: { what: string; frame: number; picture: number | null; marked: string; tc: string }[] = [];
    const stop = async (what: string) => {
      const { frame, picture } = await settled(page, pictureAt);
      await page.keyboard.press('i');
      stops.push({ what, frame, picture, tc: await page.locator('[data-testid="viewer-tc"]').innerText(), marked: await page.locator('[data-testid="mark-in"]').innerText() });
    };
    await page.keyboard.press('l');
    await expect.poll(() => readout(page), { timeout: 60_000, message: 'play ran on past the head' }).toBeGreaterThan(40);
    await page.keyboard.press('k');
    await stop('L');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await stop('3 x ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await stop('Shift+ArrowRight');
    await page.keyboard.press('End');
    await stop('End');
    await page.keyboard.press('j');
    await page.waitForTimeout(500);
    await page.keyboard.press('k');
    await stop('J');
    const bar = (await page.locator('.viewer-timeline').boundingBox())!;
    await page.mouse.click(bar.x + bar.width * 0.55, bar.y + bar.height / 2);
    await stop('click 0.55');
    await page.keyboard.press('ArrowLeft');
    await stop('ArrowLeft');
    console.log(`VFR preview stream stops: ${stops.map((s) => `${s.what}: picture ${s.picture}, readout ${s.frame} (shows ${pictureAt(s.frame)})`).join('; ')}`);
    for (const s of stops) {
      expect(s.picture, s.what).toBe(pictureAt(s.frame));
      expect(s.marked, s.what).toBe(s.tc);
    }
    expect(new Set(stops.map((s) => s.frame)).size).toBeGreaterThan(4);
    await closeViewer(page);
  }, 400_000);
});
