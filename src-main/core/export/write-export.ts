import type { ExportFile } from '../../../src-shared/contract/export';
import type { ExportFormat, ExportDocument } from './export-model';
import { writeAvidMarkerLists } from './avid-markers';
import { writeCsv } from './csv';
import { writeEdls } from './edl';
import { writeFcpxml } from './fcpxml';
import { writeOtio } from './otio';
import { writeTsv } from './tsv';
import { mixedRateNote } from './sequence';
import { writeXmeml } from './xmeml';

type Parts = { title: string; text: string }[];
const one = (write: (d: ExportDocument) => string) => (d: ExportDocument): Parts => [{ title: d.title, text: write(d) }];

/**
 * Each format: its extension, the type (and encoding) the file is handed over with, and its
 * writer. `perRate` formats write one file per frame rate; `sequence` formats lay every item on
 * one sequence at the first item's rate and say so when rates are mixed.
 */
const WRITERS: Record<ExportFormat, { ext: string; mime: string; write: (d: ExportDocument) => Parts; kind: 'perRate' | 'sequence' | 'table' }> = {
  fcpxml: { ext: 'fcpxml', mime: 'application/xml', write: one(writeFcpxml), kind: 'sequence' },
  xmeml: { ext: 'xml', mime: 'application/xml', write: one(writeXmeml), kind: 'sequence' },
  edl: { ext: 'edl', mime: 'text/plain; charset=utf-8', write: writeEdls, kind: 'perRate' },
  avid: { ext: 'txt', mime: 'text/plain; charset=utf-8', write: writeAvidMarkerLists, kind: 'perRate' },
  csv: { ext: 'csv', mime: 'text/csv; charset=utf-8', write: one(writeCsv), kind: 'table' },
  tsv: { ext: 'tsv', mime: 'text/tab-separated-values; charset=utf-8', write: one(writeTsv), kind: 'table' },
  otio: { ext: 'otio', mime: 'application/json', write: one(writeOtio), kind: 'sequence' },
};

/** A file name the user's system accepts, from what the export holds: timecode colons as dots, other reserved characters as "_". */
export function exportFileName(title: string, format: ExportFormat): string {
  const base =
    [...title]
      .map((ch) => (ch === ':' ? '.' : ch < ' ' || ch === '\u007f' || '\\/*?"<>|'.includes(ch) ? '_' : ch))
      .join('')
      .trim()
      .slice(0, 120) || 'Reelscout export';
  return `${base}.${WRITERS[format].ext}`;
}

/** The files of one export and what the user should know about them (rates split or conformed). */
export function writeExport(format: ExportFormat, doc: ExportDocument): { files: ExportFile[]; notes: string[] } {
  const w = WRITERS[format];
  const parts = w.write(doc);
  const notes: string[] = [];
  if (parts.length > 1) notes.push(`Mixed frame rates: ${parts.length} files, one per rate (${parts.map((p) => p.title.slice(doc.title.length).trim()).join(', ')}); a list holds one rate.`);
  else if (w.kind === 'sequence') {
    const note = mixedRateNote(doc);
    if (note) notes.push(note);
  }
  return { files: parts.map((p) => ({ fileName: exportFileName(p.title, format), mime: w.mime, text: p.text })), notes };
}
