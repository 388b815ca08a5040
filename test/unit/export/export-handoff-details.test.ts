import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportDocument, ExportItem } from '../../../src-main/core/export/export-model';
import { writeExport } from '../../../src-main/core/export/write-export';
import { timecodeToFrames } from '../../../src-shared/timecode';
import { otioMissing, readWithOtio } from '../../helpers/readers/otio-reader';
import { REPO_ROOT } from '../../helpers/paths';

/**
 * Issue 42, item 8: three hand-off details independent readers found. A marker text that starts
 * like a formula, a 29.97 non-drop source inside a drop-frame list, and a file name whose accents
 * and CJK characters were spelled 7-bit on the very line NLEs relink by. EDLs are read back by
 * OpenTimelineIO's cmx_3600 reader (a reader that shares nothing with the writer).
 */
const MISSING = otioMissing();
const OUT = path.join(REPO_ROOT, 'test-results', 'exports', 'handoff-details');
const JAPAN = 'é 日本 #1 50%.mov';
const r25 = { num: 25, den: 1 };
const r2997 = { num: 30000, den: 1001 };

function item(over: Partial<ExportItem>): ExportItem {
  return {
    clipId: 1, name: 'x', fileName: 'x.mov', path: '/m/x.mov', reel: null, rate: r25, vfr: false, dropFrame: false, startFrame: 0, durationFrames: 500, width: 1920, height: 1080,
    audioLayout: [2], audioRate: 48000, inFrame: 0, outFrame: 100, note: '', rating: null, keywords: [], markers: [], people: [], ...over,
  };
}

function save(format: 'edl' | 'avid', doc: ExportDocument): { file: string; text: string; fileName: string }[] {
  fs.mkdirSync(OUT, { recursive: true });
  return writeExport(format, doc).files.map((f) => {
    const file = path.join(OUT, f.fileName);
    fs.writeFileSync(file, f.text);
    return { file, text: f.text, fileName: f.fileName };
  });
}

describe('formula-leading text in marker lists (8a)', () => {
  const doc: ExportDocument = {
    title: 'Formulas',
    sequenceRate: r25,
    sequenceDropFrame: false,
    items: [
      item({ name: '=HYPERLINK("http://evil.example","x")', markers: [{ frame: 40, durationFrames: 0, name: '+cmd', note: '', kind: 'user' }] }),
      item({ name: '@SUM(A1:A9)', fileName: 'y.mov', path: '/m/y.mov', markers: [{ frame: 20, durationFrames: 0, name: '\t-2+3', note: 'x', kind: 'tag' }] }),
      item({ name: 'a=b', fileName: 'z.mov', path: '/m/z.mov' }),
    ],
  };

  it('Avid markers: no comment starts with = + - @ (it is written after an apostrophe, as the CSV cell)', () => {
    const comments = save('avid', doc)[0]!.text.split('\r\n').filter(Boolean).map((l) => l.split('\t')[4]!);
    expect(comments.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(comments).toEqual([`'=HYPERLINK("http://evil.example","x")`, `'+cmd`, `'@SUM(A1:A9)`, `'-2+3: x`, 'a=b']);
  });

  it('EDL: no Resolve marker name starts with = + - @', () => {
    const names = save('edl', doc)[0]!.text.split('\r\n').filter((l) => l.startsWith(' |C:')).map((l) => /\|M:(.*) \|D:/.exec(l)![1]!);
    expect(names).toEqual([`'=HYPERLINK("http://evil.example","x")`, `'@SUM(A1:A9)`, 'a=b']);
  });
});

describe.skipIf(MISSING !== null)('EDLs read back by OpenTimelineIO (8b, 8c)', () => {
  it('a 29.97 non-drop source is not listed under FCM: DROP FRAME: it has a non-drop list of its own, read back at its frames', () => {
    const doc: ExportDocument = {
      title: 'Counting',
      sequenceRate: r2997,
      sequenceDropFrame: true,
      items: [
        item({ name: 'DF', fileName: 'df.mov', path: '/m/df.mov', rate: r2997, dropFrame: true, startFrame: timecodeToFrames('01:00:59;28', r2997)!, inFrame: 0, outFrame: 90 }),
        item({ name: 'NDF', fileName: 'ndf.mov', path: '/m/ndf.mov', rate: r2997, dropFrame: false, startFrame: timecodeToFrames('01:00:59:28', r2997)!, inFrame: 0, outFrame: 90 }),
      ],
    };
    const lists = save('edl', doc);
    expect(lists.map((l) => l.fileName)).toEqual(['Counting 29.97 fps DF.edl', 'Counting 29.97 fps.edl']);
    const ndf = lists[1]!;
    expect(ndf.text).toMatch(/^FCM: NON-DROP FRAME$/m);
    expect(ndf.text).not.toMatch(/^FCM: DROP FRAME$/m);
    // Every timecode of the non-drop list, source and record, is written non-drop.
    const events = ndf.text.split('\r\n').filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(1);
    const tcs = [events[0]!.slice(29, 40), events[0]!.slice(41, 52), events[0]!.slice(53, 64), events[0]!.slice(65, 76)];
    expect(tcs).toEqual(['01:00:59:28', '01:01:02:28', '01:00:00:00', '01:00:03:00']);
    const [t] = readWithOtio(ndf.file, 'cmx_3600', 30000 / 1001);
    const clip = t!.tracks.find((x) => x.kind === 'Video')!.items.find((i) => i.schema === 'Clip')!;
    expect(clip.name).toBe('ndf.mov');
    expect(clip.start).toBe(timecodeToFrames('01:00:59:28', r2997));
    expect(clip.duration).toBe(90);
    // The drop-frame list keeps only the drop-frame source, its FCM saying so.
    expect(lists[0]!.text).toMatch(/^FCM: DROP FRAME$/m);
    expect(lists[0]!.text).not.toContain('ndf.mov');
  });

  it('FROM CLIP NAME is the file name as it is (UTF-8): the reader names the clip é 日本 #1 50%.mov, its reference the exact file URL', () => {
    const doc: ExportDocument = { title: 'Names', sequenceRate: r25, sequenceDropFrame: false, items: [item({ name: 'Japan', fileName: JAPAN, path: `/m/${JAPAN}` })] };
    const [list] = save('edl', doc);
    expect(list!.text).toContain(`\r\n* FROM CLIP NAME: ${JAPAN}\r\n`);
    const [t] = readWithOtio(list!.file, 'cmx_3600', 25);
    const clip = t!.tracks.find((x) => x.kind === 'Video')!.items.find((i) => i.schema === 'Clip')!;
    expect(clip.name).toBe(JAPAN);
    expect(clip.targetUrl).toBe('file:///m/%C3%A9%20%E6%97%A5%E6%9C%AC%20%231%2050%25.mov');
    // Only that line carries the name as it is: every other line stays 7-bit, as CMX3600 is.
    const others = list!.text.split('\r\n').filter((l) => !l.startsWith('* FROM CLIP NAME: '));
    expect(others.filter((l) => ![...l].every((c) => c >= ' ' && c <= '~'))).toEqual([]);
  });
});
