import { framesToTimecode } from '../../../src-shared/timecode';
import { oneLine } from './exchange-text';
import type { ExportDocument, ExportMarker } from './export-model';

/** Avid's marker colours (its Markers window offers these eight). */
const AVID_COLOR: Record<ExportMarker['kind'], string> = { shot: 'blue', transition: 'cyan', tag: 'green', user: 'yellow' };

/**
 * Media Composer's marker list (Markers window > Import Markers): one marker per line, tab
 * separated: user, timecode, track, colour, comment, duration in frames. Times are the source
 * timecode of each file, so the markers land on the master clip whatever sequence it is cut into.
 * Each item's own In (its name, note and rating) leads its markers.
 */
export function writeAvidMarkers(doc: ExportDocument): string {
  const lines: string[] = [];
  for (const it of doc.items) {
    const tc = (f: number) => framesToTimecode(it.startFrame + f, it.rate, it.dropFrame);
    const head = [it.name, it.rating === 'favorite' ? '(favourite)' : it.rating === 'reject' ? '(reject)' : '', it.note].filter(Boolean).join(' ');
    lines.push(['Reelscout', tc(it.inFrame), 'V1', it.rating === 'reject' ? 'red' : it.rating === 'favorite' ? 'green' : 'white', oneLine(head), String(it.outFrame - it.inFrame)].join('\t'));
    for (const m of it.markers) {
      lines.push(['Reelscout', tc(m.frame), 'V1', AVID_COLOR[m.kind], oneLine([m.name, m.note].filter(Boolean).join(': ')), String(Math.max(1, m.durationFrames))].join('\t'));
    }
  }
  return lines.join('\r\n') + '\r\n';
}
