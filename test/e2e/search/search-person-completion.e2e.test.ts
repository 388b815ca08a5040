import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../src-main/core/analysis/analysis-pool';
import { analyzeClip } from '../../../src-main/core/analysis/analyze-clip';
import { storeAnalysis } from '../../../src-main/core/analysis/analysis-store';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile } from '../../helpers/paths';
import { seedPersonOnFaces, storedFaces } from '../../helpers/people/seed-people';
import type { EmbeddedClip } from '../../integration/search/search-fixture';
import { launchApp, type E2eApp } from '../harness';
import { searchableLibrary } from './search-world';

/**
 * Issue 39 in Chromium: `@` in the search box offers the known names (keyboard and mouse), a name
 * with a space goes in quoted, the search then lists the clip the person is in with a person chip,
 * and an `@name` nobody has is said so. People are seeded over the faces the real detection found
 * in a real signing clip (test/helpers/people/seed-people.ts).
 */
const KEY = 'rs-person-e2e-77c1';
let emu: EmulatorHandle;
let e: E2eApp;
let clips: EmbeddedClip[];

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  e = await launchApp({ viewport: { width: 1280, height: 720 } });
  clips = await searchableLibrary(e, emu, KEY, [
    { name: 'book', file: mediaFile('intel_asl_book.mkv') },
    { name: 'sister', file: mediaFile('intel_asl_sister.mkv') },
  ]);
  const db = e.app.core.db;
  const pool = new AnalysisPool({ size: 1 });
  try {
    for (const c of clips) {
      const shots = db.prepare('SELECT id, start_s AS startS, end_s AS endS FROM shots WHERE clip_id = ?').all(c.clipId) as { id: number; startS: number; endS: number }[];
      const r = await analyzeClip({ filePath: c.file, shots, pool, source: await probeSource(c.file), settings: {}, retainTensors: false });
      storeAnalysis(db, r.shots, { profileId: r.profileId, faceModel: pool.modelPath });
    }
  } finally {
    await pool.close();
  }
  const faces = storedFaces(db);
  seedPersonOnFaces(db, 'Ana María', faces.filter((f) => f.clipId === clips[0]!.clipId));
  seedPersonOnFaces(db, 'Tom', faces.filter((f) => f.clipId === clips[1]!.clipId));
  seedPersonOnFaces(db, 'Marco', []);
}, 240_000);

afterAll(async () => {
  await e?.close();
  await emu?.close();
});

describe('Search: @ completes known names', () => {
  const box = '#search-query';
  const options = () => e.page.locator('[data-testid="person-completion"] [role="option"]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.personName));
  const selected = () => e.page.locator('[data-testid="person-completion"] [aria-selected="true"]').getAttribute('data-person-name');

  it('offers names as @ is typed; arrows and Enter take one, quoted when it has a space, and the search finds her clip', async () => {
    const { page } = e;
    await page.click('[data-nav="search"]');
    await page.click(box);
    await page.keyboard.type('@ma');
    // Names starting with "ma" first, then those holding it ("Ana María": accents folded).
    await expect.poll(options).toEqual(['Marco', 'Ana María']);
    await page.keyboard.press('ArrowDown');
    expect(await selected()).toBe('Ana María');
    await e.screenshot('search-person-completion-1280');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.inputValue(box)).toBe('@"Ana María" ');
    expect(await page.locator('[data-testid="person-completion"]').count()).toBe(0);
    // Enter again searches: her clip only, with her chip.
    await page.keyboard.press('Enter');
    const cards = page.locator('[data-testid="search-result"]');
    await expect.poll(() => cards.evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.clip)))).toEqual([clips[0]!.clipId]);
    const chip = page.locator('[data-testid="query-chips"] [data-chip="Ana María"]');
    expect(await chip.innerText()).toMatch(/Ana María/);
    await e.screenshot('search-person-results-1280');
  });

  it('Tab takes a name after -@; Esc closes the list and leaves the box as typed; the mouse takes one too', async () => {
    const { page } = e;
    await page.fill(box, '');
    await page.keyboard.type('-@to');
    await expect.poll(options).toEqual(['Tom']);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.inputValue(box)).toBe('-@Tom ');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-query');

    await page.fill(box, '');
    await page.keyboard.type('@m');
    // "Tom" holds an m too: after those starting with it.
    await expect.poll(options).toEqual(['Marco', 'Ana María', 'Tom']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid="person-completion"]').count()).toBe(0);
    expect(await page.inputValue(box)).toBe('@m');

    await page.keyboard.type('a');
    await expect.poll(options).toEqual(['Marco', 'Ana María']);
    await page.locator('[data-person-name="Marco"]').click();
    await expect.poll(() => page.inputValue(box)).toBe('@Marco ');
  });

  it('an @name nobody has is said so', async () => {
    const { page } = e;
    await page.fill(box, '@Zorro interview');
    await page.press(box, 'Enter');
    const notice = page.locator('[data-testid="search-cannot-run"]');
    await notice.waitFor();
    expect(await notice.getAttribute('data-kind')).toBe('not_found');
    expect(await notice.innerText()).toMatch(/Nobody is named “Zorro”/);
    await e.screenshot('search-person-unknown-1280');
    expect(e.pageErrors.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  });
});
