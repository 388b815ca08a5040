import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../emulator/server';
import { framePatternInstallScript } from '../helpers/frame-pattern';
import { footageFfmpeg } from '../helpers/footage-ffmpeg';
import { frameAtSeconds, makePlaybackFootage, type PlaybackClip } from '../helpers/playback-footage';
import { countingOf, frameToSeconds, type FrameRate } from '../../src-shared/timecode';
import { launchApp, type E2eApp } from './harness';
import { forgetProxy, proxyOf } from '../../src-main/core/proxies/proxy-store';
import { STREAMS_DIR } from '../../src-main/core/proxies/range-streams';
import { ffPath } from '../../src-main/core/media/ffmpeg-locate';

/**
 * Issue 37 in real Chromium over footage with the frame number burnt in as a machine-readable
 * pattern (test/helpers/playback-footage.ts), in the codecs editors shoot: every clip plays (from
 * its original when the player decodes it, else from the proxy its indexing wrote); after 100
 * random stops (play at 1x and 2x, reverse, frame and second steps, Home/End, shot jumps, clicks on
 * the timeline) the frame the browser presents, the frame read out and the frame I marks are one;
 * reverse play presents at least 10 distinct frames a second; with the footage folder renamed away
 * every clip still plays from its proxy, frame-exact (every clip gets one here); the VFR phone clip
 * is conformed, so its frame k must show the picture a player shows at k / rate (src-shared/picture-grid.ts),
 * on its original and on its proxy; a clip whose proxy is not made yet plays from
 * a preview stream made on demand, frame-exact, and says so. Screenshots at 1280x720 and 1920x1080.
 */
const KEY = 'k-playback-e2e';
let e: E2eApp;
let emu: EmulatorHandle;
let card: string;
let clips: PlaybackClip[] = [];
const ids = new Map<string, number>();
/** The rate each clip counts in, as the app counts it (the VFR clip's conformed rate). */
const rates = new Map<string, FrameRate>();
/** The player decodes these from the original; the rest play from their proxy. */
const NATIVE = new Set(['h264-25', 'h264-2997df', 'h264-23976', 'h264-vfr-phone']);

/** Deterministic choices, so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

beforeAll(async () => {
  clips = await makePlaybackFootage();
  emu = await startEmulator({ keys: [KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  e = await launchApp({ viewport: { width: 1280, height: 720 }, beforeGoto: (page) => page.addInitScript({ content: framePatternInstallScript() }) });
  card = path.join(e.dataDir, 'card');
  fs.mkdirSync(card, { recursive: true });
  for (const c of clips) fs.copyFileSync(c.file, path.join(card, `${c.name}${path.extname(c.file)}`));
  const call = async <T,>(m: string, a: unknown): Promise<T> => {
    const r = await e.app.core.dispatch(m, a, { transport: 'test' });
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as T;
  };
  // Every clip gets a proxy (the native ones too), so that every clip plays with its folder away.
  await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000, proxies: 'always' });
  await call('settings.setApiKey', { key: KEY });
  await call('library.import', { paths: [card] });
  for (const c of (await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name' })).items) ids.set(c.name.replace(/\.[^.]+$/, ''), c.id);
  const end = Date.now() + 240_000;
  const db = e.app.core.db;
  while ((db.prepare('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL').get() as { n: number }).n < clips.length) {
    if (Date.now() > end) throw new Error('the playback card was not indexed in time');
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const [name, id] of ids) {
    const row = db.prepare('SELECT fps, vfr FROM clips WHERE id = ?').get(id) as { fps: number; vfr: number };
    rates.set(name, countingOf(row.fps, row.vfr === 1).rate);
  }
  // The proxies are made by the same decode; the offline case needs them all.
  while ((db.prepare('SELECT COUNT(*) AS n FROM proxies').get() as { n: number }).n < clips.length) {
    if (Date.now() > end) throw new Error('the playback card did not get its proxies in time');
    await new Promise((r) => setTimeout(r, 500));
  }
}, 400_000);

/** The burnt-in number of the picture frame k of a clip must show: k itself, or for the conformed VFR clip the picture a player shows at k / rate. */
const pictureOf = (c: PlaybackClip, frame: number) => (c.vfr ? frameAtSeconds(c, frameToSeconds(frame, rates.get(c.name)!)) : frame);

afterAll(async () => {
  await e?.close();
  await emu?.close();
});

const video = (page: Page) => page.locator('[data-testid="viewer-video"]');
const readout = async (page: Page) => Number(await page.locator('[data-testid="viewer-tc"]').getAttribute('data-frame'));
/** The frame number burnt into the picture the <video> shows now (null: no readable picture). */
const shown = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="viewer-video"]');
    if (!v || v.readyState < 2 || !v.videoWidth) return null;
    const c = document.createElement('canvas');
    [c.width, c.height] = [v.videoWidth, v.videoHeight];
    const g = c.getContext('2d')!;
    g.drawImage(v, 0, 0);
    return (globalThis as unknown as { __readFramePattern: (d: Uint8ClampedArray, w: number, h: number, ch: number) => number | null }).__readFramePattern(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
  });
