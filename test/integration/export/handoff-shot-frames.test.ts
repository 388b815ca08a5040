import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipDetail } from '../../../src-shared/contract/library';
import { framesToTimecode, shotFrames, timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';
import { createExportHandlers } from '../../../src-main/core/export/export-handlers';
import { createPresenceStore } from '../../../src-main/core/people/presence-store';
import type { DesktopShell } from '../../../src-main/core/files/files-handlers';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { marksOfRange, rangeOfFrames } from '../../../src-renderer/src/components/viewer/marks';
import { tcFrame, timebaseOf } from '../../../src-renderer/src/components/timecode-format';
import { parseCsv } from '../../helpers/readers/csv-reader';
import { expectTime } from '../../helpers/readers/xml-read';
import { makeClip } from '../../helpers/footage/handoff-clips';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { callOk } from '../../helpers/app/app-call';

/**
 * Issue 25, point 1: a shot starts on its cut frame everywhere. Cuts at frame numbers whose times
 * are not whole hundredths of a second (23.976: frames 41 and 89, 1.7100 s and 3.7120 s; 29.97:
 * frames 47 and 101) are made with ffmpeg, found by the app's own analysis, and read back from the
 * shot list, the viewer's In (both the way the shot list opens a shot and from the stored times,
 * as a search result opens one) and every export format.
 */
const CASES = [
  { name: 'cuts 23976.mov', rate: '24000/1001', r: { num: 24000, den: 1001 }, frames: 130, cuts: [41, 89], timecode: '01:00:00:00' },
  { name: 'cuts 2997.mov', rate: '30000/1001', r: { num: 30000, den: 1001 }, frames: 150, cuts: [47, 101], timecode: '01:00:59;00' },
] as const;

let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
const clips = new Map<string, ClipDetail>();

const call = <T = unknown>(m: string, a: unknown = {}) => callOk<T>(app.core, m, a);

beforeAll(async () => {
  tmp = tempDir('rs-shot-frames-');
  const footage = path.join(tmp.dir, 'card');
  fs.mkdirSync(footage);
  for (const c of CASES) makeClip(footage, { name: c.name, rate: c.rate, frames: c.frames, cuts: [...c.cuts], timecode: c.timecode, audio: [2] });
  app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: path.join(REPO_ROOT, 'out', 'renderer') });
  await call('library.import', { paths: [footage] });
  const list = await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name' });
  for (const c of CASES) {
    const id = list.items.find((x) => x.name === c.name)!.id;
    const end = Date.now() + 90_000;
    for (;;) {
      const clip = await call<ClipDetail>('library.get', { clipId: id });
      if (clip.shots.length > c.cuts.length) {
        clips.set(c.name, clip);
        break;
      }
      if (clip.status === 'error' || Date.now() > end) throw new Error(`${c.name}: ${clip.shots.length} shots (${clip.status} ${clip.statusReason ?? ''})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}, 150_000);

afterAll(async () => {
  await app?.close();
  tmp?.cleanup();
});

const sourceTc = (rate: FrameRate, label: string, frame: number) => framesToTimecode(timecodeToFrames(label, rate)! + frame, rate, label.includes(';'));

describe.each(CASES)('shots of $name start on their cut frame', (c) => {
  it('in the catalog and the shot list', () => {
    const clip = clips.get(c.name)!;
    expect(clip.shots.map((s) => s.startFrame)).toEqual([0, ...c.cuts]);
    expect(clip.shots.map((s) => shotFrames(s, c.r, false).inFrame)).toEqual([0, ...c.cuts]);
    // The shot list's timecode (ClipDetailPanel) is the cut frame's.
    expect(clip.shots.slice(1).map((s) => tcFrame(clip, shotFrames(s, timebaseOf(clip).rate, false).inFrame))).toEqual(c.cuts.map((f) => sourceTc(c.r, c.timecode, f)));
  });

  it("as the viewer's In, opened from the shot list and from the stored times", () => {
    const clip = clips.get(c.name)!;
    for (const [k, s] of clip.shots.slice(1).entries()) {
      const f = shotFrames(s, c.r, false);
      expect(marksOfRange(rangeOfFrames(f, c.r), c.r)).toEqual(f);
      // A search result or a collection hit opens the viewer at the stored times of the segment.
      expect(marksOfRange({ startS: s.startS, endS: s.endS }, c.r).inFrame).toBe(c.cuts[k]);
    }
  });

  it('in every export: FCPXML, FCP7 XML, EDL, OTIO, CSV and Avid markers', async () => {
    const clip = clips.get(c.name)!;
    const shotIds = clip.shots.map((s) => s.id);
    const build = async (format: string) => (await call<{ files: { fileName: string; text: string }[] }>('export.build', { format, selection: { shotIds }, title: `shots ${c.name}` })).files[0]!;
    const dir = path.join(REPO_ROOT, 'test-results', 'exports', 'shot-frames');
    fs.mkdirSync(dir, { recursive: true });
    const start = timecodeToFrames(c.timecode, c.r)!;
    const tcs = c.cuts.map((f) => sourceTc(c.r, c.timecode, f));

    const fcpxml = await build('fcpxml');
    const xmlFile = path.join(dir, `${c.name}.fcpxml`);
    fs.writeFileSync(xmlFile, fcpxml.text);
    const q = (file: string, xpath: string) => execFileSync('xmllint', ['--xpath', xpath, file]).toString().trim();
    for (const [k, f] of c.cuts.entries()) {
      const t = q(xmlFile, `string(//asset-clip[@name="${c.name.replace('.mov', '')} shot ${k + 2}"]/@start)`);
      expectTime(t, start + f, c.r);
    }

    const xmeml = await build('xmeml');
    const xmemlFile = path.join(dir, `${c.name}.xml`);
    fs.writeFileSync(xmemlFile, xmeml.text);
    expect(c.cuts.map((_, k) => Number(q(xmemlFile, `string(//video//clipitem[name="${c.name.replace('.mov', '')} shot ${k + 2}"]/in)`)))).toEqual([...c.cuts]);

    const edl = (await build('edl')).text.split('\r\n').filter((l) => /^\d{3} /.test(l));
    expect(edl.slice(1).map((l) => l.slice(29, 40))).toEqual(tcs);

    const otio = JSON.parse((await build('otio')).text) as { tracks: { children: { kind: string; children: { source_range: { start_time: { value: number } } }[] }[] } };
    const video = otio.tracks.children.find((t) => t.kind === 'Video')!;
    expect(video.children.slice(1).map((x) => x.source_range.start_time.value)).toEqual(c.cuts.map((f) => start + f));

    const csv = parseCsv((await build('csv')).text);
    expect(csv.slice(2).map((r) => r[3])).toEqual(tcs);

    // Avid: the list is in the sequence's record timecode, the shots one after another from
    // 01:00:00:00, so shot k+2 (which follows shots 1..k+1 of cut-frame lengths) opens at the cut.
    const avid = (await build('avid')).text.split('\r\n').filter(Boolean).map((l) => l.split('\t'));
    const rec = timecodeToFrames(c.timecode.includes(';') ? '01:00:00;00' : '01:00:00:00', c.r)!;
    for (const [k, f] of c.cuts.entries()) {
      const at = avid.filter((x) => x[4]!.includes(`Shot ${k + 2}`)).map((x) => x[1]);
      expect(at).toEqual([framesToTimecode(rec + f, c.r, c.timecode.includes(';'))]);
    }
  });
});

