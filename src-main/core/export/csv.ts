import { framesToTimecode, rateLabel } from '../../../src-shared/timecode';
import type { ExportDocument } from './export-model';
import { csvField, oneLine } from './exchange-text';

export const CSV_HEADER = ['Name', 'File', 'Path', 'In', 'Out (exclusive)', 'Duration', 'FPS', 'Drop frame', 'Rating', 'Keywords', 'Note', 'Markers'] as const;

/**
 * A spreadsheet of the items: source timecode In and Out (Out is the frame after the last one, as
 * EDLs and NLEs write it, and the header says so), duration as a timecode in the file's own
 * counting (";" when drop-frame), and the markers as "timecode name" joined by "; ".
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
      it.keywords.map(oneLine).join(', '),
      it.note,
      it.markers.map((m) => `${tc(m.frame)} ${oneLine(m.name)}`).join('; '),
    ]);
  }
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
