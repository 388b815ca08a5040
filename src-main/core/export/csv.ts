import { framesToTimecode, rateLabel } from '../../../src-shared/timecode';
import { peopleNames, type ExportDocument } from './export-model';
import { csvField, oneLine } from './exchange-text';

export const CSV_HEADER = ['Name', 'File', 'Path', 'In', 'Out (exclusive)', 'Duration', 'FPS', 'Drop frame', 'Rating', 'Keywords', 'Note', 'Markers', 'People'] as const;

/**
 * The table of the items, one row per item under the header, as the CSV and the TSV writers
 * share it: source timecode In and Out (Out is the frame after the last one, as EDLs and NLEs
 * write it, and the header says so), duration as a timecode in the file's own counting (";" when
 * drop-frame), the markers as "timecode name" joined by "; ", and the named people seen in the
 * item (last, so the columns before keep their place) joined by "; ". Text is as the catalog holds it:
 * each writer makes it safe for its format.
 */
export function exportTable(doc: ExportDocument): string[][] {
  const rows: string[][] = [[...CSV_HEADER]];
  for (const it of doc.items) {
    const tc = (f: number) => framesToTimecode(it.startFrame + f, it.rate, it.dropFrame);
    rows.push([
      it.name,
      it.fileName,
      it.path,
      tc(it.inFrame),
      tc(it.outFrame),
      framesToTimecode(it.outFrame - it.inFrame, it.rate, it.dropFrame),
      rateLabel(it.rate),
      it.dropFrame ? 'yes' : 'no',
      it.rating ?? '',
      it.keywords.map(oneLine).join(', '),
      it.note,
      it.markers.map((m) => `${tc(m.frame)} ${oneLine(m.name)}`).join('; '),
      peopleNames(it).map(oneLine).join('; '),
    ]);
  }
  return rows;
}

/**
 * A spreadsheet of the items (RFC 4180). Line breaks in file names and notes are kept inside
 * quoted cells, which spreadsheets read as one cell; line-based tools need the TSV (tsv.ts).
 */
export function writeCsv(doc: ExportDocument): string {
  return exportTable(doc).map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