/** Stopped and settled: paused, no seek in flight, and the picture on screen is the one the frame read out shows (pictureOf). */
async function settled(page: Page, c?: PlaybackClip): Promise<{ frame: number; picture: number | null }> {
  let last = { frame: -1, picture: null as number | null };
  const end = Date.now() + 6000;
  while (Date.now() < end) {
    const idle = await video(page).evaluate((v) => (v as HTMLVideoElement).paused && !(v as HTMLVideoElement).seeking);
    last = { frame: await readout(page), picture: await shown(page) };
    if (idle && last.picture === (c ? pictureOf(c, last.frame) : last.frame)) return last;
    await page.waitForTimeout(50);
  }
  return last;
}

async function openViewer(page: Page, clipId: number): Promise<void> {
  // A viewer a failed case left open is closed first, so one failure does not hide the next cases.
  if (await page.locator('[data-testid="viewer"]').count()) await closeViewer(page);
  await page.click('[data-nav="library"]');
  const card = page.locator(`.clip-card[data-clip-id="${clipId}"]`);
  await card.waitFor({ timeout: 30_000 });
  await card.click();
  await page.keyboard.press('Enter');
  await video(page).waitFor();
  // A bound, not a timing: a preview stream sends its first window (a 1 s head) once it is transcoded whole.
  await expect.poll(() => video(page).evaluate((v) => (v as HTMLVideoElement).readyState), { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
}

async function closeViewer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="viewer"]').waitFor({ state: 'detached' });
}

