import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { frameSync } from '../../../src-main/core/media/frame-sync';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { framesToTimecode } from '../../../src-shared/timecode';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * Ratings, ranges and keywords through the app: stored in the catalog, kept through a re-import
 * and a relink (also onto a file catalogued twice), filtering the Library and search, and
 * travelling in the exports built from the catalog (real ffmpeg clips with a start timecode,
 * real SQLite, the hand-off files parsed back by xmllint and JSON).
 */
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
let footage: string;

type Ok<T> = { ok: true; value: T };
const call = async <T = unknown>(m: string, a: unknown = {}) => {
  const r = await app.core.dispatch(m, a, { transport: 'test' });
  if (!r.ok) throw new Error(`${m}: ${r.error.kind} ${r.error.message}`);
  return (r as Ok<T>).value;
};
interface Range {
  id: number;
  clipId: number;
  inFrame: number;
  outFrame: number;
  name: string;
  rating: string | null;
  keywords: string[];
}
interface Marks {
  rating: string | null;
  keywords: string[];
  ranges: Range[];
}

/** Two 4 s shots (a hard cut at 4 s) at 25 fps from 10:00:00:00, with a tone. */
function makeClip(file: string): void {
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=4',
    '-f', 'lavfi', '-i', 'mandelbrot=size=320x180:rate=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=8',
    '-filter_complex', '[1:v]trim=duration=4,setpts=PTS-STARTPTS,format=yuv420p[b];[0:v]format=yuv420p[a];[a][b]concat=n=2:v=1[v]',
    '-map', '[v]', '-map', '2:a', '-timecode', '10:00:00:00', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file,
  ]);
}

async function waitForShots(clipId: number): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const c = await call<{ shots: unknown[] }>('library.get', { clipId });
    if (c.shots.length >= 2) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('shots never came');
}

beforeAll(async () => {
  tmp = tempDir('rs-marks-');
  footage = path.join(tmp.dir, 'card');
  fs.mkdirSync(footage, { recursive: true });
  makeClip(path.join(footage, 'A001.mov'));
  execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30000/1001:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(footage, 'B001.mp4')]);
  fs.mkdirSync(path.join(tmp.dir, 'phone'));
  // A variable-rate clip (phone-like): 1 s at 30 fps then 1 s at 15 fps, timestamps kept as they are.
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30:duration=1', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=15:duration=1',
    '-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]', ...frameSync('vfr'), '-c:v', 'libx264', '-preset', 'ultrafast', path.join(tmp.dir, 'phone', 'PHONE.mp4'),
  ]);
  app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: RENDERER });
  await call('library.import', { paths: [footage] });
}, 90_000);

afterAll(async () => {
  await app?.close();
  tmp?.cleanup();
});

