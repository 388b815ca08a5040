import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { API_KEY } from '../../integration/collections/collections-fixture';
import { launchApp, type E2eApp } from '../harness';

describe('Collections view in Chromium against the emulator', () => {
  let emu: EmulatorHandle;
  let e: E2eApp;
  let media: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    emu = await startEmulator({ keys: [API_KEY], videoUploadedMs: 300, videoProcessingMs: 8000 });
    e = await launchApp();
    const call = async (method: string, args: unknown) => {
      const r = await e.app.core.dispatch(method, args, { transport: 'test' });
      if (!r.ok) throw new Error(`${method}: ${r.error.kind}: ${r.error.message}`);
      return r.value;
    };
    await call('settings.update', { baseUrls: { asia: emu.url } });
    await call('settings.setApiKey', { key: API_KEY });
    // Two clips imported into the library: an mp4 sent as it is, a Matroska file sent as a proxy.
    media = tempDir('reelscout-e2e-media-');
    for (const f of ['mdn_friday.mp4', 'intel_asl_thanks.mkv']) fs.copyFileSync(mediaFile(f), path.join(media.dir, f));
    await call('library.import', { paths: [media.dir] });
  });

  afterAll(async () => {
    await e?.close();
    await emu?.close();
    media?.cleanup();
  });

  it('creates a collection and sees it listed, attaches clips from the library and watches them reach Ready', async () => {
    const { page } = e;
    await page.click('[data-nav="collections"]');
    await page.waitForSelector('[data-testid="collections-source"]');
    expect(await page.locator('[data-testid="collections-source"]').innerText()).toMatch(/Up to date with the service/);

    await page.fill('#collection-name', 'Dailies day 1');
    await page.fill('#collection-description', 'Selects for the edit');
    await page.click('[data-action="create-collection"]');
    const item = page.locator('.col-item', { hasText: 'Dailies day 1' });
    await item.waitFor();
    expect(await item.innerText()).toContain('Selects for the edit');
    expect(await page.locator('.col-title h2').innerText()).toBe('Dailies day 1');

    await page.click('[data-action="show-attach"]');
    await page.waitForSelector('.col-picker input[type="checkbox"]');
    expect(await page.locator('.col-picker-name').allInnerTexts()).toEqual(['intel_asl_thanks.mkv', 'mdn_friday.mp4']);
    await page.getByRole('button', { name: 'Select all' }).click();
    await page.click('[data-action="attach-clips"]');
    await page.getByRole('status').filter({ hasText: '2 clips queued for upload' }).waitFor();

    const rows = page.locator('.col-videos tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // On the way: the service's processing shows a progress bar between 0 and 100 %.
    const processing = page.locator('.col-videos tr[data-status="processing"] [role="progressbar"]');
    await processing.first().waitFor({ timeout: 30_000 });
    await e.screenshot('collections-progress');
    await expect.poll(() => page.locator('.col-videos tr[data-status="processed"]').count(), { timeout: 60_000 }).toBe(2);
    const sentAs = await rows.locator('td:nth-child(4)').allInnerTexts();
    expect(new Set(sentAs)).toEqual(new Set(['original', 'proxy']));
    await expect.poll(() => item.innerText()).toContain('2 ready');

    await page.fill('[aria-label="Collection search text"]', 'people talking');
    await page.click('[data-action="collection-search"]');
    await expect.poll(() => page.locator('.col-results li').count()).toBe(2);
    expect(new Set(await page.locator('.col-results li .col-grow').allInnerTexts())).toEqual(new Set(['mdn_friday.mp4', 'intel_asl_thanks.mkv']));

    const shot = await e.screenshot('collections');
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
  });

  it('takes a clip out of the collection with its Remove button, by the keyboard and by the mouse', async () => {
    const { page } = e;
    const rows = page.locator('.col-videos tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await e.screenshot(`collections-remove-${size.width}`);
    }
    const item = page.locator('.col-item', { hasText: 'Dailies day 1' });
    // keyboard: focus the first row's Remove and press Enter
    const first = rows.first();
    const firstName = await first.locator('.col-clip-name').innerText();
    await first.getByRole('button', { name: 'Remove' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator('.col-clip-name').innerText()).not.toBe(firstName);
    await expect.poll(() => item.innerText()).toContain('1 ready');
    await e.screenshot('collections-removed-one');
    // mouse: the last one
    await rows.first().getByRole('button', { name: 'Remove' }).click();
    await page.locator('.col-empty').waitFor();
    // the service keeps both videos (the spec has no delete); the collection lists none here
    expect(emu.stats().byEndpoint['POST /collections/{collection_id}/videos/upload']?.statuses['200']).toBe(2);
    await e.screenshot('collections-removed-all');
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('refreshing while the service is down shows the cached list and says so', async () => {
    const { page } = e;
    await emu.suspend();
    try {
      await page.click('[data-action="refresh-collections"]');
      await expect.poll(() => page.locator('[data-testid="collections-source"]').innerText(), { timeout: 20_000 }).toMatch(/Offline list: cached at .*offline/);
      expect(await page.locator('.col-item', { hasText: 'Dailies day 1' }).count()).toBe(1);
      await page.fill('[aria-label="Collection search text"]', 'anything');
      await page.click('[data-action="collection-search"]');
      await page.getByRole('alert').filter({ hasText: 'cannot be reached' }).waitFor();
      await e.screenshot('collections-offline');
    } finally {
      await emu.resume();
    }
    expect(e.pageErrors).toEqual([]);
  });
});
