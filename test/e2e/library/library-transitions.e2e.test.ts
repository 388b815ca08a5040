import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaFile } from '../../helpers/paths';
import { launchApp, type E2eApp } from '../harness';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';

/**
 * Issue 14 in the Library: a clip edited with a 1 s dissolve is imported through the app; its
 * second shot starts in the middle of the dissolve, and the shot list says which transition opens
 * it and how long it lasts.
 */
let e: E2eApp;
let footage: string;

beforeAll(async () => {
  e = await launchApp({ viewport: { width: 1280, height: 720 } });
  footage = path.join(e.dataDir, 'footage');
  fs.mkdirSync(footage, { recursive: true });
  const n = (i: number, len: number) => `[${i}:v]fps=25,trim=duration=${len},setpts=PTS-STARTPTS,scale=640:360,setsar=1,format=yuv420p[v${i}]`;
  execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', '-i', mediaFile('sam2_04_coffee.mp4'), '-i', mediaFile('intel_car-detection.mp4'),
    '-filter_complex', `${n(0, 3)};${n(1, 3)};[v0][v1]xfade=transition=fade:duration=1:offset=2[out]`, '-map', '[out]', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(footage, 'dissolve.mp4')]);
}, 60_000);

afterAll(async () => {
  await e?.close();
});

describe('Library: shot transitions', () => {
  it('shows the dissolve that opens the second shot, with its length', async () => {
    const call = (m: string, a: unknown) => e.app.core.dispatch(m, a, { transport: 'test' });
    expect((await call('library.import', { paths: [footage] })).ok).toBe(true);
    const { page } = e;
    await page.click('[data-nav="library"]');
    const card = page.locator('.clip-card[data-clip-id]').first();
    await card.waitFor({ timeout: 30_000 });
    const clipId = Number(await card.getAttribute('data-clip-id'));
    await expect
      .poll(async () => ((await call('library.get', { clipId })) as { ok: true; value: { shots: unknown[] } }).value.shots.length, { timeout: 60_000 })
      .toBe(2);
    const detail = ((await call('library.get', { clipId })) as { ok: true; value: { shots: { startS: number; transition: { kind: string; startS: number; endS: number } | null }[] } }).value;
    expect(detail.shots[1]!.transition?.kind).toBe('dissolve');
    // The boundary is the dissolve's middle (2.5 s), its span kept.
    expect(Math.abs(detail.shots[1]!.startS - 2.5)).toBeLessThanOrEqual(0.2);
    await card.click();
    const label = page.locator('[data-testid="clip-detail"] [data-testid="shot-transition"]');
    await label.waitFor({ timeout: 30_000 });
    expect(await label.innerText()).toMatch(/· dissolve \d\.\d s/);
    await e.screenshot('library-shot-transition-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await e.screenshot('library-shot-transition-1920');

    // The viewer's shot strip shows the dissolve's whole span (hatched) across the boundary.
    await page.locator('[data-testid="clip-detail"] [data-action="open-shot"][data-shot="2"]').click();
    const hatch = page.locator('[data-testid="viewer-timeline"] [data-transition-into="2"]');
    await hatch.waitFor({ timeout: 15_000 });
    const strip = (await page.locator('[data-testid="viewer-timeline"]').boundingBox())!;
    const box = (await hatch.boundingBox())!;
    // The 1 s dissolve of the 5 s clip: a fifth of the strip, starting at 2 s.
    expect(box.width / strip.width).toBeGreaterThan(0.15);
    expect(box.width / strip.width).toBeLessThan(0.25);
    expect(Math.abs((box.x - strip.x) / strip.width - 0.4)).toBeLessThan(0.05);
    await e.screenshot('viewer-transition-1920');
    await page.keyboard.press('Escape');

    // The exports carry the transition: a marker as long as the dissolve, where it starts.
    const xml = (await call('export.build', { format: 'fcpxml', selection: { clipIds: [clipId] } })) as { ok: true; value: { files: { text: string }[] } };
    const file = path.join(e.dataDir, 'dissolve.fcpxml');
    fs.writeFileSync(file, xml.value.files[0]!.text);
    const q = (x: string) => execFileSync('xmllint', ['--xpath', x, file]).toString().trim();
    const frames = (t: string) => {
      const m = /^(\d+)(?:\/(\d+))?s$/.exec(t)!;
      return (Number(m[1]) / Number(m[2] ?? 1)) * 25;
    };
    const t = detail.shots[1]!.transition!;
    expect(q('string(//marker[starts-with(@value, "dissolve")]/@value)')).toBe('dissolve into shot 2');
    expect(Math.abs(frames(q('string(//marker[starts-with(@value, "dissolve")]/@start)')) - Math.floor(t.startS * 25))).toBeLessThanOrEqual(1);
    expect(Math.abs(frames(q('string(//marker[starts-with(@value, "dissolve")]/@duration)')) - (t.endS - t.startS) * 25)).toBeLessThanOrEqual(2);
    const edl = (await call('export.build', { format: 'otio', selection: { clipIds: [clipId] } })) as { ok: true; value: { files: { text: string }[] } };
    const markers = JSON.parse(edl.value.files[0]!.text).tracks.children[0].children[0].markers as { name: string; marked_range: { duration: { value: number } } }[];
    expect(markers.find((m) => m.name === 'dissolve into shot 2')!.marked_range.duration.value).toBeGreaterThan(10);
  });
});
