import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The viewer as the playback e2e tests drive and read it: the <video>, the frame read out, the frame
 * number burnt into the picture on screen (test/helpers/footage/frame-pattern.ts, installed in the page), a
 * settled stop, opening and closing the viewer from the Library.
 */

export const video = (page: Page) => page.locator('[data-testid="viewer-video"]');
export const readout = async (page: Page) => Number(await page.locator('[data-testid="viewer-tc"]').getAttribute('data-frame'));
/** The frame number burnt into the picture the <video> shows now (null: no readable picture). */
export const shown = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="viewer-video"]');
    if (!v || v.readyState < 2 || !v.videoWidth) return null;
    const c = document.createElement('canvas');
    [c.width, c.height] = [v.videoWidth, v.videoHeight];
    const g = c.getContext('2d')!;
    g.drawImage(v, 0, 0);
    return (globalThis as unknown as { __readFramePattern: (d: Uint8ClampedArray, w: number, h: number, ch: number) => number | null }).__readFramePattern(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
  });
/**
 * Stopped and settled: paused, no seek in flight, and the picture on screen is the one the frame read
 * out shows (`pictureAt`: the frame itself, or for a conformed VFR clip the picture a player shows there).
 */
export async function settled(page: Page, pictureAt: (frame: number) => number = (f) => f): Promise<{ frame: number; picture: number | null }> {
  let last = { frame: -1, picture: null as number | null };
  const end = Date.now() + 6000;
  while (Date.now() < end) {
    const idle = await video(page).evaluate((v) => (v as HTMLVideoElement).paused && !(v as HTMLVideoElement).seeking);
    last = { frame: await readout(page), picture: await shown(page) };
    if (idle && last.picture === pictureAt(last.frame)) return last;
    await page.waitForTimeout(50);
  }
  return last;
}

export async function openViewer(page: Page, clipId: number): Promise<void> {
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

export async function closeViewer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="viewer"]').waitFor({ state: 'detached' });
}

/**
 * Counts, in the page, the distinct burnt-in pictures the viewer presents (one read per presented
 * frame, `requestVideoFrameCallback`) from now until `until`: for `ms` milliseconds, or until the
 * readout reaches `frameAtOrBelow` (bounded by a minute). `waits`: how many times the stage said it
 * waits ("Making the preview of this part…" starts its fade-in once the player has waited 300 ms).
 * Start it, then press the key that plays; await it for the count.
 */
export function countPresentedPictures(page: Page, until: { ms: number } | { frameAtOrBelow: number }): Promise<{ perSecond: number; waits: number }> {
  return page.evaluate(async (u) => {
    const v = document.querySelector('[data-testid="viewer-video"]') as HTMLVideoElement & { requestVideoFrameCallback: (cb: () => void) => number };
    const read = (globalThis as unknown as { __readFramePattern: (d: Uint8ClampedArray, w: number, h: number, ch: number) => number | null }).__readFramePattern;
    const c = document.createElement('canvas');
    [c.width, c.height] = [v.videoWidth, v.videoHeight];
    const g = c.getContext('2d', { willReadFrequently: true })!;
    const seen = new Set<number>();
    let waits = 0;
    const said = (ev: AnimationEvent) => {
      if (ev.animationName === 'viewer-loading-in') waits++;
    };
    document.addEventListener('animationstart', said);
    const t0 = performance.now();
    const more = () =>
      'ms' in u ? performance.now() - t0 < u.ms : Number(document.querySelector('[data-testid="viewer-tc"]')!.getAttribute('data-frame')) > u.frameAtOrBelow;
    await new Promise<void>((done) => {
      const bound = setTimeout(done, 60_000);
      const cb = () => {
        g.drawImage(v, 0, 0);
        const n = read(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height, 4);
        if (n !== null) seen.add(n);
        if (more()) v.requestVideoFrameCallback(cb);
        else {
          clearTimeout(bound);
          done();
        }
      };
      v.requestVideoFrameCallback(cb);
    });
    document.removeEventListener('animationstart', said);
    return { perSecond: seen.size / ((performance.now() - t0) / 1000), waits };
  }, until);
}
