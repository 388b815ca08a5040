import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import type { WebSocketRoute } from 'playwright-core';
import { launchApp, type E2eApp } from '../harness';
import { insertClip, insertVolume } from '../../helpers/catalog/search-catalog';

const KEY = 'rs-live-7f3a9c1e5b2d4a60';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

describe('settings through the web transport in Chromium', () => {
  let e: E2eApp;
  let emu: EmulatorHandle;
  beforeAll(async () => {
    emu = await startEmulator({ keys: [KEY] });
    e = await launchApp();
  });
  afterAll(async () => {
    await e?.close();
    await emu?.close();
  });

  it('shows the dark shell with its seven sections', async () => {
    const { page } = e;
    await page.waitForSelector('nav.sidebar');
    const labels = await page.locator('nav.sidebar .nav-item').allInnerTexts();
    expect(labels.map((l) => l.replace(/^\W+/, '').trim())).toEqual(['Library', 'Selects', 'Search', 'People', 'Collections', 'Jobs', 'Settings']);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(120);
    await e.screenshot('shell-library');
  });

  it('saves a base URL and API key, and after a reload finds them persisted with the key masked', async () => {
    const { page } = e;
    await page.click('[data-nav="settings"]');
    await page.fill('#base-asia', 'http://127.0.0.1:9/api');
    await page.fill('#api-key', KEY);
    await page.check('input[name="auth"] >> nth=1');
    await page.click('[data-action="save-settings"]');
    await expect.poll(() => page.locator('[data-testid="save-status"]').innerText()).toBe('Saved');

    await page.reload();
    await page.waitForSelector('#base-asia');
    expect(await page.inputValue('#base-asia')).toBe('http://127.0.0.1:9/api');
    expect(await page.inputValue('#api-key')).toBe('');
    const status = await page.locator('[data-testid="key-status"]').innerText();
    expect(status).toContain('4a60');
    expect(status).not.toContain(KEY);
    expect(await page.locator('#api-key').getAttribute('type')).toBe('password');
    expect(await page.isChecked('input[name="auth"] >> nth=1')).toBe(true);
    // USA and China are listed but cannot be chosen.
    expect(await page.locator('#region option[value="usa"]').isDisabled()).toBe(true);
    expect(await page.locator('#region option[value="china"]').isDisabled()).toBe(true);
    expect(await page.locator('#region option[value="asia"]').isDisabled()).toBe(false);
    // The page never holds the key either.
    expect(await page.content()).not.toContain(KEY);
    await e.screenshot('settings-saved');
  });

  it('a failing Test connection reports a kind, not a crash', async () => {
    const { page } = e;
    await page.click('[data-action="test-connection"]');
    const text = await page.locator('[data-testid="test-result"]').innerText({ timeout: 20_000 });
    expect(text).toMatch(/^(offline|timeout|not_found|server|upstream|invalid|auth):/);
  });

  it('Test connection succeeds against the service (the emulator) once the URL points at it and the key is entered for it', async () => {
    const { page } = e;
    await page.fill('#base-asia', emu.url);
    await page.click('[data-action="save-settings"]');
    await expect.poll(() => page.locator('[data-testid="save-status"]').innerText()).toBe('Saved');
    // The stored key belongs to the old address: it is not sent to the new one until entered again.
    const keyStatus = page.locator('[data-testid="key-status"]');
    expect(await keyStatus.getAttribute('data-usable')).toBe('false');
    expect(await keyStatus.innerText()).toMatch(/for http:\/\/127\.0\.0\.1:9: enter the key again for this address/);
    await page.click('[data-action="test-connection"]');
    await expect.poll(() => page.locator('[data-testid="test-result"]').innerText(), { timeout: 20_000 }).toMatch(/^auth: the stored API key is for http:\/\/127\.0\.0\.1:9/);
    expect(emu.stats().totalRequests).toBe(0);
    await e.screenshot('settings-key-other-origin');
    await page.fill('#api-key', KEY);
    await page.click('[data-action="save-settings"]');
    await expect.poll(() => keyStatus.getAttribute('data-usable')).toBe('true');
    await page.click('[data-action="test-connection"]');
    await expect.poll(() => page.locator('[data-testid="test-result"]').innerText(), { timeout: 20_000 }).toMatch(/^Connected in \d+ ms · 0 collection\(s\)$/);
    // Exactly one auth header, the one chosen (Bearer), reached the service.
    const stats = emu.stats();
    expect(stats.bothAuthHeaders).toBe(0);
    expect(stats.authHeaderForms.bearer).toBeGreaterThan(0);
    expect(stats.authHeaderForms['x-api-key']).toBe(0);
    await e.screenshot('settings-connected');
  });

  it('never writes the key in plaintext: not in the settings file, not in the logs, nowhere in the data folder', async () => {
    await e.app.core.dispatch('settings.get', {}, { transport: 'test' });
    e.app.logger.info('probe', { apiKey: KEY, note: `header X-API-Key: ${KEY}` });
    await new Promise((r) => setTimeout(r, 200));
    const files = filesUnder(e.dataDir);
    expect(files.some((f) => f.endsWith('preferences.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('main.log'))).toBe(true);
    for (const f of files) {
      const content = fs.readFileSync(f);
      expect(content.includes(Buffer.from(KEY)), `${path.relative(e.dataDir, f)} contains the key`).toBe(false);
    }
    expect(e.pageErrors).toEqual([]);
  });
});

describe('the web transport after its event stream was closed', () => {
  it('reads settings again when the stream reopens: a key set while no event could reach the page lifts the setup banner', async () => {
    const routes: WebSocketRoute[] = [];
    // The page's first event socket goes nowhere (a socket not yet open, or dropped); the next one reaches the server.
    let settingsReads = 0;
    let lastRead = Date.now();
    const e = await launchApp({
      beforeGoto: (page) => {
        page.on('response', (r) => {
          if (r.url().endsWith('/rpc/settings.get')) [settingsReads, lastRead] = [settingsReads + 1, Date.now()];
        });
        return page.routeWebSocket(/\/events$/, (ws) => (routes.push(ws) > 1 ? void ws.connectToServer() : undefined));
      },
    });
    const ctx = { transport: 'test' as const };
    try {
      await e.page.waitForSelector('[data-banner="setup"]');
      // The first socket opens (routed nowhere) and the page reads its settings again on it: that
      // read must be over before the change, or it would see the change (a loaded machine ran it late).
      await expect.poll(() => routes.length).toBe(1);
      await expect.poll(() => settingsReads > 0 && Date.now() - lastRead > 600, { timeout: 10_000 }).toBe(true);
      expect((await e.app.core.dispatch('settings.update', { baseUrls: { asia: 'http://127.0.0.1:9' } }, ctx)).ok).toBe(true);
      expect((await e.app.core.dispatch('settings.setApiKey', { key: KEY }, ctx)).ok).toBe(true);
      // Its settings.changed reached no page: the page still says cloud indexing is off.
      await e.page.waitForTimeout(800);
      expect(await e.page.locator('[data-banner="setup"]').isVisible()).toBe(true);
      await routes[0]!.close();
      await e.page.waitForSelector('[data-banner="setup"]', { state: 'detached', timeout: 10_000 });
      expect(routes).toHaveLength(2);
      expect(e.pageErrors).toEqual([]);
    } finally {
      await e.close();
    }
  });

  it('lists each drive under Viewing proxies with its own choice, kept after a reload', async () => {
    const app = await launchApp({ viewport: { width: 1280, height: 720 } });
    try {
      const db = app.app.core.db;
      const card = insertVolume(db, '/media/A001_CARD');
      for (let i = 1; i <= 3; i++) insertClip(db, { volumeId: card, relPath: `A001C00${i}.mov`, durationS: 5, fps: 25 });
      const { page } = app;
      await page.click('[data-nav="settings"]');
      const select = page.locator('#proxy-volume-' + card);
      await select.waitFor();
      expect(await page.locator('label[for="proxy-volume-' + card + '"]').innerText()).toContain('A001_CARD (3 clips)');
      expect(await select.inputValue()).toBe('default');
      expect(await select.locator('option').allInnerTexts()).toEqual(['As above (when needed)', 'when needed', 'always', 'never']);
      await select.focus();
      await select.selectOption('never');
      await expect.poll(() => (db.prepare('SELECT proxy_policy FROM volumes WHERE id = ?').get(card) as { proxy_policy: string | null }).proxy_policy).toBe('never');
      await page.locator('[data-testid="proxy-settings"]').scrollIntoViewIfNeeded();
      await app.screenshot('settings-proxy-drives-1280');
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.locator('[data-testid="proxy-settings"]').scrollIntoViewIfNeeded();
      await app.screenshot('settings-proxy-drives-1920');
      await page.reload();
      await page.click('[data-nav="settings"]');
      await expect.poll(() => page.locator('#proxy-volume-' + card).inputValue()).toBe('never');
      expect(app.pageErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
