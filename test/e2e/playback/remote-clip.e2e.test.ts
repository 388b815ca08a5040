import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile } from '../../helpers/paths';
import { startReviewServer, type ReviewServer } from '../../helpers/app/review-server';
import { launchApp, type E2eApp } from '../harness';
import { callOk } from '../../helpers/app/app-call';

/**
 * Issue 26, "clips added by URL are first-class", as an editor meets it in Chromium: Add by URL
 * with the keyboard (a real clip served by a local HTTP server with byte ranges), the card gets a
 * poster, the viewer plays it and seeks past the first 2 MB part (streamed through main), the
 * details say "remote" and offer no file
 * hand-off, Jobs counts it; an address that never answers can be cancelled from the UI.
 * Screenshots at 1280x720 and 1920x1080 in test-results/screenshots (remote-*.png).
 */
const KEY = 'k-remote-e2e';
let e: E2eApp;
let emu: EmulatorHandle;
let review: ReviewServer;
let silent: net.Server;
let silentUrl: string;
const silentSockets = new Set<net.Socket>();

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY] });
  // 2.8 MB, 30 s: more than one of the 2 MB parts main answers the player's ranges with.
  review = await startReviewServer({ '/review/cars.mp4': mediaFile('intel_car-detection.mp4') });
  silent = net.createServer((s) => (silentSockets.add(s), s.resume(), s.on('close', () => silentSockets.delete(s))));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/never.mp4`;
  // The test servers are on this computer: the app is started as `--allow-loopback-urls` would.
  e = await launchApp({ viewport: { width: 1280, height: 720 }, remote: { allowLoopback: true } });
  await callOk(e.app.core, 'settings.update', { baseUrls: { asia: emu.url } });
  await callOk(e.app.core, 'settings.setApiKey', { key: KEY });
}, 60_000);

afterAll(async () => {
  await e?.close();
  await emu?.close();
  await review?.close();
  silentSockets.forEach((s) => s.destroy());
  await new Promise((r) => silent?.close(r));
});

describe('a clip added by URL, in the browser', () => {
  it('is added from the keyboard, gets a poster, plays in the viewer and offers no file hand-off', async () => {
    const { page } = e;
    await page.waitForSelector('[data-view="library"]');
    await page.click('[data-action="add-by-url"]');
    await page.keyboard.type(`${review.url}/review/cars.mp4`);
    await page.keyboard.press('Enter');
    const status = page.locator('[data-testid="add-by-url-status"]');
    await expect.poll(() => status.innerText(), { timeout: 90_000 }).toMatch(/^Added: /);

    const card = page.locator('.clip-card', { hasText: 'cars.mp4' });
    await card.waitFor();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await expect
      .poll(() => card.locator('img').evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBe(320);
    // Hover-scrub: the filmstrip sprite made from range requests.
    const thumb = card.locator('[data-testid="clip-thumb"]');
    const box = (await thumb.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
    await expect.poll(() => card.locator('.clip-sprite').count()).toBe(1);
    const sprite = await card.locator('.clip-sprite').evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(sprite).toMatch(/\/media\/thumb\/.*filmstrip\.jpg/);
    await page.mouse.move(0, 0);
    await e.screenshot('remote-library-1280x720');

    // Details: "remote" instead of a size, the address as its path.
    await card.click();
    const detail = page.locator('[data-testid="clip-detail"]');
    await detail.waitFor();
    expect(await detail.locator('dt:has-text("Size") + dd').innerText()).toBe('remote');
    expect(await detail.locator('.clip-detail-path').innerText()).toBe(`${review.url}/review/cars.mp4`);

    // The viewer plays it: the <video> reads /media/clip/N, which main streams from the address.
    const before = review.requests.length;
    await detail.locator('[data-action="open-viewer"]').click();
    const video = page.locator('[data-testid="viewer"] video');
    await video.waitFor();
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(await video.evaluate((v) => (v as HTMLVideoElement).videoWidth)).toBe(768);
    expect(await video.evaluate((v) => new URL((v as HTMLVideoElement).currentSrc).pathname)).toMatch(/^\/media\/clip\/\d+$/);
    await page.keyboard.press('l');
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
    await page.keyboard.press('k');
    // A seek near the end: the player continues past the first 2 MB part and main reads that range.
    await video.evaluate((v) => ((v as HTMLVideoElement).currentTime = 27));
    await expect.poll(() => video.evaluate((v) => !(v as HTMLVideoElement).seeking && (v as HTMLVideoElement).readyState >= 2), { timeout: 15_000 }).toBe(true);
    const starts = review.requests.slice(before).map((r) => Number(/^bytes=(\d+)-/.exec(r.range ?? '')?.[1] ?? -1));
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(e.pageErrors.filter((m) => !/favicon/.test(m))).toEqual([]);

    const handOff = page.locator('[data-testid="hand-off"]');
    expect(await handOff.locator('button', { hasText: /Show in|Reveal in|Open in player/ }).count()).toBe(0);
    expect(await handOff.locator('[data-action="copy-address"]').count()).toBe(1);
    expect(await handOff.innerText()).toMatch(/Streamed from its address/);
    await e.screenshot('remote-viewer-1280x720');

    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(2);
    await e.screenshot('remote-viewer-1920x1080');
    await page.keyboard.press('Escape');
    await video.waitFor({ state: 'detached' });
    await e.screenshot('remote-library-1920x1080');
    await page.setViewportSize({ width: 1280, height: 720 });
    // The add said what main read of the address.
    expect(await status.innerText()).toMatch(/[\d.]+ [KM]B read from the address/);
  });

  it('Jobs counts it with the Library', async () => {
    const { page } = e;
    await page.click('[data-nav="jobs"]');
    const row = page.locator('.clip-job', { hasText: 'cars.mp4' });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute('data-state')).toBe('done');
    expect(await row.innerText()).toMatch(/indexed by the service from its address/);
    await page.click('[data-nav="library"]');
  });

  it('an address that never answers shows "Adding…", the limit it gives up at counting down, and a Cancel that stops it', async () => {
    const { page } = e;
    const input = page.locator('input[aria-label="Video address"]');
    if (!(await input.count())) await page.click('[data-action="add-by-url"]');
    await input.fill(silentUrl);
    await page.click('[data-action="add-url-submit"]');
    await expect.poll(() => page.locator('[data-action="add-url-submit"]').innerText()).toBe('Adding…');
    await expect.poll(() => silentSockets.size, { timeout: 10_000 }).toBeGreaterThan(0);
    // The whole add is under main's limit (10 min): the editor sees when it gives up, and what is left.
    const limit = page.locator('[data-testid="add-by-url-limit"]');
    const secondsLeft = async () => {
      const m = /^Gives up at (\d\d):(\d\d) unless finished \((\d+):(\d\d) left\)$/.exec(await limit.innerText());
      expect(m).not.toBeNull();
      return Number(m![3]) * 60 + Number(m![4]);
    };
    await limit.waitFor();
    const first = await secondsLeft();
    expect(first).toBeGreaterThan(9 * 60);
    expect(first).toBeLessThanOrEqual(10 * 60);
    const givesUpAt = new Date(Date.now() + first * 1000);
    expect(await limit.innerText()).toContain(`${String(givesUpAt.getHours()).padStart(2, '0')}:${String(givesUpAt.getMinutes()).padStart(2, '0')}`);
    await expect.poll(secondsLeft, { timeout: 5000 }).toBeLessThan(first);
    await e.screenshot('remote-adding-1280x720');
    await page.click('[data-action="add-url-cancel"]');
    await expect.poll(() => page.locator('[data-testid="add-by-url-status"]').innerText(), { timeout: 10_000 }).toBe('Cancelled: nothing was added.');
    // Main let go of the address.
    await expect.poll(() => silentSockets.size, { timeout: 10_000 }).toBe(0);
    expect(await page.locator('[data-action="add-url-submit"]').innerText()).toBe('Add');
    expect(await limit.count()).toBe(0);
    await e.screenshot('remote-cancelled-1280x720');
  });
});
