import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameAtSeconds, makePlaybackFootage, type PlaybackClip } from '../../helpers/footage/playback-footage';
import { countingOf, frameToSeconds, type FrameRate } from '../../../src-shared/timecode';
import type { E2eApp } from '../harness';
import { startPlaybackApp } from './playback-app';
import { closeViewer, countPresentedPictures, openViewer, settled, shown, video } from './viewer-page';
import { forgetProxy, proxyOf } from '../../../src-main/core/proxies/proxy-store';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { x264Options } from '../../helpers/footage/x264-options';

/**
 * Issue 37 in real Chromium over footage with the frame number burnt in as a machine-readable
 * pattern (test/helpers/footage/playback-footage.ts), in the codecs editors shoot: every clip plays (from
 * its original when the player decodes it, else from the proxy its indexing wrote); after 100
 * random stops (play at 1x and 2x, reverse, frame and second steps, Home/End, shot jumps, clicks on
 * the timeline) the frame the browser presents, the frame read out and the frame I marks are one;
 * reverse play presents at least 10 distinct frames a second; with the footage folder renamed away
 * every clip still plays from its proxy, frame-exact (every clip gets one here); the VFR phone clip
 * is conformed, so its frame k must show the picture a player shows at k / rate (src-shared/picture-grid.ts),
 * on its original and on its proxy. Screenshots at 1280x720 and 1920x1080. The preview stream of a
 * clip whose proxy is not made yet: playback-preview-stream.e2e.test.ts.
 */
const KEY = 'k-playback-e2e';
let e: E2eApp;
let card: string;
let close: (() => Promise<void>) | undefined;
let clips: PlaybackClip[] = [];
let ids = new Map<string, number>();
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
  ({ e, card, ids, close } = await startPlaybackApp(clips, KEY));
  for (const [name, id] of ids) {
    const row = e.app.core.db.prepare('SELECT fps, vfr FROM clips WHERE id = ?').get(id) as { fps: number; vfr: number };
    rates.set(name, countingOf(row.fps, row.vfr === 1).rate);
  }
}, 400_000);

/** The burnt-in number of the picture frame k of a clip must show: k itself, or for the conformed VFR clip the picture a player shows at k / rate. */
const pictureOf = (c: PlaybackClip, frame: number) => (c.vfr ? frameAtSeconds(c, frameToSeconds(frame, rates.get(c.name)!)) : frame);

afterAll(async () => {
  await close?.();
});

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
        const { frame, picture } = await settled(page, (f) => pictureOf(c, f));
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
      const counting = countPresentedPictures(page, { ms: 1500 });
      await page.keyboard.press('j');
      const distinct = (await counting).perSecond;
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
        expect(await settled(page, (f) => pictureOf(c, f)), c.name).toEqual({ frame: 3, picture: pictureOf(c, 3) });
        if (c.vfr) {
          // Its proxy, made by the indexing with the bundled ffmpeg, decodes to every picture of the original (the last one too: media/mp4/last-sample.ts).
          const proxyFile = path.join(e.app.core.paths.cacheDir, proxyOf(e.app.core.db, ids.get(c.name)!)!.file);
          const decoded = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', proxyFile]).toString().trim();
          expect(Number(decoded), `${c.name} proxy's decoded pictures`).toBe(c.frames);
          // Its picture already is a proxy's (360p H.264 under 1 Mbit/s): copied, so its x264 options are the original's, B-frames and all (proxy-picture.ts).
          expect(x264Options(proxyFile).get('bframes'), `${c.name} proxy copied`).toBe(x264Options(c.file).get('bframes'));
          // The conformed clip on its proxy: stops after play, steps, End and J, each its frame's picture and marked there.
          const stops: string[] = [];
          for (const what of ['l', 'ArrowRight', 'End', 'j', 'ArrowLeft', 'Shift+ArrowLeft']) {
            await page.keyboard.press(what);
            if (what === 'l' || what === 'j') {
              await page.waitForTimeout(600);
              await page.keyboard.press('k');
            }
            const { frame, picture } = await settled(page, (f) => pictureOf(c, f));
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
});
