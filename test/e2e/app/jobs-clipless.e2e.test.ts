import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { callOk } from '../../helpers/app/app-call';
import { launchApp, type E2eApp } from '../harness';

const KEY = 'rs-e2e-clipless-3f8a1c';

/**
 * The reference queries are a job for no clip: while they are encoded (right after a key is set),
 * the Jobs view's clip counters stay at the clips and the job is said apart under them.
 */
describe('Jobs view: a clip-less job is not a running clip', () => {
  let emu: EmulatorHandle;
  let e: E2eApp;

  beforeAll(async () => {
    // A slow service keeps the 64 reference queries encoding long enough to look at.
    emu = await startEmulator({ keys: [KEY], latencyMs: 250 });
    e = await launchApp({ viewport: { width: 1280, height: 720 } });
  }, 60_000);

  afterAll(async () => {
    await e?.close();
    await emu?.close();
  });

  it('shows 0 clips running and the reference queries apart, at 1280x720 and 1920x1080', async () => {
    const { page } = e;
    await page.waitForSelector('nav.sidebar');
    await page.click('[data-nav="jobs"]');
    await page.waitForSelector('[data-testid="jobs-summary"]');
    await callOk(e.app.core, 'settings.update', { baseUrls: { asia: emu.url } });
    await callOk(e.app.core, 'settings.setApiKey', { key: KEY });

    const other = page.locator('[data-testid="other-jobs"]');
    await other.waitFor({ timeout: 20_000 });
    await expect.poll(() => other.textContent(), { timeout: 20_000 }).toBe('Also running: Reference queries');
    expect(await page.locator('[data-testid="clips-running"]').textContent()).toBe('0');
    expect(await page.locator('[data-testid="clips-waiting"]').textContent()).toBe('0');
    await e.screenshot('jobs-clipless-1280x720');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('jobs-clipless-1920x1080');
    expect(e.pageErrors).toEqual([]);
  });
});
