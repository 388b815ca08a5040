import type { ExportFormat, ExportDocument } from './export-model';
import { writeAvidMarkers } from './avid-markers';
import { writeCsv } from './csv';
import { writeEdl } from './edl';
import { writeFcpxml } from './fcpxml';
import { writeOtio } from './otio';
import { writeXmeml } from './xmeml';

const WRITERS: Record<ExportFormat, { ext: string; mime: string; write: (d: ExportDocument) => string }> = {
  fcpxml: { ext: 'fcpxml', mime: 'application/xml', write: writeFcpxml },
  xmeml: { ext: 'xml', mime: 'application/xml', write: writeXmeml },
  edl: { ext: 'edl', mime: 'text/plain', write: writeEdl },
  avid: { ext: 'txt', mime: 'text/plain', write: writeAvidMarkers },
  csv: { ext: 'csv', mime: 'text/csv', write: writeCsv },
  otio: { ext: 'otio', mime: 'application/json', write: writeOtio },
};

/** A file name the user's system accepts, from the export's title. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base = [...title].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').trim().slice(0, 120) || 'Reelscout export';
  return `${base}.${WRITERS[format].ext}`;
}

export function writeExport(format: ExportFormat, doc: ExportDocument): { fileName: string; mime: string; text: string } {
  const w = WRITERS[format];
  return { fileName: exportFileName(doc.title, format), mime: w.mime, text: w.write(doc) };
}
