import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { launchBrowser, SCREENSHOT_DIR } from '../harness';

const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');

/** The page works when the shell is up and an RPC answered: Settings lists the ffmpeg in use and where it came from. */
async function works(page: Page): Promise<string> {
  await page.locator('nav.sidebar .nav-item', { hasText: 'Settings' }).click();
  const ffmpeg = page.locator('[data-tool="ffmpeg"]');
  await expect.poll(() => ffmpeg.getByTestId('tool-version').innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/^ffmpeg version /);
  return ffmpeg.getByTestId('tool-source').innerText();
}

describe('web mode in one browser: a restart, and two instances side by side', () => {
  const tmp = tempDir('rs-web-session-');
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  const apps: WebApp[] = [];
  const start = async (name: string, port?: number) => {
    const app = await startWebApp({ dataDir: path.join(tmp.dir, name), rendererDir: RENDERER, port });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  afterAll(async () => {
    await browser?.close();
    for (const a of apps) await a.close().catch(() => undefined);
    tmp.cleanup();
  });

  it('after a restart on the same port, the newly printed URL opens in the same browser (its token replaces the old cookie)', async () => {
    const first = await start('restart');
    const port = Number(new URL(first.server.url).port);
    const page = await context.newPage();
    await page.goto(first.server.openUrl);
    await works(page);
    expect((await context.cookies()).map((c) => c.name)).toContain(`rs_token_${port}`);
    await first.close();

    const again = await start('restart', port);
    expect(again.server.token).not.toBe(first.server.token);
    const res = await page.goto(again.server.openUrl);
    expect(res?.status()).toBe(200);
    const text = await works(page);
    expect(text).toMatch(new RegExp(`^bundled with Reelscout \\(@ffmpeg-installer/${process.platform}-${process.arch} \\d+\\.\\d+\\.\\d+, (L?GPL) version [\\d.]+ or later\\)$`));
    // What the editor reads in Settings: the programs in use and where they came from.
    await page.getByTestId('tools').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-tools-1280.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('tools').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-tools-1920.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    // The address bar no longer carries the token, and a reload rides on the new cookie.
    expect(page.url()).not.toContain('token=');
    await page.reload();
    await works(page);
    await page.close();
  });

  it('two instances in one browser both keep working, each with its own cookie', async () => {
    const a = await start('two-a');
    const b = await start('two-b');
    const pa = await context.newPage();
    const pb = await context.newPage();
    await pa.goto(a.server.openUrl);
    await pb.goto(b.server.openUrl);
    // Reloading each after the other signed in: a shared cookie name let b's cookie replace a's.
    await pa.reload();
    await pb.reload();
    await works(pa);
    await works(pb);
    const names = (await context.cookies()).map((c) => c.name);
    for (const app of [a, b]) expect(names).toContain(`rs_token_${new URL(app.server.url).port}`);
    await pa.screenshot({ path: path.join(SCREENSHOT_DIR, 'web-session-two-instances-a.png') });
    await pb.screenshot({ path: path.join(SCREENSHOT_DIR, 'web-session-two-instances-b.png') });
  });
});