describe('saving an export', () => {
  it('in the desktop app, main builds the files and hands them to the system save dialog; the web transport refuses', async () => {
    const clip = clips.get(CASES[0].name)!;
    const asked: { fileName: string; text: string }[][] = [];
    const shell: DesktopShell = {
      reveal: () => undefined,
      open: async () => undefined,
      startDrag: () => undefined,
      saveFiles: async (files) => {
        asked.push(files);
        return files.map((f) => `/chosen/${f.fileName}`);
      },
    };
    const handlers = createExportHandlers(app.core.db, shell, createPresenceStore(app.core.db, 1));
    const r = await handlers['export.save']({ format: 'edl', selection: { clipIds: [clip.id], rangeIds: [], shotIds: [], spans: [] }, title: 'Day 1 selects' }, { transport: 'electron' });
    expect(r).toMatchObject({ savedTo: ['/chosen/Day 1 selects.edl'], items: 1, skipped: [], notes: [] });
    expect(asked[0]!.map((f) => f.fileName)).toEqual(['Day 1 selects.edl']);
    expect(asked[0]![0]!.text).toMatch(/^TITLE: Day 1 selects\r\n/);
    const web = await app.core.dispatch('export.save', { format: 'edl', selection: { clipIds: [clip.id] } }, { transport: 'test' });
    expect(web.ok).toBe(false);
    if (!web.ok) expect(web.error.message).toMatch(/browser downloads/);
  });
});
