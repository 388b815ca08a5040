import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startWebApp, type WebApp, type WebAppOptions } from '../../src-main/web/web-app';
import { REPO_ROOT, tempDir } from '../helpers/paths';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');

export interface E2eApp {
  app: WebApp;
  browser: Browser;
  page: Page;
  dataDir: string;
  /** Browser console errors and page errors seen so far: a test can assert there are none. */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * The real app core and web transport in this process, the built renderer in Debian's Chromium.
 * `prepare` runs against the core before the page opens (e.g. to point it at an emulator).
 */
export async function launchApp(
  opts: { dataDir?: string; viewport?: { width: number; height: number }; beforeGoto?: (page: Page) => Promise<unknown>; remote?: WebAppOptions['remote']; minFreeBytes?: number } = {},
): Promise<E2eApp> {
  const tmp = opts.dataDir ? null : tempDir('reelscout-e2e-');
  const dataDir = opts.dataDir ?? tmp!.dir;
  const app = await startWebApp({ dataDir, rendererDir: path.join(REPO_ROOT, 'out', 'renderer'), remote: opts.remote, minFreeBytes: opts.minFreeBytes });
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1360, height: 860 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // Chromium's own line names no address: the response below records it with its address instead.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`Failed to load resource: ${r.status()} ${r.url()}`);
  });
  await opts.beforeGoto?.(page);
  await page.goto(app.server.openUrl);
  return {
    app,
    browser,
    page,
    dataDir,
    pageErrors,
    async screenshot(name) {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async close() {
      await browser.close();
      await app.close();
      tmp?.cleanup();
    },
  };
}
