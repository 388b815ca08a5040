import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeFileName } from '../../../src-main/core/files/free-file-name';
import { exportSummary } from '../../../src-renderer/src/components/export-outcome';

describe('where an export went, in words', () => {
  it('a browser download says it is in the browser\'s downloads folder and names the files', () => {
    const files = [{ fileName: 'A001 – Best line.fcpxml', mime: 'application/xml', text: '' }];
    expect(exportSummary({ kind: 'downloaded', files, items: 1, skipped: [], notes: [] })).toEqual({
      text: "Downloaded “A001 – Best line.fcpxml” (1 item) to this browser's downloads folder.",
      details: [],
    });
    const two = [{ ...files[0]!, fileName: 'Mixed 25 fps.edl' }, { ...files[0]!, fileName: 'Mixed 29.97 fps DF.edl' }];
    const s = exportSummary({ kind: 'downloaded', files: two, items: 5, skipped: [{ reason: 'x.mp4 lives at a URL' }], notes: ['Mixed frame rates: 2 files, one per rate'] });
    expect(s.text).toBe("Downloaded “Mixed 25 fps.edl”, “Mixed 29.97 fps DF.edl” (5 items) to this browser's downloads folder.");
    expect(s.details).toEqual(['1 clip left out: x.mp4 lives at a URL', 'Mixed frame rates: 2 files, one per rate']);
  });

  it('the desktop app says the path it saved to, or that nothing was saved', () => {
    expect(exportSummary({ kind: 'saved', paths: ['/Users/ed/Documents/A001.xml'], items: 3, skipped: [], notes: [] }).text).toBe('Saved /Users/ed/Documents/A001.xml (3 items).');
    expect(exportSummary({ kind: 'cancelled', paths: [], items: 3, skipped: [], notes: [] }).text).toBe('Not saved: the save dialog was closed.');
    expect(exportSummary({ kind: 'failed', message: 'nothing selected to export' }).text).toBe('Export failed: nothing selected to export');
  });
});

describe('free file names in a chosen folder', () => {
  it('keeps the name when free, else numbers it before the extension', () => {
    const taken = new Set([path.join('/d', 'A.edl'), path.join('/d', 'A 2.edl')]);
    expect(freeFileName('/d', 'B.edl', (p) => taken.has(p))).toBe(path.join('/d', 'B.edl'));
    expect(freeFileName('/d', 'A.edl', (p) => taken.has(p))).toBe(path.join('/d', 'A 3.edl'));
  });
});
