import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportDocument, ExportItem } from '../../../src-main/core/export/export-model';
import { titleFor } from '../../../src-main/core/export/build-export-document';
import { exportFileName, writeExport } from '../../../src-main/core/export/write-export';
import { framesToTimecode, timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';
import { REPO_ROOT } from '../../helpers/paths';
import { FCPXML_1_10 } from '../../helpers/readers/fcpxml-dtd-rules';
import { at, checkAgainstDtd, expectTime, kids, one, parseXml, type XNode } from '../../helpers/readers/xml-read';
import { parseCsv } from '../../helpers/readers/csv-reader';

/**
 * Issue 11's hand-off files, read back by parsers that are not the writers: Python's
 * xml.etree (and xmllint for well-formedness) for FCPXML and xmeml, JSON.parse for OTIO, fixed
 * columns for the EDL, an RFC 4180 reader for CSV, tabs for Avid markers. Expected frames and
 * times are computed here from the document's numbers. Every file is left in
 * test-results/exports/<rate>/ for a person (or an NLE) to open.
 */
const OUT = path.join(REPO_ROOT, 'test-results', 'exports');

interface RateCase {
  label: string;
  rate: FrameRate;
  df: boolean;
  /** Start timecode of the first file. */
  tc: string;
}
const RATES: RateCase[] = [
  { label: '23.976', rate: { num: 24000, den: 1001 }, df: false, tc: '01:00:00:00' },
  { label: '25', rate: { num: 25, den: 1 }, df: false, tc: '10:00:00:00' },
  { label: '29.97df', rate: { num: 30000, den: 1001 }, df: true, tc: '00:59:58;00' },
  { label: '59.94df', rate: { num: 60000, den: 1001 }, df: true, tc: '01:00:00;00' },
];

const NOTE = 'Check focus & <exposure> "soon" — café';

function documentAt(c: RateCase): ExportDocument {
  const startFrame = timecodeToFrames(c.tc, c.rate)!;
  const base = { rate: c.rate, vfr: false, dropFrame: c.df, width: 1920, height: 1080, audioLayout: [2], audioRate: 48000, reel: null };
  const a001: Omit<ExportItem, 'name' | 'inFrame' | 'outFrame' | 'note' | 'rating' | 'keywords' | 'markers'> = {
    ...base,
    clipId: 1,
    fileName: 'A001 #take.mov',
    path: '/Volumes/CARD 01/A001 #take.mov',
    startFrame,
    durationFrames: 600,
    people: [],
  };
  return {
    title: `Selects ${c.label}`,
    sequenceRate: c.rate,
    sequenceDropFrame: c.df,
    items: [
      {
        ...a001,
        name: 'Wide establishing',
        inFrame: 48,
        outFrame: 120,
        note: NOTE,
        rating: 'favorite',
        keywords: ['exterior', 'dusk'],
        markers: [
          { frame: 60, durationFrames: 0, name: 'Shot 2 · Wide, Static', note: 'shotSize: Wide (service)', kind: 'shot' },
          { frame: 90, durationFrames: 12, name: 'dissolve into shot 3', note: 'shot boundary at its middle', kind: 'transition' },
          { frame: 100, durationFrames: 10, name: 'Best line', note: NOTE, kind: 'user' },
        ],
      },
      {
        ...base,
        clipId: 2,
        name: 'B002',
        fileName: 'B002.mxf',
        path: 'C:\\Footage\\Day 2\\B002.mxf',
        startFrame: 0,
        durationFrames: 250,
        audioLayout: [],
        audioRate: null,
        inFrame: 0,
        outFrame: 250,
        note: '',
        rating: 'reject',
        keywords: ['interview', 'b-roll'],
        markers: [],
        people: [],
      },
      { ...a001, name: 'Second take of A001', inFrame: 200, outFrame: 260, note: '', rating: null, keywords: [], markers: [] },
    ],
  };
}

function write(c: RateCase, format: Parameters<typeof writeExport>[0]): { file: string; text: string } {
  const { files } = writeExport(format, documentAt(c));
  expect(files).toHaveLength(1);
  const r = files[0]!;
  const dir = path.join(OUT, c.label);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `selects.${r.fileName.split('.').pop()}`);
  fs.writeFileSync(file, r.text);
  return { file, text: r.text };
}

