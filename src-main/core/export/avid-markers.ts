import { framesToTimecode } from '../../../src-shared/timecode';
import { formulaSafe, oneLine } from './exchange-text';
import type { ExportDocument, ExportMarker } from './export-model';
import { sequenceStartFrame, splitByRate } from './sequence';

/** Avid's marker colours (its Markers window offers these eight). */
const AVID_COLOR: Record<ExportMarker['kind'], string> = { shot: 'blue', transition: 'cyan', tag: 'green', user: 'yellow' };
/** A named person's markers: a colour no other kind uses, so the Markers window sorts them apart. */
const PERSON_COLOR = 'magenta';

interface Moment {
  colour: string;
  comments: string[];
  duration: number;
}

/**
 * Media Composer marker lists (Markers window > Import Markers), UTF-8: one marker per line, tab
 * separated: user, timecode, track, colour, comment, duration in frames. A list belongs to the
 * sequence the EDL and XML of the same export lay out (items one after another from 01:00:00:00,
 * one list per frame rate as the EDLs): timecodes are record timecodes, so the markers land on
 * that sequence in Media Composer. Each item opens with a marker carrying its name, rating and
 * note over its length; its shots, transitions and ranges follow where they fall, and a marker
 * named after each person where each stretch of them on screen starts, over its length. Markers on one
 * frame become one marker (Media Composer keeps one per frame and track), their comments joined.
 */
export function writeAvidMarkerLists(doc: ExportDocument): { title: string; text: string }[] {
  return splitByRate(doc).map((part) => ({ title: part.title, text: writeOne(part) }));
}

function writeOne(doc: ExportDocument): string {
  const seq = doc.sequenceRate;
  const moments = new Map<number, Moment>();
  const put = (frame: number, colour: string, comment: string, duration: number) => {
    const m = moments.get(frame);
    if (!m) moments.set(frame, { colour, comments: comment ? [comment] : [], duration });
    else {
      if (comment && !m.comments.includes(comment)) m.comments.push(comment);
      m.duration = Math.max(m.duration, duration);
    }
  };
  let rec = sequenceStartFrame(seq, doc.sequenceDropFrame);
  for (const it of doc.items) {
    const len = it.outFrame - it.inFrame;
    const rating = it.rating === 'favorite' ? '(favourite)' : it.rating === 'reject' ? '(reject)' : '';
    put(rec, it.rating === 'reject' ? 'red' : it.rating === 'favorite' ? 'green' : 'white', oneLine([it.name, rating, it.note].filter(Boolean).join(' ')), len);
    for (const m of it.markers) {
      const at = rec + m.frame - it.inFrame;
      put(at, AVID_COLOR[m.kind], oneLine([m.name, m.note].filter(Boolean).join(': ')), Math.max(1, Math.min(m.durationFrames, it.outFrame - m.frame)));
    }
    for (const p of it.people) put(rec + p.inFrame - it.inFrame, PERSON_COLOR, oneLine(p.name), p.outFrame - p.inFrame);
    rec += len;
  }
  const lines = [...moments.entries()]
    .sort(([a], [b]) => a - b)
    // The list is tab-separated text a spreadsheet opens as cells: a comment starting "=" would run.
    .map(([frame, m]) => ['Reelscout', framesToTimecode(frame, seq, doc.sequenceDropFrame), 'V1', m.colour, formulaSafe(m.comments.join(' | ')), String(m.duration)].join('\t'));
  return lines.join('\r\n') + '\r\n';
}