describe('playback of every codec, frame-exact', () => {
  it('plays every clip, each from the source the app says (original or proxy), from its first frame', async () => {
    const { page } = e;
    // The cards say it first: "Proxy" on each clip the viewer plays from its proxy, nothing on an original.
    await page.click('[data-nav="library"]');
    for (const c of clips) {
      const tag = page.locator(`.clip-card[data-clip-id="${ids.get(c.name)}"] [data-testid="clip-source"]`);
      if (NATIVE.has(c.name)) await expect.poll(() => tag.count(), { timeout: 10_000 }).toBe(0);
      else await expect.poll(() => tag.innerText().catch(() => ''), { timeout: 10_000, message: c.name }).toBe('Proxy');
    }
    await e.screenshot('playback-library-cards-1280');
    for (const c of clips) {
      await openViewer(page, ids.get(c.name)!);
      const source = await page.locator('[data-testid="viewer-source"]').getAttribute('data-source');
      expect(source, c.name).toBe(NATIVE.has(c.name) ? 'original' : 'proxy');
      expect(await video(page).getAttribute('data-source')).toBe(source);
      await expect.poll(() => shown(page), { timeout: 10_000, message: `${c.name}: frame 0 on screen` }).toBe(0);
      if (c.name === 'prores-hq') {
        await e.screenshot('playback-prores-proxy-1280');
        await page.keyboard.press('?');
        await page.locator('[data-testid="viewer-keys-help"]').waitFor();
        await e.screenshot('playback-keys-help-1280');
        await page.keyboard.press('?');
        // The picture takes at least 40 % of the window.
        const box = await video(page).boundingBox();
        const pic = await video(page).evaluate((v) => {
          const el = v as HTMLVideoElement;
          const s = Math.min(el.clientWidth / el.videoWidth, el.clientHeight / el.videoHeight);
          return { w: el.videoWidth * s, h: el.videoHeight * s };
        });
        expect(box).not.toBeNull();
        expect((pic.w * pic.h) / (1280 * 720)).toBeGreaterThanOrEqual(0.4);
      }
      await closeViewer(page);
    }
  }, 180_000);

  it('after 100 random stops at random speeds the frame presented, read out and marked is one', { timeout: 400_000 }, async () => {
    const { page } = e;
    const rnd = prng(37);
    const set = clips;
    const perClip = Math.ceil(100 / set.length);
    const misses: string[] = [];
    const vfrFrames = new Set<number>();
    let stops = 0;
    for (const c of set) {
      await openViewer(page, ids.get(c.name)!);
      for (let i = 0; i < perClip; i++) {
        const r = rnd();
        let what: string;
        if (r < 0.25) {
          const twice = rnd() < 0.4;
          what = twice ? 'L L' : 'L';
          await page.keyboard.press('l');
          if (twice) await page.keyboard.press('l');
          await page.waitForTimeout(150 + Math.floor(rnd() * 700));
          await page.keyboard.press('k');
        } else if (r < 0.4) {
          what = 'J';
          await page.keyboard.press('j');
          await page.waitForTimeout(200 + Math.floor(rnd() * 600));
          await page.keyboard.press('k');
        } else if (r < 0.55) {
          const key = rnd() < 0.5 ? 'ArrowLeft' : 'ArrowRight';
          what = key;
          await page.keyboard.press(key);
        } else if (r < 0.65) {
          const key = rnd() < 0.5 ? 'Shift+ArrowLeft' : 'Shift+ArrowRight';
          what = key;
          await page.keyboard.press(key);
        } else if (r < 0.75) {
          what = rnd() < 0.5 ? 'Home' : 'End';
          await page.keyboard.press(what);
        } else if (r < 0.85) {
          what = rnd() < 0.5 ? 'ArrowUp' : 'ArrowDown';
          await page.keyboard.press(what);
        } else {
          const bar = page.locator('.viewer-timeline');
          const box = (await bar.boundingBox())!;
          const x = 2 + rnd() * (box.width - 4);
          what = `click ${(x / box.width).toFixed(2)}`;
          await page.mouse.click(box.x + x, box.y + box.height / 2);
          // The click leaves focus on the dialog, so the keys go on working.
        }
        const { frame, picture } = await settled(page, c);
        await page.keyboard.press('i');
        const tc = await page.locator('[data-testid="viewer-tc"]').innerText();
        const marked = await page.locator('[data-testid="mark-in"]').innerText();
        stops++;
        if (c.vfr) vfrFrames.add(frame);
        if (picture !== pictureOf(c, frame) || marked !== tc) misses.push(`${c.name} after ${what}: picture ${picture} (wanted ${pictureOf(c, frame)}), readout ${frame} (${tc}), In ${marked}`);
      }
      if (c.vfr) await e.screenshot('playback-vfr-phone-1280');
      if (c.name === 'dnxhr-hq') {
        await e.screenshot('playback-stops-dnxhr-1280');
        await page.setViewportSize({ width: 1920, height: 1080 });
        await e.screenshot('playback-stops-dnxhr-1920');
        await page.setViewportSize({ width: 1280, height: 720 });
      }
      await closeViewer(page);
    }
    console.log(`playback stops: ${stops}, misses ${misses.length}${misses.length ? `: ${misses.join('; ')}` : ''}`);
    expect(stops).toBeGreaterThanOrEqual(100);
    expect(misses).toEqual([]);
    // The VFR clip's stops were not all at one place.
    expect(vfrFrames.size).toBeGreaterThan(3);
  });

  it('reverse play presents at least 10 distinct frames a second, on a proxy and on an original', async () => {
    const { page } = e;
    for (const name of ['prores-hq', 'h264-25', 'h264-vfr-phone']) {
      await openViewer(page, ids.get(name)!);
      await page.keyboard.press('End');
      await settled(page);
      // The count runs in the page, one read per presented frame, while J plays backwards.
      const counting = page.evaluate(async () => {
        const v = document.querySelector('[data-testid="viewer-video"]') as HTMLVideoElement & { requestVideoFrameCallback: (cb: () => void) => number };
        const read = (globalThis as unknown as { __readFramePattern: (d: Uint8ClampedArray, w: number, h: number, ch: number) => number | null }).__readFramePattern;
        const c = document.createElement('canvas');
        [c.width, c.height] = [v.videoWidth, v.videoHeight];
        const g = c.getContext('2d', { willReadFrequently: true })!;
        const seen = new Set<number>();
        const t0 = performance.now();
        await new Promise<void>((done) => {
          const cb = () => {
            g.drawImage(v, 0, 0);
            const n = read(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
            if (n !== null) seen.add(n);
            if (performance.now() - t0 < 1500) v.requestVideoFrameCallback(cb);
            else done();
          };
          v.requestVideoFrameCallback(cb);
        });
        return seen.size / ((performance.now() - t0) / 1000);
      });
      await page.keyboard.press('j');
      const distinct = await counting;
      await page.keyboard.press('k');
      console.log(`reverse play, ${name}: ${distinct.toFixed(1)} distinct frames a second`);
      expect(distinct, name).toBeGreaterThanOrEqual(10);
      await closeViewer(page);
    }
  }, 150_000);

  it('with the footage folder renamed away every clip with a proxy still plays, frame-exact, and says the original is offline', async () => {
    const { page } = e;
    // One native clip without a proxy, as the default settings ('when needed') leave it: its card says it is offline.
    const r = await e.app.core.dispatch('settings.update', { proxies: 'needed' }, { transport: 'test' });
    expect(r.ok).toBe(true);
    const native = ids.get('h264-25')!;
    const made = proxyOf(e.app.core.db, native)!;
    forgetProxy(e.app.core.db, native);
    fs.rmSync(path.join(e.app.core.paths.cacheDir, made.file));
    const away = `${card}-away`;
    fs.renameSync(card, away);
    try {
      // The Library's drive check (every 5 s) finds the files gone: the cards say which still play.
      await page.click('[data-nav="library"]');
      const prores = page.locator(`.clip-card[data-clip-id="${ids.get('prores-hq')}"] [data-testid="clip-source"]`);
      await expect.poll(() => prores.innerText().catch(() => ''), { timeout: 20_000 }).toBe('Proxy · offline');
      const offline = page.locator(`.clip-card[data-clip-id="${native}"] [data-testid="clip-source"]`);
      await expect.poll(() => offline.innerText().catch(() => ''), { timeout: 20_000 }).toBe('Offline');
      await e.screenshot('playback-library-offline-1280');
      for (const c of clips.filter((x) => x.name !== 'h264-25')) {
        await openViewer(page, ids.get(c.name)!);
        const badge = page.locator('[data-testid="viewer-source"]');
        expect(await badge.getAttribute('data-source'), c.name).toBe('proxy');
        expect(await badge.innerText()).toMatch(/offline/);
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        expect(await settled(page, c), c.name).toEqual({ frame: 3, picture: pictureOf(c, 3) });
        if (c.vfr) {
          // Its proxy, made by the indexing with the bundled ffmpeg, decodes to every picture of the original (the last one too: mp4-last-sample.ts).
          const proxyFile = path.join(e.app.core.paths.cacheDir, proxyOf(e.app.core.db, ids.get(c.name)!)!.file);
          const decoded = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', proxyFile]).toString().trim();
          expect(Number(decoded), `${c.name} proxy's decoded pictures`).toBe(c.frames);
          // The conformed clip on its proxy: stops after play, steps, End and J, each its frame's picture and marked there.
          const stops: string[] = [];
          for (const what of ['l', 'ArrowRight', 'End', 'j', 'ArrowLeft', 'Shift+ArrowLeft']) {
            await page.keyboard.press(what);
            if (what === 'l' || what === 'j') {
              await page.waitForTimeout(600);
              await page.keyboard.press('k');
            }
            const { frame, picture } = await settled(page, c);
            await page.keyboard.press('i');
            const same = (await page.locator('[data-testid="mark-in"]').innerText()) === (await page.locator('[data-testid="viewer-tc"]').innerText());
            stops.push(`${what}: readout ${frame}, picture ${picture} (wanted ${pictureOf(c, frame)}), marked ${same ? 'there' : 'elsewhere'}`);
            expect(picture, `${c.name} proxy after ${what}`).toBe(pictureOf(c, frame));
            expect(same, `${c.name} proxy after ${what}`).toBe(true);
          }
          console.log(`VFR clip on its proxy, offline: ${stops.join('; ')}`);
        }
        if (c.name === 'prores-hq') {
          await e.screenshot('playback-offline-1280');
          await page.setViewportSize({ width: 1920, height: 1080 });
          await e.screenshot('playback-offline-1920');
          await page.setViewportSize({ width: 1280, height: 720 });
        }
        await closeViewer(page);
      }
    } finally {
      fs.renameSync(away, card);
    }
    expect(e.pageErrors.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  }, 240_000);

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
    // 24 s of ProRes (prores-hq looped 8 times: its burnt-in number is the frame's modulo 72), past the 20 s window.
    const folder = path.join(e.dataDir, 'long-card');
    fs.mkdirSync(folder, { recursive: true });
    execFileSync(footageFfmpeg(), ['-v', 'error', '-stream_loop', '7', '-i', clips.find((c) => c.name === 'prores-hq')!.file, '-map', '0:v:0', '-map', '0:a:0', '-c', 'copy', '-y', path.join(folder, 'prores-long.mov')]);
    const r = await e.app.core.dispatch('library.import', { paths: [folder] }, { transport: 'test' });
    expect(r.ok).toBe(true);
    const db = e.app.core.db;
    const row = () => db.prepare("SELECT id, indexed_at FROM clips WHERE file_name = 'prores-long.mov'").get() as { id: number; indexed_at: number | null } | undefined;
    await expect.poll(() => row()?.indexed_at ?? null, { timeout: 180_000, interval: 1000 }).not.toBeNull();
    const id = row()!.id;
    const made = proxyOf(db, id);
    forgetProxy(db, id);
    if (made) fs.rmSync(path.join(e.app.core.paths.cacheDir, made.file), { force: true });
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
    await expect.poll(() => shown(page), { timeout: 10_000 }).toBe(back.frame % 72);
    expect(await video(page).getAttribute('src')).toMatch(new RegExp(`/stream/${id}/384/480$`));
    await closeViewer(page);
  }, 300_000);
});