const tc = (c: RateCase, f: number) => framesToTimecode(f, c.rate, c.df);

describe.each(RATES)('exports at $label', (c) => {
  const doc = documentAt(c);
  const [i1, i2, i3] = doc.items as [ExportItem, ExportItem, ExportItem];

  it('FCPXML 1.10: DTD order and attributes, frame-exact clip, marker, keyword and rating times', () => {
    const { file } = write(c, 'fcpxml');
    const root = parseXml(file);
    expect(root.tag).toBe('fcpxml');
    expect(root.attrs.version).toBe('1.10');
    checkAgainstDtd(root, FCPXML_1_10);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<!DOCTYPE fcpxml>\n/);

    const res = one(root, 'resources');
    const formats = kids(res, 'format');
    expect(formats).toHaveLength(1); // one rate and size
    expectTime(formats[0]!.attrs.frameDuration, 1, c.rate);
    const assets = kids(res, 'asset');
    expect(assets).toHaveLength(2); // A001 used twice, one asset
    const ids = new Set([...formats, ...assets].map((x) => x.attrs.id));
    const a001 = assets.find((a) => a.attrs.name === 'A001 #take')!;
    expectTime(a001.attrs.start, i1.startFrame, c.rate);
    expectTime(a001.attrs.duration, 600, c.rate);
    expect(one(a001, 'media-rep').attrs.src).toBe('file:///Volumes/CARD%2001/A001%20%23take.mov');
    const b002 = assets.find((a) => a.attrs.name === 'B002')!;
    expect(one(b002, 'media-rep').attrs.src).toBe('file:///C:/Footage/Day%202/B002.mxf');
    expect(b002.attrs.hasAudio).toBe('0');
    expect(a001.attrs.audioChannels).toBe('2');

    const clips = kids(at(root, 'library/event'), 'asset-clip');
    expect(clips.map((x) => x.attrs.name)).toEqual(['Wide establishing', 'B002', 'Second take of A001']);
    for (const cl of clips) expect(ids.has(cl.attrs.ref!) && ids.has(cl.attrs.format!)).toBe(true);
    const [c1, c2, c3] = clips as [XNode, XNode, XNode];
    expectTime(c1.attrs.start, i1.startFrame + 48, c.rate);
    expectTime(c1.attrs.duration, 72, c.rate);
    expect(c1.attrs.tcFormat).toBe(c.df ? 'DF' : 'NDF');
    expect(one(c1, 'note').text).toBe(NOTE);
    const markers = kids(c1, 'marker');
    expect(markers.map((m) => m.attrs.value)).toEqual(['Shot 2 · Wide, Static', 'dissolve into shot 3', 'Best line']);
    expectTime(markers[0]!.attrs.start, i1.startFrame + 60, c.rate);
    expectTime(markers[1]!.attrs.start, i1.startFrame + 90, c.rate);
    expectTime(markers[1]!.attrs.duration, 12, c.rate);
    expect(markers[2]!.attrs.note).toBe(NOTE);
    expect(one(c1, 'keyword').attrs.value).toBe('exterior, dusk');
    expect(one(c1, 'rating').attrs.value).toBe('favorite');
    expectTime(one(c2, 'rating').attrs.start, 0, c.rate);
    expect(one(c2, 'rating').attrs.value).toBe('reject');
    expectTime(c3.attrs.start, i3.startFrame + 200, c.rate);
    expectTime(c3.attrs.duration, 60, c.rate);
    expect(kids(c3, 'rating')).toHaveLength(0);

    // The "Selects" project: the same items one after another on its spine, from 00:00:00:00.
    const project = one(at(root, 'library/event'), 'project');
    expect(project.attrs.name).toBe('Selects');
    const sequence = one(project, 'sequence');
    expect(sequence.attrs.format).toBe(formats[0]!.attrs.id);
    expect(sequence.attrs.tcStart).toBe('0s');
    expect(sequence.attrs.tcFormat).toBe(c.df ? 'DF' : 'NDF');
    expect([sequence.attrs.audioLayout, sequence.attrs.audioRate]).toEqual(['stereo', '48k']);
    expectTime(sequence.attrs.duration, 72 + 250 + 60, c.rate);
    const spine = kids(one(sequence, 'spine'), 'asset-clip');
    expect(spine.map((x) => x.attrs.name)).toEqual(['Wide establishing', 'B002', 'Second take of A001']);
    [0, 72, 322].forEach((off, k) => expectTime(spine[k]!.attrs.offset, off, c.rate));
    [72, 250, 60].forEach((len, k) => expectTime(spine[k]!.attrs.duration, len, c.rate));
    expectTime(spine[0]!.attrs.start, i1.startFrame + 48, c.rate);
    expect(spine.map((x) => x.attrs.ref)).toEqual(clips.map((x) => x.attrs.ref));
    expect(kids(spine[0]!, 'marker').map((m) => m.attrs.value)).toEqual(['Shot 2 · Wide, Static', 'dissolve into shot 3', 'Best line']);
  });

  it('FCP7 XML (xmeml): sequence, clipitems, files and markers field by field', () => {
    const { file } = write(c, 'xmeml');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/<!DOCTYPE xmeml>/);
    const root = parseXml(file);
    expect(root.tag).toBe('xmeml');
    expect(root.attrs.version).toBe('4');
    const seq = one(root, 'sequence');
    const nominal = String(Math.round(c.rate.num / c.rate.den));
    expect(at(seq, 'rate/timebase').text).toBe(nominal);
    expect(at(seq, 'rate/ntsc').text).toBe(c.rate.den === 1001 ? 'TRUE' : 'FALSE');
    expect(at(seq, 'timecode/string').text).toBe(c.df ? '01:00:00;00' : '01:00:00:00');
    expect(at(seq, 'timecode/displayformat').text).toBe(c.df ? 'DF' : 'NDF');
    expect(at(seq, 'duration').text).toBe(String(72 + 250 + 60));
    const items = kids(at(seq, 'media/video/track'), 'clipitem');
    expect(items).toHaveLength(3);
    const num = (n: XNode, p: string) => Number(at(n, p).text);
    expect([num(items[0]!, 'start'), num(items[0]!, 'end'), num(items[0]!, 'in'), num(items[0]!, 'out')]).toEqual([0, 72, 48, 120]);
    expect([num(items[1]!, 'start'), num(items[1]!, 'end'), num(items[1]!, 'in'), num(items[1]!, 'out')]).toEqual([72, 322, 0, 250]);
    expect([num(items[2]!, 'start'), num(items[2]!, 'end'), num(items[2]!, 'in'), num(items[2]!, 'out')]).toEqual([322, 382, 200, 260]);
    const f1 = one(items[0]!, 'file');
    expect(at(f1, 'pathurl').text).toBe('file://localhost/Volumes/CARD%2001/A001%20%23take.mov');
    expect(at(f1, 'timecode/string').text).toBe(c.tc);
    expect(num(f1, 'timecode/frame')).toBe(i1.startFrame);
    expect(num(f1, 'duration')).toBe(600);
    expect(at(f1, 'media/audio/channelcount').text).toBe('2');
    // The same file again is a reference to the first <file> element.
    const f3 = one(items[2]!, 'file');
    expect(f3.attrs.id).toBe(f1.attrs.id);
    expect(f3.children).toHaveLength(0);
    expect(at(one(items[1]!, 'file'), 'pathurl').text).toBe('file://localhost/C:/Footage/Day%202/B002.mxf');
    const markers = kids(items[0]!, 'marker');
    expect(markers.map((m) => [at(m, 'name').text, num(m, 'in'), num(m, 'out')])).toEqual([
      ['Shot 2 · Wide, Static', 60, -1],
      ['dissolve into shot 3', 90, 102],
      ['Best line', 100, 110],
    ]);
    expect(at(markers[2]!, 'comment').text).toBe(NOTE);
    expect(at(items[0]!, 'logginginfo/description').text).toBe(NOTE);
    expect(at(items[0]!, 'logginginfo/lognote').text).toBe('exterior, dusk');
    expect(at(items[0]!, 'logginginfo/good').text).toBe('TRUE');
    expect(at(items[1]!, 'labels/label2').text).toBe('Rejected');
    expect(at(f1, 'timecode/reel/name').text).toBe('A001_TAK');

    // Sound: one audio track per source channel (A001 is stereo, B002 silent), linked to V1.
    const audio = at(seq, 'media/audio');
    const tracks = kids(audio, 'track');
    expect(tracks).toHaveLength(2);
    tracks.forEach((t, k) => {
      const a = kids(t, 'clipitem');
      expect(a.map((x) => [at(x, 'name').text, num(x, 'start'), num(x, 'end'), num(x, 'in'), num(x, 'out')])).toEqual([
        ['Wide establishing', 0, 72, 48, 120],
        ['Second take of A001', 322, 382, 200, 260],
      ]);
      expect(a.map((x) => [at(x, 'sourcetrack/mediatype').text, at(x, 'sourcetrack/trackindex').text])).toEqual([
        ['audio', String(k + 1)],
        ['audio', String(k + 1)],
      ]);
      expect(a.map((x) => one(x, 'file').attrs.id)).toEqual([f1.attrs.id, f1.attrs.id]);
      // Each member of the group lists the whole group: V1 and both channels.
      expect(kids(a[1]!, 'link').map((l) => [at(l, 'linkclipref').text, at(l, 'mediatype').text, at(l, 'clipindex').text])).toEqual([
        ['clipitem-3', 'video', '3'],
        ['clipitem-3-a1', 'audio', '2'],
        ['clipitem-3-a2', 'audio', '2'],
      ]);
    });
    expect(kids(items[0]!, 'link')).toHaveLength(3);
    expect(kids(items[1]!, 'link')).toHaveLength(0);
  });

  it('CMX3600 EDL: every event line column by column, Resolve marker comments', () => {
    const { text } = write(c, 'edl');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(`TITLE: Selects ${c.label}`);
    expect(lines[1]).toBe(`FCM: ${c.df ? 'DROP FRAME' : 'NON-DROP FRAME'}`);
    const events = lines.filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(3);
    const recStart = timecodeToFrames(c.df ? '01:00:00;00' : '01:00:00:00', c.rate)!;
    const expected = [
      { n: '001', reel: 'A001_TAK', ch: 'AA/V', src: [i1.startFrame + 48, i1.startFrame + 120], rec: [recStart, recStart + 72] },
      { n: '002', reel: 'B002', ch: 'V', src: [0, 250], rec: [recStart + 72, recStart + 322] },
      { n: '003', reel: 'A001_TAK', ch: 'AA/V', src: [i3.startFrame + 200, i3.startFrame + 260], rec: [recStart + 322, recStart + 382] },
    ];
    events.forEach((l, i) => {
      const e = expected[i]!;
      // CMX3600 columns (1-based): event 1-3, reel 6-13, channel 15-19, transition 21-24,
      // source In 30-40, source Out 42-52, record In 54-64, record Out 66-76.
      expect(l.length).toBe(76);
      expect(l.slice(0, 3)).toBe(e.n);
      expect(l.slice(3, 5)).toBe('  ');
      expect(l.slice(5, 13).trimEnd()).toBe(e.reel);
      expect(l.slice(14, 19).trimEnd()).toBe(e.ch);
      expect(l.slice(20, 24)).toBe('C   ');
      expect(l.slice(29, 40)).toBe(tc(c, e.src[0]!));
      expect(l.slice(41, 52)).toBe(tc(c, e.src[1]!));
      expect(l.slice(53, 64)).toBe(tc(c, e.rec[0]!));
      expect(l.slice(65, 76)).toBe(tc(c, e.rec[1]!));
      for (const sep of [13, 19, 24, 28, 40, 52, 64]) expect(l[sep]).toBe(' ');
    });
    const comment = (i: number) => lines.slice(lines.indexOf(events[i]!) + 1, lines.indexOf(events[i + 1] ?? '\u0000') === -1 ? undefined : lines.indexOf(events[i + 1]!));
    expect(comment(0)).toContain('* FROM CLIP NAME: A001 #take.mov');
    // The media reference OpenTimelineIO takes, and the path for the conform.
    expect(comment(0)).toContain('* FROM CLIP: file:///Volumes/CARD%2001/A001%20%23take.mov');
    expect(comment(0)).toContain('* SOURCE FILE: /Volumes/CARD 01/A001 #take.mov');
    expect(comment(1)).toContain('* SOURCE FILE: C:\\Footage\\Day 2\\B002.mxf');
    // CMX3600 is 7-bit: the note's dash and accent are spelled plainly.
    expect(comment(0)).toContain('* COMMENT: Check focus & <exposure> "soon" - cafe');
    expect([...text].every((ch) => ch <= '~')).toBe(true);
    const markers = lines.filter((l) => l.startsWith(' |C:')).map((l) => /^ \|C:(ResolveColor\w+) \|M:(.+) \|D:(\d+)$/.exec(l));
    expect(markers.map((m) => [m?.[1], m?.[2], Number(m?.[3])])).toEqual([
      ['ResolveColorGreen', 'Wide establishing', 72],
      ['ResolveColorRed', 'B002', 250],
      ['ResolveColorBlue', 'Second take of A001', 60],
    ]);
  });

  it('OpenTimelineIO: clips, source ranges, media references and markers in media time', () => {
    const { text } = write(c, 'otio');
    const t = JSON.parse(text) as {
      OTIO_SCHEMA: string;
      global_start_time: { value: number; rate: number };
      tracks: { OTIO_SCHEMA: string; children: { OTIO_SCHEMA: string; kind: string; children: Record<string, unknown>[] }[] };
    };
    expect(t.OTIO_SCHEMA).toBe('Timeline.1');
    expect(t.tracks.OTIO_SCHEMA).toBe('Stack.1');
    const track = t.tracks.children[0]!;
    expect([track.OTIO_SCHEMA, track.kind]).toEqual(['Track.1', 'Video']);
    // A stereo source: two audio tracks; the silent B002 leaves a gap of its length on each.
    const audio = t.tracks.children.slice(1);
    expect(audio.map((a) => a.kind)).toEqual(['Audio', 'Audio']);
    for (const a of audio) expect(a.children.map((x) => x.OTIO_SCHEMA)).toEqual(['Clip.2', 'Gap.1', 'Clip.2']);
    const fps = c.rate.num / c.rate.den;
    expect(t.global_start_time.rate).toBeCloseTo(fps, 9);
    type Rt = { OTIO_SCHEMA: string; value: number; rate: number };
    type Tr = { OTIO_SCHEMA: string; start_time: Rt; duration: Rt };
    const clips = track.children as unknown as {
      OTIO_SCHEMA: string;
      name: string;
      source_range: Tr;
      media_references: { DEFAULT_MEDIA: { OTIO_SCHEMA: string; target_url: string; available_range: Tr } };
      active_media_reference_key: string;
      markers: { OTIO_SCHEMA: string; name: string; color: string; marked_range: Tr; comment: string }[];
      metadata: { reelscout: { rating: string | null; keywords: string[]; note: string } };
    }[];
    expect(clips.map((x) => [x.OTIO_SCHEMA, x.name])).toEqual([
      ['Clip.2', 'Wide establishing'],
      ['Clip.2', 'B002'],
      ['Clip.2', 'Second take of A001'],
    ]);
    const c1 = clips[0]!;
    expect(c1.source_range.OTIO_SCHEMA).toBe('TimeRange.1');
    expect(c1.source_range.start_time.OTIO_SCHEMA).toBe('RationalTime.1');
    expect([c1.source_range.start_time.value, c1.source_range.duration.value]).toEqual([i1.startFrame + 48, 72]);
    expect(c1.source_range.start_time.rate).toBeCloseTo(fps, 9);
    expect(c1.active_media_reference_key).toBe('DEFAULT_MEDIA');
    const ref = c1.media_references.DEFAULT_MEDIA;
    expect(ref.OTIO_SCHEMA).toBe('ExternalReference.1');
    expect(ref.target_url).toBe('file:///Volumes/CARD%2001/A001%20%23take.mov');
    expect([ref.available_range.start_time.value, ref.available_range.duration.value]).toEqual([i1.startFrame, 600]);
    expect(c1.markers.map((m) => [m.OTIO_SCHEMA, m.name, m.marked_range.start_time.value, m.marked_range.duration.value])).toEqual([
      ['Marker.2', 'Shot 2 · Wide, Static', i1.startFrame + 60, 0],
      ['Marker.2', 'dissolve into shot 3', i1.startFrame + 90, 12],
      ['Marker.2', 'Best line', i1.startFrame + 100, 10],
    ]);
    expect(c1.metadata.reelscout).toMatchObject({ rating: 'favorite', keywords: ['exterior', 'dusk'], note: NOTE });
    expect(clips[1]!.media_references.DEFAULT_MEDIA.target_url).toBe('file:///C:/Footage/Day%202/B002.mxf');
    expect([clips[2]!.source_range.start_time.value, clips[2]!.source_range.duration.value]).toEqual([i3.startFrame + 200, 60]);
  });

  it('CSV (RFC 4180): one row per item with source timecodes, marks and markers', () => {
    const { text } = write(c, 'csv');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['Name', 'File', 'Path', 'In', 'Out (exclusive)', 'Duration', 'FPS', 'Drop frame', 'Rating', 'Keywords', 'Note', 'Markers', 'People']);
    expect(rows).toHaveLength(4);
    const [, r1, r2, r3] = rows as [string[], string[], string[], string[]];
    expect(r1.slice(0, 6)).toEqual(['Wide establishing', 'A001 #take.mov', '/Volumes/CARD 01/A001 #take.mov', tc(c, i1.startFrame + 48), tc(c, i1.startFrame + 120), tc(c, 72)]);
    expect(r1.slice(7)).toEqual([c.df ? 'yes' : 'no', 'favorite', 'exterior, dusk', NOTE, `${tc(c, i1.startFrame + 60)} Shot 2 · Wide, Static; ${tc(c, i1.startFrame + 90)} dissolve into shot 3; ${tc(c, i1.startFrame + 100)} Best line`, '']);
    expect(r2.slice(2, 5)).toEqual(['C:\\Footage\\Day 2\\B002.mxf', tc(c, 0), tc(c, 250)]);
    expect(r2[8]).toBe('reject');
    expect(r3.slice(3, 5)).toEqual([tc(c, i3.startFrame + 200), tc(c, i3.startFrame + 260)]);
    expect(i2.markers).toHaveLength(0);
  });

  it('Avid marker text: one marker per moment in record timecode of the sequence, user, track, colour, comment, duration', () => {
    const { text } = write(c, 'avid');
    const lines = text.split('\r\n').filter(Boolean).map((l) => l.split('\t'));
    expect(lines.every((f) => f.length === 6)).toBe(true);
    // Items one after another from 01:00:00:00, as the EDL and XML of the same export lay them.
    const rec = timecodeToFrames(c.df ? '01:00:00;00' : '01:00:00:00', c.rate)!;
    expect(lines.map((f) => [f[1], f[2], f[5]])).toEqual([
      [tc(c, rec), 'V1', '72'],
      [tc(c, rec + 60 - 48), 'V1', '1'],
      [tc(c, rec + 90 - 48), 'V1', '12'],
      [tc(c, rec + 100 - 48), 'V1', '10'],
      [tc(c, rec + 72), 'V1', '250'],
      [tc(c, rec + 322), 'V1', '60'],
    ]);
    expect(new Set(lines.map((f) => f[1])).size).toBe(lines.length);
    expect(lines.every((f) => f[0] === 'Reelscout' && ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'].includes(f[3]!))).toBe(true);
    expect(lines[0]![4]).toContain('Wide establishing (favourite)');
    expect(lines[3]![4]).toBe(`Best line: ${NOTE}`);
  });
});

