import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportDocument, ExportItem } from '../../src-main/core/export/export-model';
import { writeExport } from '../../src-main/core/export/write-export';
import { REPO_ROOT } from '../helpers/paths';

/**
 * Issue 42, item 8: three hand-off details independent readers found. A marker text that starts
 * like a formula, a 29.97 non-drop source inside a drop-frame list, and a file name whose accents
 * and CJK characters were spelled 7-bit on the very line NLEs relink by. EDLs are read back by
 * OpenTimelineIO's cmx_3600 reader (a reader that shares nothing with the writer).
 */
const OUT = path.join(REPO_ROOT, 'test-results', 'exports', 'handoff-details');
const r25 = { num: 25, den: 1 };

function item(over: Partial<ExportItem>): ExportItem {
  return {
    clipId: 1, name: 'x', fileName: 'x.mov', path: '/m/x.mov', reel: null, rate: r25, vfr: false, dropFrame: false, startFrame: 0, durationFrames: 500, width: 1920, height: 1080,
    audioLayout: [2], audioRate: 48000, inFrame: 0, outFrame: 100, note: '', rating: null, keywords: [], markers: [], ...over,
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
