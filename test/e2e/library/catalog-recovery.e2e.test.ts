import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebApp } from '../../../src-main/web/web-app';
import { mediaFile, tempDir } from '../../helpers/paths';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../../helpers/app/small-disk';
import { launchApp, type E2eApp } from '../harness';

/**
 * What the editor sees of a damaged catalog and of a full disk, in Chromium at 1280x720 and
 * 1920x1080: the recovery screen naming the file, its one-click restore from the keyboard, the
 * library back; the backups in Settings; the read-only banner of a start on a full disk.
 */
describe('catalog recovery screen', () => {
  const tmp = tempDir('rs-e2e-recovery-');
  const footage = path.join(tmp.dir, 'footage');
  fs.mkdirSync(footage);
  fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(footage, 'flower.mp4'));
  fs.copyFileSync(mediaFile('intel_asl_book.mkv'), path.join(footage, 'book.mkv'));
  let e2e: E2eApp | null = null;

  afterAll(async () => {
    await e2e?.close();
    tmp.cleanup();
  });

  /**
   * A data folder with the footage catalogued, closed, and an older backup beside the day's (the
   * first import takes the day's, of the library with its clip).
   */
  const library = async (name: string): Promise<string> => {
    const dataDir = path.join(tmp.dir, name);
    const app = await startWebApp({ dataDir, rendererDir: tmp.dir });
    const env = await app.core.dispatch('library.import', { paths: [footage] }, { transport: 'test' });
    expect(env.ok).toBe(true);
    await app.close();
    const backups = path.join(dataDir, 'backups');
    const daily = fs.readdirSync(backups).find((f) => f.endsWith('-daily.sqlite'))!;
    fs.copyFileSync(path.join(backups, daily), path.join(backups, 'catalog-20261001T081500Z-daily.sqlite'));
    return dataDir;
  };

  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    it(`names the damaged file and restores the newest backup from the keyboard (${viewport.width}x${viewport.height})`, async () => {
      const dataDir = await library(`data-${viewport.width}`);
      fs.truncateSync(path.join(dataDir, 'catalog.sqlite'), 0);
      e2e = await launchApp({ dataDir, viewport });
      const page = e2e.page;
      await page.getByRole('heading', { name: 'The catalog cannot be read' }).waitFor();
      expect(await page.getByTestId('damage-message').textContent()).toContain(path.join(dataDir, 'catalog.sqlite'));
      await e2e.screenshot(`catalog-damaged-${viewport.width}`);
      // The heading has focus; the newest backup's Restore is the next stop.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('restore-backup');
      await page.keyboard.press('Enter');
      await page.locator('[data-view="library"]').waitFor();
      await page.getByText('flower.mp4').first().waitFor();
      await e2e.screenshot(`catalog-restored-${viewport.width}`);
      expect(fs.readdirSync(dataDir).some((f) => f.startsWith('catalog.sqlite.damaged-'))).toBe(true);

      // Settings lists the backups (the restored one, and none replaced: the catalog was damaged).
      await page.locator('[data-nav="settings"]').click();
      await page.getByTestId('catalog').waitFor();
      await page.getByTestId('catalog').scrollIntoViewIfNeeded();
      await e2e.screenshot(`settings-catalog-${viewport.width}`);
      await page.getByTestId('catalog').locator('[data-action="restore-backup"]').first().click();
      await page.locator('[data-action="confirm-restore"]').waitFor();
      await e2e.screenshot(`settings-catalog-confirm-${viewport.width}`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(e2e.pageErrors.filter((m) => !/the catalog|damaged/i.test(m))).toEqual([]);
      await e2e.close();
      e2e = null;
    }, 120_000);
  }

  it('shows the read-only banner of a disk that fills and of a start on a full disk, its figures live, and the wait for room of a first start (1280x720, 1920x1080)', async (ctx) => {
    const disk = path.join(tmp.dir, 'small-disk');
    const cannotMount = mountSmallDisk(disk, 16);
    if (cannotMount) return ctx.skip(cannotMount);
    try {
      const dataDir = path.join(disk, 'data');
      const minFreeBytes = 8 * 1024 * 1024;
      const filler = path.join(disk, 'filler');
      /** Leaves less than the room the app keeps. */
      const fill = () => fillDisk(filler, 2 * 1024 * 1024);
      e2e = await launchApp({ dataDir, viewport: { width: 1280, height: 720 }, minFreeBytes });
      await e2e.app.core.dispatch('library.import', { paths: [footage] }, { transport: 'test' });
      fill();
      // The catalog's state follows the disk while the app runs: read-only, the library still shown.
      const filled = e2e.page.locator('[data-banner="read-only"]');
      await filled.waitFor();
      expect(await filled.textContent()).toContain(dataDir);
      await e2e.page.getByText('flower.mp4').first().waitFor();
      await e2e.screenshot('disk-full-paused-1280');
      // Fuller still: the banner's figures are the disk's now, not the first reading's.
      fillDisk(`${filler}-more`);
      await e2e.page.locator('[data-banner="read-only"]', { hasText: 'has 0 kB free' }).waitFor({ timeout: 15_000 });
      await e2e.page.setViewportSize({ width: 1920, height: 1080 });
      await e2e.screenshot('disk-full-paused-1920');
      fs.rmSync(`${filler}-more`);
      fs.rmSync(filler);
      await filled.waitFor({ state: 'detached', timeout: 15_000 });
      await e2e.close();
      e2e = null;

      fill();
      e2e = await launchApp({ dataDir, viewport: { width: 1280, height: 720 }, minFreeBytes });
      const banner = e2e.page.locator('[data-banner="read-only"]');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(dataDir);
      await e2e.page.getByText('flower.mp4').first().waitFor();
      await e2e.screenshot('disk-full-read-only-1280');
      await e2e.page.setViewportSize({ width: 1920, height: 1080 });
      await e2e.screenshot('disk-full-read-only-1920');
      await e2e.close();
      e2e = null;

      // A first start without room for a catalog: a plain wait with the figures, not damage; the
      // library comes by itself once there is room.
      const firstDir = path.join(disk, 'first');
      fs.mkdirSync(firstDir);
      e2e = await launchApp({ dataDir: firstDir, viewport: { width: 1280, height: 720 }, minFreeBytes });
      await e2e.page.getByRole('heading', { name: 'Not enough room yet' }).waitFor();
      const words = await e2e.page.getByTestId('no-room-message').textContent();
      expect(words).toContain(firstDir);
      expect(words).toMatch(/has \d+(\.\d)? [kM]B free; Reelscout needs at least 9\.2 MB/);
      expect(await e2e.page.getByText('The catalog cannot be read').count()).toBe(0);
      await e2e.screenshot('disk-full-no-room-1280');
      fs.rmSync(filler);
      await e2e.page.locator('[data-view="library"]').waitFor({ timeout: 15_000 });
      await e2e.close();
      e2e = null;
    } finally {
      unmountSmallDisk(disk);
    }
  }, 120_000);
});