describe('a selection of mixed rates, shared names and reels', () => {
  const r25 = { num: 25, den: 1 };
  const r2997 = { num: 30000, den: 1001 };
  const clip = (over: Partial<ExportItem>): ExportItem => ({
    clipId: 1, name: 'x', fileName: 'x.mov', path: '/m/x.mov', reel: null, rate: r25, vfr: false, dropFrame: false, startFrame: 0, durationFrames: 500, width: 1920, height: 1080,
    audioLayout: [2], audioRate: 48000, inFrame: 0, outFrame: 100, note: '', rating: null, keywords: [], markers: [], people: [], ...over,
  });
  const doc: ExportDocument = {
    title: 'Mixed',
    sequenceRate: r25,
    sequenceDropFrame: false,
    items: [
      clip({ name: 'Interview take 1', fileName: 'Interview take 1.mov', path: '/m/Interview take 1.mov' }),
      clip({ name: 'Interview take 2', fileName: 'Interview take 2.mov', path: '/m/Interview take 2.mov', rate: r2997, dropFrame: true, startFrame: 107892 }),
      clip({ name: 'Tape', fileName: 'card.mxf', path: '/m/card.mxf', reel: 'A001C003_220101_R1AB' }),
      clip({ name: 'Same tape', fileName: 'card2.mxf', path: '/m/card2.mxf', reel: 'A001C003_220101_R1AB' }),
      clip({ name: 'Japan', fileName: 'é 日本 #1 50%.mov', path: '/m/é 日本 #1 50%.mov', rate: r2997, dropFrame: true }),
    ],
  };

  it('EDL: one list per rate, named so; reels unique per export, the files\' own reels kept', () => {
    const { files, notes } = writeExport('edl', doc);
    expect(files.map((f) => f.fileName)).toEqual(['Mixed 25 fps.edl', 'Mixed 29.97 fps DF.edl']);
    expect(notes).toEqual(['Mixed frame rates: 2 files, one per rate (25 fps, 29.97 fps DF); a list holds one rate.']);
    const events = files.map((f) => f.text.split('\r\n').filter((l) => /^\d{3} /.test(l)));
    expect(events[0]!.map((l) => l.slice(5, 13).trimEnd())).toEqual(['INTERV01', 'A001C003', 'A001C003']);
    expect(events[1]!.map((l) => l.slice(5, 13).trimEnd())).toEqual(['INTERV02', 'E_1_50']);
    expect(files[1]!.text).toMatch(/^FCM: DROP FRAME$/m);
    // Every source timecode of the 29.97 list is drop-frame and every record timecode too.
    expect(events[1]!.every((l) => [l.slice(29, 40), l.slice(41, 52), l.slice(53, 64), l.slice(65, 76)].every((t) => t.includes(';')))).toBe(true);
    expect(files[1]!.text).toContain('* SOURCE FILE: file:///m/%C3%A9%20%E6%97%A5%E6%9C%AC%20%231%2050%25.mov');
    expect(files[1]!.text).toContain('* FROM CLIP NAME: é 日本 #1 50%.mov');
  });

  it('Avid markers: one list per rate; XML formats: one sequence and a note that the rates are conformed', () => {
    expect(writeExport('avid', doc).files.map((f) => f.fileName)).toEqual(['Mixed 25 fps.txt', 'Mixed 29.97 fps DF.txt']);
    for (const f of ['fcpxml', 'xmeml', 'otio'] as const) {
      const { files, notes } = writeExport(f, doc);
      expect(files).toHaveLength(1);
      expect(notes[0]).toMatch(/^Mixed frame rates \(25, 29\.97 fps\): the sequence runs at 25 fps; 2 items at other rates/);
    }
    expect(writeExport('csv', doc).notes).toEqual([]);
  });

  it('Avid markers: markers on one frame are one marker', () => {
    const same = clip({ name: 'Best line', markers: [{ frame: 0, durationFrames: 0, name: 'Shot 1', note: '', kind: 'shot' }, { frame: 40, durationFrames: 5, name: 'a', note: '', kind: 'user' }, { frame: 40, durationFrames: 9, name: 'b', note: '', kind: 'tag' }] });
    const lines = writeExport('avid', { ...doc, items: [same] }).files[0]!.text.split('\r\n').filter(Boolean).map((l) => l.split('\t'));
    expect(lines.map((f) => [f[1], f[4], f[5]])).toEqual([
      ['01:00:00:00', 'Best line | Shot 1', '100'],
      ['01:00:01:15', 'a | b', '9'],
    ]);
  });

  it('names an untitled export after what it holds', () => {
    expect(titleFor([{ name: 'Best line', fileName: 'A001.mov' }])).toBe('Best line');
    expect(titleFor([{ name: 'a', fileName: 'A001.mov' }, { name: 'b', fileName: 'A001.mov' }])).toBe('A001, 2 items');
    expect(titleFor(doc.items)).toBe('5 clips');
    expect(titleFor([{ name: 'a', fileName: 'A001.mov' }, { name: 'b', fileName: 'A001.mov' }, { name: 'c', fileName: 'B002.mov' }])).toBe('3 items from 2 clips');
    expect(titleFor([{ name: 'a', fileName: 'A001.mov' }, { name: 'b', fileName: 'B002.mov' }])).toBe('2 clips');
    expect(exportFileName('A001 10:00:03:00–10:00:05:24', 'fcpxml')).toBe('A001 10.00.03.00–10.00.05.24.fcpxml');
  });
});
