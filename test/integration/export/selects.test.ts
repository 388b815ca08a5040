import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { otioMissing, readWithOtio } from '../../helpers/readers/otio-reader';
import { callOk } from '../../helpers/app/app-call';

/**
 * Selects (issue 38.2) through the app on a real SQLite catalog: every saved range in one list
 * with its clip's timecode, the Library's "has ranges" filter, search moments saved as ranges
 * counted in the clip's frames as their export counts them, ranges of two clips exported together
 * as items, and a whole clip's EDL carrying its ranges, the files read back by OpenTimelineIO.
 */
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
const MISSING = otioMissing();
let app: WebApp;
let tmp: { dir: string; cleanup: () => void };

const call = <T = unknown>(m: string, a: unknown = {}) => callOk<T>(app.core, m, a);
interface Select {
  id: number;
  clipId: number;
  clipName: string;
  inFrame: number;
  outFrame: number;
  rate: { num: number; den: number };
  name: string;
  note: string;
  keywords: string[];
  clipTimecode: string | null;
  poster: { path: string } | null;
}
const ff = (args: string[]) => execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

const ids: Record<string, number> = {};

beforeAll(async () => {
  tmp = tempDir('rs-selects-');
  const card = path.join(tmp.dir, 'card');
  fs.mkdirSync(card, { recursive: true });
  // A001: 25 fps from 10:00:00:00, 6 s; B001: 29.97 fps without timecode, 4 s; C001: no ranges.
  ff(['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=6', '-timecode', '10:00:00:00', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(card, 'A001.mov')]);
  ff(['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30000/1001:duration=4', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(card, 'B001.mp4')]);
  ff(['-f', 'lavfi', '-i', 'smptebars=size=320x180:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(card, 'C001.mp4')]);
  app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: RENDERER });
  await call('library.import', { paths: [card] });
  const end = Date.now() + 60_000;
  for (;;) {
    const items = (await call<{ items: { id: number; name: string; fps: number | null; timecode: string | null }[] }>('library.list', { sort: 'name' })).items;
    if (items.length === 3 && items.every((c) => c.fps) && items.find((c) => c.name === 'A001.mov')?.timecode) {
      for (const c of items) ids[c.name] = c.id;
      break;
    }
    if (Date.now() > end) throw new Error('clips were not probed in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 90_000);

afterAll(async () => {
  await app?.close();
  tmp?.cleanup();
});

describe('selects', () => {
  const ntsc = { num: 30000, den: 1001 };
  let a1: Select;
  let a2: Select;
  let b1: Select;

  it('lists every saved range of the library with its clip, timecode and keywords', async () => {
    const a = ids['A001.mov']!;
    const b = ids['B001.mp4']!;
    await call('marks.saveRange', { clipId: a, inFrame: 100, outFrame: 125, rate: { num: 25, den: 1 }, name: 'Second take', note: 'best read' });
    await call('marks.saveRange', { clipId: a, inFrame: 25, outFrame: 75, rate: { num: 25, den: 1 }, name: 'First take', keywords: ['interview'] });
    await call('marks.saveRange', { clipId: b, inFrame: 30, outFrame: 90, rate: ntsc, name: 'Bars' });
    const { selects } = await call<{ selects: Select[] }>('selects.list');
    expect(selects.map((s) => [s.clipName, s.name, s.inFrame, s.outFrame])).toEqual([
      ['A001.mov', 'First take', 25, 75],
      ['A001.mov', 'Second take', 100, 125],
      ['B001.mp4', 'Bars', 30, 90],
    ]);
    [a1, a2, b1] = selects as [Select, Select, Select];
    expect(a1).toMatchObject({ clipTimecode: '10:00:00:00', keywords: ['interview'] });
    expect(a2.note).toBe('best read');
    expect(b1).toMatchObject({ clipTimecode: null, rate: ntsc });
    // A deleted range leaves the list.
    const gone = await call<{ id: number }>('marks.saveRange', { clipId: b, inFrame: 0, outFrame: 10, rate: ntsc, name: 'Gone' });
    await call('marks.deleteRange', { rangeId: gone.id });
    expect((await call<{ selects: Select[] }>('selects.list')).selects).toHaveLength(3);
  });

  it('filters the Library to clips with ranges', async () => {
    const listIds = async (args: Record<string, unknown>) => (await call<{ ids: number[] }>('library.ids', { sort: 'name', ...args })).ids;
    expect(await listIds({ hasRanges: true })).toEqual([ids['A001.mov'], ids['B001.mp4']]);
    expect(await listIds({ hasRanges: true, query: 'B0' })).toEqual([ids['B001.mp4']]);
    expect(await listIds({})).toHaveLength(3);
    expect((await call<{ total: number }>('library.list', { hasRanges: true })).total).toBe(2);
  });

  it('saves search moments as ranges on the frames their export writes', async () => {
    const c = ids['C001.mp4']!;
    // Moments as search results carry them: frames of the clip's counting, Out exclusive.
    const moments = [{ clipId: c, inFrame: 12, outFrame: 31 }, { clipId: ids['B001.mp4']!, inFrame: 29, outFrame: 59, name: 'Named moment' }, { clipId: 99_999, inFrame: 0, outFrame: 25 }];
    const r = await call<{ saved: Select[]; skipped: { clipId: number; reason: string }[] }>('selects.saveMoments', { moments });
    expect(r.skipped).toEqual([{ clipId: 99_999, reason: 'clip 99999 is not in the catalog' }]);
    expect(r.saved.map((s) => [s.name, s.inFrame, s.outFrame])).toEqual([
      ['C001 00:00:00:12', 12, 31],
      ['Named moment', 29, 59],
    ]);
    // The same frames as the moment's own export.
    const spanCsv = await call<{ files: { text: string }[] }>('export.build', { format: 'csv', selection: { spans: [moments[0]] } });
    const rangeCsv = await call<{ files: { text: string }[] }>('export.build', { format: 'csv', selection: { rangeIds: [r.saved[0]!.id] } });
    const inOut = (t: string) => t.split('\r\n')[1]!.split(',').slice(3, 6);
    expect(inOut(rangeCsv.files[0]!.text)).toEqual(inOut(spanCsv.files[0]!.text));
    expect((await call<{ ids: number[] }>('library.ids', { sort: 'name', hasRanges: true })).ids).toHaveLength(3);
    const bad = await app.core.dispatch('selects.saveMoments', { moments: [{ clipId: c, inFrame: 50, outFrame: 25 }] }, { transport: 'test' });
    expect(bad.ok).toBe(false);
  });

  describe.skipIf(MISSING !== null)('read back by OpenTimelineIO', () => {
    const dir = () => {
      const d = path.join(tmp.dir, 'out');
      fs.mkdirSync(d, { recursive: true });
      return d;
    };
    const save = (name: string, text: string) => {
      const f = path.join(dir(), name);
      fs.writeFileSync(f, text);
      return f;
    };

    it('exports ranges of two clips together as items (FCP7 XML and FCPXML)', async () => {
      const selection = { rangeIds: [a1.id, b1.id] };
      const xml = await call<{ files: { fileName: string; text: string }[]; items: number }>('export.build', { format: 'xmeml', selection, title: 'Selects' });
      expect(xml.items).toBe(2);
      const [t] = readWithOtio(save('selects.xml', xml.files[0]!.text), 'fcp_xml');
      const clips = t!.tracks.filter((tr) => tr.kind === 'Video').flatMap((tr) => tr.items).filter((i) => i.schema === 'Clip');
      expect(clips.map((c) => c.name)).toEqual(['First take', 'Bars']);
      // A001's In is 10:00:01:00 (frame 900025 at 25); B001's 30 frames from zero (the reader counts NTSC at its timebase, 30).
      expect(clips.map((c) => [Math.round(c.start), Math.round(c.duration)])).toEqual([
        [900_025, 50],
        [30, 60],
      ]);
      const fcpx = await call<{ files: { text: string }[] }>('export.build', { format: 'fcpxml', selection, title: 'Selects' });
      const [x] = readWithOtio(save('selects.fcpxml', fcpx.files[0]!.text), 'fcpx_xml');
      const xclips = x!.tracks.flatMap((tr) => tr.items).filter((i) => i.schema === 'Clip');
      expect(xclips.map((c) => c.name)).toEqual(['First take', 'Bars']);
    });

    it("writes a whole clip's ranges into its EDL as locators", async () => {
      const edl = await call<{ files: { fileName: string; text: string }[] }>('export.build', { format: 'edl', selection: { clipIds: [ids['A001.mov']] } });
      expect(edl.files).toHaveLength(1);
      const [t] = readWithOtio(save('a001.edl', edl.files[0]!.text), 'cmx_3600', 25);
      const [clip] = t!.tracks.flatMap((tr) => tr.items).filter((i) => i.schema === 'Clip');
      expect(clip!.markers.map((m) => [m.name, m.start])).toEqual([
        ['First take', 900_025],
        ['Second take', 900_100],
      ]);
    });
  });
});