describe('marks in the catalog', () => {
  let a001: number;
  let b001: number;
  let range: Range;

  it('saves a named range with a note, rates and keywords clips and ranges', async () => {
    const listed = () => call<{ items: { id: number; name: string; timecode: string | null; rate: { num: number; den: number } | null }[] }>('library.list', { sort: 'name' });
    const list = await listed();
    a001 = list.items.find((c) => c.name === 'A001.mov')!.id;
    b001 = list.items.find((c) => c.name === 'B001.mp4')!.id;
    // The pipeline's probe reads the start timecode and rate (its first stage; shots come after).
    await waitForShots(a001);
    expect((await listed()).items.find((c) => c.id === a001)).toMatchObject({ timecode: '10:00:00:00', rate: { num: 25, den: 1 } });
    range = await call<Range>('marks.saveRange', { clipId: a001, inFrame: 75, outFrame: 150, rate: { num: 25, den: 1 }, name: 'Across the cut', note: 'line 1\nline 2' });
    await call('marks.rate', { rangeIds: [range.id], rating: 'favorite' });
    await call('marks.addKeywords', { rangeIds: [range.id], keywords: ['cut', 'Cut'] });
    await call('marks.rate', { clipIds: [b001], rating: 'reject' });
    await call('marks.addKeywords', { clipIds: [a001, b001], keywords: ['day 1'] });
    const m = await call<Marks>('marks.forClip', { clipId: a001 });
    expect(m.keywords).toEqual(['day 1']);
    expect(m.ranges).toHaveLength(1);
    // Keywords are case-insensitive: "Cut" is "cut".
    expect(m.ranges[0]).toMatchObject({ name: 'Across the cut', rating: 'favorite', keywords: ['cut'], inFrame: 75, outFrame: 150 });
    const bad = await app.core.dispatch('marks.saveRange', { clipId: a001, inFrame: 10, outFrame: 10, rate: { num: 25, den: 1 }, name: 'x' }, { transport: 'test' });
    expect(bad.ok).toBe(false);
  });

  it('filters the Library by rating and keyword (search: search-offline.test.ts)', async () => {
    const ids = async (args: Record<string, unknown>) => (await call<{ ids: number[] }>('library.ids', { sort: 'name', ...args })).ids;
    expect(await ids({ rating: 'favorite' })).toEqual([a001]); // through its range
    expect(await ids({ rating: 'reject' })).toEqual([b001]);
    expect(await ids({ rating: 'not_rejected' })).toEqual([a001]);
    expect(await ids({ keyword: 'DAY 1' })).toEqual([a001, b001]);
    expect(await ids({ keyword: 'cut' })).toEqual([a001]);
    const list = await call<{ items: { id: number; rating: string | null; keywords: string[]; rangeCount: number }[] }>('library.list', { sort: 'rating' });
    expect(list.items.map((c) => c.id)).toEqual([a001, b001]);
    expect(list.items[0]).toMatchObject({ rating: null, keywords: ['day 1'], rangeCount: 1 });
    const kw = await call<{ keywords: { keyword: string; count: number }[] }>('marks.keywords', {});
    expect(kw.keywords).toEqual([
      { keyword: 'cut', count: 1 },
      { keyword: 'day 1', count: 2 },
    ]);
  });

  it('keeps marks through a re-import and a relink, and merges them when the relink lands on a catalogued copy', async () => {
    await call('library.import', { paths: [footage] });
    expect((await call<Marks>('marks.forClip', { clipId: a001 })).ranges.map((r) => r.id)).toEqual([range.id]);

    // The card is copied elsewhere and the copy imported (a second catalogued clip for A001),
    // the copy gets its own mark; then the original folder moves there: relink merges the two.
    const moved = path.join(tmp.dir, 'archive', 'card');
    fs.mkdirSync(path.dirname(moved), { recursive: true });
    fs.cpSync(footage, moved, { recursive: true });
    await call('library.import', { paths: [moved] });
    const copies = (await call<{ items: { id: number; name: string }[] }>('library.list', { query: 'A001' })).items;
    expect(copies).toHaveLength(2);
    const copy = copies.find((c) => c.id !== a001)!.id;
    await call('marks.addKeywords', { clipIds: [copy], keywords: ['archive'] });
    fs.rmSync(footage, { recursive: true });
    const relinked = await call<{ relinked: number }>('library.relink', { fromPath: footage, toPath: moved });
    expect(relinked.relinked).toBe(2);
    const m = await call<Marks>('marks.forClip', { clipId: a001 });
    expect(m.ranges.map((r) => r.id)).toEqual([range.id]);
    expect(m.keywords).toEqual(['archive', 'day 1']);
    expect((await call<{ path: string }>('library.get', { clipId: a001 })).path).toBe(path.join(moved, 'A001.mov'));
    expect((await app.core.dispatch('library.get', { clipId: copy }, { transport: 'test' })).ok).toBe(false);
  });

  it('travels in the exports built from the catalog: range, its marks, the shot boundary inside it', async () => {
    const built = await call<{ files: { fileName: string; text: string }[]; items: number }>('export.build', { format: 'fcpxml', selection: { rangeIds: [range.id], clipIds: [b001] }, title: 'Marks test' });
    const xml = { ...built.files[0]!, items: built.items };
    expect(xml.fileName).toBe('Marks test.fcpxml');
    expect(xml.items).toBe(2);
    // Clips first, then ranges (the contract's order).
    expect(xml.text.indexOf('name="B001"')).toBeLessThan(xml.text.indexOf('name="Across the cut"'));
    const file = path.join(tmp.dir, xml.fileName);
    fs.writeFileSync(file, xml.text);
    const q = (xpath: string) => execFileSync('xmllint', ['--xpath', xpath, file]).toString().trim();
    // 10:00:00:00 at 25 fps is frame 900000; the range is frames 75..150 of the file.
    expect(q('string(//asset-clip[@name="Across the cut"]/@start)')).toBe(`${(900000 + 75) / 25}s`);
    expect(q('string(//asset-clip[@name="Across the cut"]/@duration)')).toBe('3s');
    expect(q('string(//asset-clip[@name="Across the cut"]/@name)')).toBe('Across the cut');
    expect(q('string(//asset-clip[@name="Across the cut"]/note)')).toBe('line 1\nline 2');
    expect(q('string(//asset-clip[@name="Across the cut"]/rating/@value)')).toBe('favorite');
    expect(q('string(//asset-clip[@name="Across the cut"]/keyword/@value)')).toBe('cut, archive, day 1');
    // The hard cut at 4 s (frame 100) lies inside the range: a shot marker at 10:00:04:00.
    expect(q('string(//asset-clip[@name="Across the cut"]/marker[starts-with(@value, "Shot 2")]/@start)')).toBe(`${(900000 + 100) / 25}s`);
    expect(q('string(//asset-clip[@name="B001"]/rating/@value)')).toBe('reject');
    expect(q('string(//asset-clip[@name="B001"]/@tcFormat)')).toBe('DF');

    const csv = (await call<{ files: { text: string }[] }>('export.build', { format: 'csv', selection: { rangeIds: [range.id] } })).files[0]!;
    const row = csv.text.split('\r\n')[1]!;
    expect(row).toContain(`${framesToTimecode(900075, { num: 25, den: 1 }, false)},${framesToTimecode(900150, { num: 25, den: 1 }, false)}`);
    const otio = JSON.parse((await call<{ files: { text: string }[] }>('export.build', { format: 'otio', selection: { shotIds: [], spans: [{ clipId: a001, inFrame: 25, outFrame: 50 }] } })).files[0]!.text);
    const clip = otio.tracks.children[0].children[0];
    expect([clip.source_range.start_time.value, clip.source_range.duration.value]).toEqual([900025, 25]);
    expect(clip.name).toBe('A001 10:00:01:00');
  });

  it('conforms a variable-rate source to the nearest standard rate and says so in the export', async () => {
    await call('library.import', { paths: [path.join(tmp.dir, 'phone')] });
    const listPhone = async () => (await call<{ items: { id: number; name: string; vfr: boolean | null; fps: number | null; rate: { num: number; den: number } | null }[] }>('library.list', { query: 'PHONE' })).items[0]!;
    // Frame rate and its variability are what the pipeline's probe reads.
    await expect.poll(async () => (await listPhone()).vfr, { timeout: 30_000 }).not.toBeNull();
    const phone = await listPhone();
    expect(phone.vfr).toBe(true);
    // Counted at the rate it was shot at (30: no picture between two frames), not its average (22.5).
    expect(phone.fps).toBe(30);
    expect(phone.rate).toEqual({ num: 30, den: 1 });
    const csv = (await call<{ files: { text: string }[] }>('export.build', { format: 'csv', selection: { clipIds: [phone.id] } })).files[0]!;
    const row = csv.text.split('\r\n')[1]!;
    expect(row).toContain(',30,no,');
    expect(row).toContain('variable frame rate source, conformed');
  });
});
