import { framesToTimecode, rateLabel } from '../../../src-shared/timecode';
import type { ExportDocument } from './export-model';

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = ['Name', 'File', 'Path', 'In', 'Out', 'Duration', 'FPS', 'Drop frame', 'Rating', 'Keywords', 'Note', 'Markers'] as const;

/**
 * A spreadsheet of the items: source timecode In and Out (Out is the last frame's successor, as
 * NLEs write it), duration as timecode, and the markers as "timecode name" joined by "; ".
 */
export function writeCsv(doc: ExportDocument): string {
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
      it.keywords.join(', '),
      it.note,
      it.markers.map((m) => `${tc(m.frame)} ${m.name}`).join('; '),
    ]);
  }
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
