import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { appCpuSlots } from '../../../src-main/core/pipeline/app-pipeline';
import { tempDir } from '../../helpers/paths';
import { launchApp, type E2eApp } from '../harness';
import { freeBox } from '../../helpers/footage/distinct-copies';

const CLIPS = 300;
const DISTINCT = 12;

/**
 * A card of 300 small clips (12 pictures, each file its own bytes) imported through the UI: every
 * card shows its poster before any clip has gone through its local stages, and "Process again" on
 * one clip really runs it again. (bench:index measures the same at full size.)
 */
describe('a 300-clip card in the Library', () => {
  let e: E2eApp;
  let media: ReturnType<typeof tempDir>;
  let card: string;

  beforeAll(async () => {
    media = tempDir('reelscout-e2e-scale-');
    card = path.join(media.dir, 'CARD_300');
    fs.mkdirSync(card);
    const ffmpeg = ffPath('ffmpeg');
    const bases: Buffer[] = [];
    for (let i = 0; i < DISTINCT; i++) {
      const out = path.join(media.dir, `base${i}.mp4`);
      // The first picture as a camera makes it (1080p at 29.97): the longest meta line a card shows.
      const src = i === 0 ? 'testsrc2=s=1920x1080:r=30000/1001:d=1' : 'testsrc2=s=192x108:r=25:d=2';
      execFileSync(ffmpeg, [
        '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', src,
        '-vf', `hue=h=${i * (360 / DISTINCT)}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out,
      ]);
      bases.push(fs.readFileSync(out));
    }
    for (let i = 0; i < CLIPS; i++) fs.writeFileSync(path.join(card, `C${String(i + 1).padStart(4, '0')}.mp4`), Buffer.concat([bases[i % DISTINCT]!, freeBox(i)]));
    e = await launchApp({ viewport: { width: 1280, height: 720 } });
  }, 120_000);

  afterAll(async () => {
    await e?.close();
    media?.cleanup();
  });

  it('shows a poster on every card before the clips go through their analysis decode', async () => {
    const { page } = e;
    const catalog = new Database(path.join(e.dataDir, 'catalog.sqlite'), { readonly: true, fileMustExist: false });
    try {
      await page.waitForSelector('[data-view="library"]');
      await page.fill('input[aria-label="Import folder path"]', card);
      await page.click('[data-testid="import-submit"]');
      const t0 = Date.now();
      await page.locator('[data-testid="import-summary"]').waitFor({ timeout: 120_000 });
      const imported = Date.now();
      const count = (sql: string) => (catalog.prepare(sql).get() as { n: number }).n;
      const posters = () => count("SELECT COUNT(DISTINCT clip_id) AS n FROM thumbnails WHERE kind = 'poster'");
      // The pipeline probes (its first stage): the first posters come while most of the card has
      // not been probed yet, not after the last of 300 probes.
      await expect.poll(posters, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      const unprobedAtFirstPoster = count("SELECT COUNT(*) AS n FROM clips WHERE status = 'pending'");
      const firstPoster = Date.now();
      expect(unprobedAtFirstPoster).toBeGreaterThan(CLIPS / 2);
      await expect.poll(posters, { timeout: 120_000, interval: 100 }).toBe(CLIPS);
      console.log(
        `300 clips: catalogued in ${((imported - t0) / 1000).toFixed(1)} s, first poster ${((firstPoster - t0) / 1000).toFixed(1)} s (${unprobedAtFirstPoster} clips not probed yet), every poster ${((Date.now() - t0) / 1000).toFixed(1)} s after the drop`,
      );
      // The instant the last poster landed: the card's lead clip (which runs through every stage on
      // one slot meanwhile) and the few clips the other slots took up while the last posters were
      // being made may have their shots; the rest of the 300 waited for the posters.
      const shotsDone = count('SELECT COUNT(*) AS n FROM clips WHERE shots_at IS NOT NULL');
      expect(shotsDone).toBeLessThanOrEqual(1 + 2 * appCpuSlots());

      const imgs = page.locator('.clip-card[data-clip-id] img');
      await expect.poll(() => imgs.evaluateAll((els) => els.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length), { timeout: 30_000 }).toBeGreaterThan(8);
      // At 1280 px a card reads its resolution, rate and codec whole, beside where the clip is.
      const hd = page.locator('.clip-card', { hasText: 'C0001.mp4' });
      const meta = await hd.locator('.clip-meta > span').evaluateAll((spans) => spans.map((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth })));
      expect(meta).toEqual([
        { text: '1920×1080', cut: false },
        { text: '29.97 fps', cut: false },
        { text: 'h264', cut: false },
      ]);
      expect(await hd.locator('[data-testid="clip-status"]').isVisible()).toBe(true);
      await e.screenshot('library-300-posters');
      expect(e.pageErrors).toEqual([]);
    } finally {
      catalog.close();
    }
  }, 240_000);

  it('"Process again" runs the opened clip through its stages again', async () => {
    const { page } = e;
    const first = page.locator('.clip-card[data-clip-id]').first();
    const clipId = Number(await first.getAttribute('data-clip-id'));
    await first.click(); // opening a clip puts it first in the queue
    await page.mouse.move(0, 0); // a pointer over the card scrubs its filmstrip instead of showing the poster
    await expect.poll(() => first.getAttribute('data-status'), { timeout: 90_000 }).toBe('done');
    const detail = page.locator('[data-testid="clip-detail"]');
    const posterOf = () => page.locator(`.clip-card[data-clip-id="${clipId}"] img`).getAttribute('src');
    const before = await posterOf();
    await detail.getByRole('button', { name: 'Process again' }).click();
    await page.mouse.move(0, 0);
    // The restart drops its thumbnails and shots and makes them anew: a new poster set, ready again.
    await expect.poll(async () => (await posterOf()) !== before && (await first.getAttribute('data-status')) === 'done', { timeout: 90_000 }).toBe(true);
    await e.screenshot('library-process-again');
    expect(e.pageErrors).toEqual([]);
  }, 180_000);
});
