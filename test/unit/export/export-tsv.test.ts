import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportDocument, ExportItem } from '../../../src-main/core/export/export-model';
import { writeExport } from '../../../src-main/core/export/write-export';
import { parseCsv } from '../../helpers/readers/csv-reader';
import { REPO_ROOT } from '../../helpers/paths';

/**
 * Issue 41 item 6c: the CSV keeps line breaks of file names and notes inside quoted cells (one cell
 * to a spreadsheet, a broken record to grep or awk); the TSV export carries the same table one line
 * per item, line breaks and tabs as spaces. Read back by Python's csv module (tab-delimited, no
 * quoting: IANA's text/tab-separated-values has none), a reader that shares nothing with the writer.
 */
const rate = { num: 25, den: 1 };
const item: ExportItem = {
  clipId: 1,
  name: 'Take\t1',
  fileName: 'day one\ninterview.mov',
  path: '/footage/day one\ninterview.mov',
  rate,
  vfr: false,
  dropFrame: false,
  startFrame: 250,
  durationFrames: 500,
  width: 1920,
  height: 1080,
  reel: null,
  audioLayout: [2],
  audioRate: 48000,
  inFrame: 25,
  outFrame: 75,
  note: 'first line\r\nsecond\tline\n"quoted" and, comma',
  rating: 'favorite',
  keywords: ['dusk', 'wide'],
  markers: [{ frame: 30, durationFrames: 0, name: 'laugh', note: '', kind: 'user' }],
  people: [],
};
const doc: ExportDocument = { title: 'Selects', sequenceRate: rate, sequenceDropFrame: false, items: [item, { ...item, clipId: 2, name: '=1+1', note: '' }] };

const READ_TSV = `
import csv, json, sys
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    print(json.dumps(list(csv.reader(f, delimiter='\\t', quoting=csv.QUOTE_NONE))))
`;

describe('the TSV export', () => {
  it('is the CSV table, one line per item, line breaks and tabs as spaces, read back by Python', () => {
    const tsv = writeExport('tsv', doc).files[0]!;
    expect(tsv.fileName).toBe('Selects.tsv');
    expect(tsv.mime).toBe('text/tab-separated-values; charset=utf-8');
    const dir = path.join(REPO_ROOT, 'test-results', 'exports', 'tsv');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, tsv.fileName);
    fs.writeFileSync(file, tsv.text);

    // A line-based tool sees the header and one line per item.
    expect(tsv.text.split('\n').filter(Boolean)).toHaveLength(3);
    const rows = JSON.parse(execFileSync('python3', ['-c', READ_TSV, file], { encoding: 'utf8' })) as string[][];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.length === 13)).toBe(true);

    // The same cells as the CSV's, but for what a line cannot hold.
    const csv = parseCsv(writeExport('csv', doc).files[0]!.text);
    expect(csv[1]![1]).toBe('day one\ninterview.mov');
    expect(csv[1]![10]).toBe('first line\nsecond line\n"quoted" and, comma');
    expect(rows.map((r) => r.slice(0, 10))).toEqual(csv.map((r) => r.slice(0, 10).map((v) => v.replace(/\n/g, ' '))));
    expect(rows[1]).toEqual([
      'Take 1',
      'day one interview.mov',
      '/footage/day one interview.mov',
      '00:00:11:00',
      '00:00:13:00',
      '00:00:02:00',
      '25',
      'no',
      'favorite',
      'dusk, wide',
      'first line second line "quoted" and, comma',
      '00:00:11:05 laugh',
      '',
    ]);
    // A .tsv opens in spreadsheets too: a formula stays text, as in the CSV.
    expect(rows[2]![0]).toBe("'=1+1");
  });
});
