import { rateLabel, supportsDropFrame, timecodeToFrames, type FrameRate } from '../../../src-shared/timecode';
import type { ExportDocument } from './export-model';

/** Timelines start at 01:00:00:00 by broadcast convention (and every NLE's default): as frames. */
export function sequenceStartFrame(rate: FrameRate, dropFrame: boolean): number {
  return timecodeToFrames(dropFrame ? '01:00:00;00' : '01:00:00:00', rate) ?? 0;
}

/** A length in frames of one rate as frames of another (a 25 fps item on a 23.976 sequence), to the nearest frame. */
export function onSequence(frames: number, from: FrameRate, to: FrameRate): number {
  if (from.num === to.num && from.den === to.den) return frames;
  return Math.round((frames * from.den * to.num) / (from.num * to.den));
}

const sameRate = (a: FrameRate, b: FrameRate) => a.num * b.den === b.num * a.den;

/** How an item's timecode counts: a drop-frame flag on a rate without drop-frame (25) counts as non-drop. */
const dropFrameOf = (it: ExportDocument['items'][number]) => it.dropFrame && supportsDropFrame(it.rate);

/** "25 fps", "29.97 fps DF": how a file or a sequence names its rate. */
export function rateName(rate: FrameRate, dropFrame: boolean): string {
  return `${rateLabel(rate)} fps${dropFrame ? ' DF' : ''}`;
}

/**
 * The document as one document per frame rate and counting (drop-frame or not), in the order they
 * first appear, each titled with both ("Selects 25 fps", "Selects 29.97 fps DF") when there is more
 * than one: a CMX3600 list has one rate and one FCM for all its timecodes (a 29.97 DF source under
 * a 25 fps FCM is a file readers refuse; a 29.97 non-drop source under FCM: DROP FRAME has its
 * timecodes read as drop-frame), and so has an Avid marker list on the sequence the EDL lays out.
 */
export function splitByRate(doc: ExportDocument): ExportDocument[] {
  const groups: ExportDocument[] = [];
  for (const it of doc.items) {
    const g = groups.find((x) => sameRate(x.sequenceRate, it.rate) && x.sequenceDropFrame === dropFrameOf(it));
    if (g) g.items.push(it);
    else groups.push({ title: doc.title, items: [it], sequenceRate: it.rate, sequenceDropFrame: dropFrameOf(it) });
  }
  if (groups.length <= 1) return [doc];
  return groups.map((g) => ({ ...g, title: `${doc.title} ${rateName(g.sequenceRate, g.sequenceDropFrame)}` }));
}

/**
 * What a one-sequence format (FCPXML, FCP7 XML, OTIO) says about a mix of rates: the sequence
 * takes the first item's rate, the others keep their own rate and timecode and are conformed by
 * the editing application (each item's length on the sequence is rounded to its frames). Null
 * when every item has the sequence's rate.
 */
export function mixedRateNote(doc: ExportDocument): string | null {
  const other = doc.items.filter((it) => !sameRate(it.rate, doc.sequenceRate));
  if (other.length === 0) return null;
  const rates = [...new Set(doc.items.map((it) => rateLabel(it.rate)))];
  return `Mixed frame rates (${rates.join(', ')} fps): the sequence runs at ${rateName(doc.sequenceRate, doc.sequenceDropFrame)}; ${other.length} item${other.length === 1 ? '' : 's'} at other rates keep their own timecode and are conformed by the editing application.`;
}
