import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { framesToTimecode, timecodeToFrames } from '../../../src-shared/timecode';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { makeColourClips, type EmbeddedClip } from '../../integration/search/search-fixture';
import { searchableLibrary } from './search-world';
import { launchApp, type E2eApp } from '../harness';

/**
 * The Search view in Chromium against the real app core and an in-process emulator: type a query,
 * see results, open one at its time range; then the same with the service gone.
 */

const KEY = 'rs-search-e2e-5e1d7a90';
let emu: EmulatorHandle;
let e: E2eApp;
let clips: EmbeddedClip[];

const call = (method: string, args: unknown) => e.app.core.dispatch(method, args, { transport: 'test' });

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY], asyncPendingMs: 5, asyncProcessingMs: 5 });
  e = await launchApp();
  clips = await searchableLibrary(e, emu, KEY, await makeColourClips(path.join(e.dataDir, 'footage')));
}, 120_000);

afterAll(async () => {
  await e?.close();
  await emu?.close();
});

describe('Search view', () => {
  it('types a query, shows ranked results, and opens one at its time range', async () => {
    const { page } = e;
    await page.click('[data-nav="search"]');
    await page.fill('#search-query', 'blue');
    await page.press('#search-query', 'Enter');
    await page.waitForSelector('[data-testid="search-result"]');
    const twoShot = clips.find((c) => c.name === 'green-then-blue')!;
    const blue = clips.find((c) => c.name === 'blue')!;
    const firstTwo = await page.locator('[data-testid="search-result"]').evaluateAll((els) => els.slice(0, 2).map((el) => Number((el as HTMLElement).dataset.clip)));
    expect(firstTwo.sort()).toEqual([twoShot.clipId, blue.clipId].sort());
    const card = page.locator(`[data-testid="search-result"][data-clip="${twoShot.clipId}"]`).first();
    // Source timecode of the segment, In to its last frame (the fixture clips carry none: counted
    // from zero; they run at 10 fps, so the segment 2-4 s ends on frame 00:00:03:09).
    expect(await card.locator('.sv-range').innerText()).toMatch(/^00:00:02[:;]00–00:00:03[:;]09$/);
    expect(await card.getAttribute('data-source')).toBe('local');
    // Thumbnails load through the media route.
    await expect.poll(() => card.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await e.screenshot('search-results');

    await card.locator('[data-action="open-result"]').click();
    const video = page.locator('[data-testid="viewer"] video');
    await video.waitFor();
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    // The viewer opens at the segment: playhead at its start (2 s), In/Out around it.
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 }).toBeGreaterThanOrEqual(1.95);
    const t = await video.evaluate((v) => (v as HTMLVideoElement).currentTime);
    expect(t).toBeLessThanOrEqual(4.1);
    expect(await page.locator('[data-testid="mark-in"]').innerText()).toMatch(/^00:00:02[:;]00$/);
    const overlay = await page.locator('[data-testid="player-tags"]').innerText();
    expect(overlay).toMatch(/Shot size/);
    expect(overlay).toMatch(/service/);
    await page.waitForTimeout(300);
    const shot = await e.screenshot('search');
    expect(shot).toMatch(/search\.png$/);
    await page.click('[data-action="close-player"]');

    // The results go to the NLE as a selects EDL: one event per result, in rank order, with the
    // result's source timecodes.
    const ranges = await page.locator('[data-testid="search-result"] .sv-range').allInnerTexts();
    await page.selectOption('.sv-summary-row [data-testid="export-format"]', 'edl');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.sv-summary-row [data-action="export"]')]);
    expect(download.suggestedFilename()).toBe('Search blue.edl');
    const edl = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    const events = edl.filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(ranges.length);
    // Cards show In to the last frame; the EDL's Out is the frame after it (the colour clips run at 10 fps).
    const r10 = { num: 10, den: 1 };
    const lastFrame = (out: string) => framesToTimecode(timecodeToFrames(out, r10)! - 1, r10, false);
    events.forEach((l, i) => expect(`${l.slice(29, 40)}–${lastFrame(l.slice(41, 52))}`).toBe(ranges[i]));

    // The same results become saved ranges in one action, and the Selects view lists each with the
    // card's In and last frame.
    await page.click('[data-action="save-as-ranges"]');
    await expect.poll(() => page.locator('[data-testid="save-ranges-status"]').innerText()).toBe(`Saved ${ranges.length} ranges: see Selects`);
    await e.screenshot('search-saved-as-ranges');
    await page.click('[data-nav="selects"]');
    const rows = page.locator('[data-select-row]');
    await expect.poll(() => rows.count()).toBe(ranges.length);
    const listed = await rows.evaluateAll((rs) => rs.map((r) => `${r.children[2]!.textContent}–${r.children[3]!.textContent}`));
    expect(listed.sort()).toEqual([...ranges].sort());
    await page.click('[data-nav="search"]');
  });

  it('says when the service answering is the project\'s emulator, not the real one', async () => {
    const { page } = e;
    // The search above was answered by the emulator, which names itself on every answer.
    const note = page.locator('[data-testid="service-emulator"]');
    await note.waitFor();
    expect(await note.innerText()).toMatch(/^Connected to the Reelscout service emulator: search follows colours and tags, not meaning\./);
    expect(await note.getAttribute('title')).toMatch(/README\.md, "The service emulator"/);
    await page.setViewportSize({ width: 1280, height: 720 });
    await e.screenshot('search-emulator-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('search-emulator-1920');
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('the search follows the box: emptied, a facet browses alone, the count is the chips, an empty Enter leaves nothing stale', async () => {
    const { page } = e;
    const results = page.locator('[data-testid="search-result"]');
    const idsShown = () => results.evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.clip)));
    await page.fill('#search-query', 'blue');
    await page.press('#search-query', 'Enter');
    await results.first().waitFor();
    // The box emptied: no words are searched any more, and no filter is on, so nothing is listed.
    await page.fill('#search-query', '');
    await expect.poll(() => results.count()).toBe(0);

    // One facet, the box still empty: what passes it, by itself, in library order.
    await page.click('[data-action="toggle-filters"]');
    const size = page.locator('[data-filter="shotSize"] [data-tag]').first();
    const move = page.locator('[data-filter="cameraMovement"] [data-tag]').first();
    const [sizeTag, moveTag] = [await size.getAttribute('data-tag'), await move.getAttribute('data-tag')];
    await size.click();
    await page.locator('[data-testid="filters-only"]').waitFor();
    const alone = async (tags: Record<string, string[]>) => {
      const r = (await call('search.text', { text: '', topK: 24, filters: { tags } })) as { ok: true; value: { results: Array<{ clipId: number }>; stats: { allowed: number } } };
      expect(r.ok).toBe(true);
      return r.value;
    };
    const bySize = await alone({ shotSize: [sizeTag!] });
    await expect.poll(idsShown).toEqual(bySize.results.map((x) => x.clipId));
    expect(bySize.results.length).toBeGreaterThan(0);
    for (const card of await results.all()) expect(await card.locator(`[data-field="shotSize"]`).getAttribute('data-tag')).toBe(sizeTag);
    // As many segments as the chip said it would find; no query words were sent, so no score.
    expect(await page.locator('[data-testid="search-summary"]').innerText()).toMatch(new RegExp(`among ${bySize.stats.allowed} segments passing the filters`));
    expect(await size.locator('.sv-chip-count').innerText()).toBe(String(bySize.stats.allowed));
    expect(await page.locator('[data-testid="search-result"] [data-testid="score"]').allInnerTexts()).toEqual(bySize.results.map(() => 'filter match'));
    expect(await page.locator('[data-testid="query-chips"]').count()).toBe(0);

    // Two chips on: the count says two.
    await move.click();
    await expect.poll(() => page.locator('.sv-filters [aria-pressed="true"]').count()).toBe(2);
    await expect.poll(() => page.locator('[data-action="toggle-filters"]').innerText()).toBe('Filters (2)');
    const both = await alone({ shotSize: [sizeTag!], cameraMovement: [moveTag!] });
    await expect.poll(idsShown).toEqual(both.results.map((x) => x.clipId));
    await page.setViewportSize({ width: 1280, height: 720 });
    await e.screenshot('search-facets-alone-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('search-facets-alone-1920');
    await page.setViewportSize({ width: 1360, height: 860 });

    // Filters cleared with the box empty: nothing is searched, nothing stays.
    await page.click('[data-action="clear-filters"]');
    await expect.poll(() => results.count()).toBe(0);
    expect(await page.locator('[data-action="toggle-filters"]').innerText()).toBe('Filters');
    await page.click('[data-action="toggle-filters"]');

    // Enter on an empty box with no filters: the earlier results do not stay.
    await page.fill('#search-query', 'blue');
    await page.press('#search-query', 'Enter');
    await results.first().waitFor();
    await page.fill('#search-query', '');
    await page.press('#search-query', 'Enter');
    await expect.poll(() => results.count()).toBe(0);
    expect(await page.locator('[data-testid="search-summary"]').count()).toBe(0);
    expect(await page.locator('.empty').innerText()).toMatch(/^Type what you need/);
    // The next case starts from "blue" on screen, as the first left it.
    await page.fill('#search-query', 'blue');
    await page.press('#search-query', 'Enter');
    await results.first().waitFor();
  });

  it('narrows the results with filters', async () => {
    const { page } = e;
    const twoShot = clips.find((c) => c.name === 'green-then-blue')!;
    await page.click('[data-action="toggle-filters"]');
    await page.fill('[data-filter="duration-max"]', '3');
    await expect.poll(() => page.locator(`[data-testid="search-result"][data-clip="${twoShot.clipId}"]`).count()).toBe(0);
    expect(await page.locator('[data-testid="search-result"]').count()).toBe(4);
    expect(await page.locator('[data-testid="search-summary"]').innerText()).toMatch(/among 4 segments passing the filters/);
    // Tag chips come from the facets: picking one keeps only segments carrying that tag.
    const chip = page.locator('[data-filter="shotSize"] [data-tag]').first();
    const tag = await chip.getAttribute('data-tag');
    await chip.click();
    await expect.poll(() => page.locator('[data-action="toggle-filters"]').innerText()).toBe('Filters (2)');
    await e.screenshot('search-filters');
    const shown = await page.locator('[data-testid="search-result"]').count();
    const expected = (await call('search.text', { text: 'blue', topK: 24, filters: { durationS: { max: 3 }, tags: { shotSize: [tag] } } })) as { ok: true; value: { results: unknown[] } };
    expect(shown).toBe(expected.value.results.length);
    await page.click('[data-action="clear-filters"]');
    // One card per clip: its two shots are the card and "1 more in this clip".
    await expect.poll(() => page.locator(`[data-testid="search-result"][data-clip="${twoShot.clipId}"]`).count()).toBe(1);
    expect(await page.locator(`[data-testid="search-result"][data-clip="${twoShot.clipId}"] [data-action="more-in-clip"]`).innerText()).toBe('1 more in this clip');
    await page.click('[data-action="toggle-filters"]');
  });

  it('a busy service: the wait shows what it answered and when the app gives up; the query runs once it answers', { timeout: 90_000 }, async () => {
    const { page } = e;
    emu.admin.setConfig({ failureRates: { 504: 1 }, failureEndpoints: ['POST /video_embedding/encode_text'] });
    await page.fill('#search-query', 'teal water');
    await page.press('#search-query', 'Enter');
    const wait = page.locator('[data-testid="search-waiting"]');
    await wait.waitFor({ timeout: 30_000 });
    await expect.poll(() => wait.innerText()).toMatch(/The service is slow\s*it answered 504; trying again \(attempt \d+\), giving up in \d+ s\./);
    const left = Number(/giving up in (\d+) s/.exec(await wait.innerText())![1]);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(45);
    // A 504 is a slow service, never "offline".
    await expect.poll(() => page.locator('[data-testid="search-status"]').getAttribute('data-service')).toBe('slow');
    await e.screenshot('search-service-slow');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('search-service-slow-1920');
    await page.setViewportSize({ width: 1280, height: 720 });
    await e.screenshot('search-service-slow-1280');
    emu.admin.setConfig({ failureRates: { 504: 0 } });
    // The query ran: it is in the history (cached), and its results replaced the earlier ones.
    await page.locator('[data-history="teal water"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('[data-action="search"]').innerText()).toBe('Search');
    await expect.poll(() => wait.count()).toBe(0);
    expect(await page.locator('[data-testid="search-result"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="search-cannot-run"]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="search-status"]').getAttribute('data-service')).toBe('online');
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('offline: earlier queries run from the cache, a new one says why it cannot run', { timeout: 150_000 }, async () => {
    const { page } = e;
    await emu.suspend();
    await page.fill('#search-query', 'BLUE ');
    await page.press('#search-query', 'Enter');
    await expect.poll(() => page.locator('[data-testid="search-from-cache"]').count()).toBe(1);
    await expect.poll(() => page.locator('[data-testid="search-result"]').first().getAttribute('data-source')).toBe('cache');
    expect(await page.locator('[data-testid="search-result"] [data-badge="cache"]').count()).toBeGreaterThan(0);

    await page.fill('#search-query', 'purple');
    await page.press('#search-query', 'Enter');
    const notice = page.locator('[data-testid="search-cannot-run"]');
    // Under a fully loaded 2-core CI machine this once took over 30 s (not reproduced alone, where it
    // takes under a second); the assertion is about what is shown, not how fast.
    await notice.waitFor({ timeout: 90_000 });
    expect(await notice.getAttribute('data-kind')).toBe('offline');
    expect(await notice.getAttribute('data-class')).toBe('offline');
    expect(await notice.innerText()).toMatch(/^Offline/);
    expect(await notice.innerText()).toMatch(/never searched before/);
    await expect.poll(() => page.locator('[data-testid="search-status"]').getAttribute('data-service')).toBe('offline');
    await e.screenshot('search-offline');

    // Find similar from the history's cached query results still works with the service gone.
    await page.click('[data-history="blue"]');
    await page.locator('[data-testid="search-result"] [data-action="find-similar"]').first().click();
    await page.locator('[data-testid="similar-to"]').waitFor();
    expect(await page.locator('[data-testid="search-result"]').count()).toBeGreaterThan(0);
    expect(e.pageErrors.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  });
});
