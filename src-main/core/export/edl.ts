import { framesToTimecode, type FrameRate } from '../../../src-shared/timecode';
import type { ExportDocument, ExportItem } from './export-model';
import { asciiLine } from './exchange-text';
import { sequenceStartFrame } from './sequence-start';

/**
 * Reel names: CMX3600 allows 8 characters, upper case letters, digits and "_". The file name
 * (without extension) is kept when it fits, else it is cut; the full name travels in the
 * "* FROM CLIP NAME" comment, which Resolve and Premiere use to relink.
 */
export function reelName(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return (base || 'AX').slice(0, 8);
}

function onSequence(frames: number, from: FrameRate, to: FrameRate): number {
  return Math.round((frames * from.den * to.num) / (from.num * to.den));
}

const RESOLVE_COLOR = { favorite: 'ResolveColorGreen', reject: 'ResolveColorRed', none: 'ResolveColorBlue' } as const;

/** Resolve reads "|C:colour |M:name |D:frames" after an event as a marker at its record In. */
function resolveMarker(it: ExportItem, durationFrames: number): string {
  const name = asciiLine(it.name).replace(/\|/g, '/');
  return ` |C:${RESOLVE_COLOR[it.rating ?? 'none']} |M:${name} |D:${durationFrames}`;
}

/**
 * One CMX3600 event line, fixed columns: event 1-3, reel 6-13, channel 15-19, transition 21-24,
 * (transition duration 26-28), source In 30-40, source Out 42-52, record In 54-64, record Out 66-76.
 */
export function eventLine(n: number, reel: string, channel: string, srcIn: string, srcOut: string, recIn: string, recOut: string): string {
  return `${String(n).padStart(3, '0')}  ${reel.padEnd(8)} ${channel.padEnd(5)} ${'C'.padEnd(4)} ${''.padEnd(3)} ${srcIn} ${srcOut} ${recIn} ${recOut}`;
}

/**
 * A CMX3600 EDL of the items cut one after another from 01:00:00:00: source times in each
 * file's own timecode, record times on the sequence. Each event carries the clip's file name,
 * its note and keywords as comments, and a Resolve marker (colour from the rating, the item's
 * name, its length) so Resolve's "Timeline markers from EDL" brings the selects in as markers.
 */
export function writeEdl(doc: ExportDocument): string {
  const seq = doc.sequenceRate;
  const df = doc.sequenceDropFrame;
  const lines = [`TITLE: ${asciiLine(doc.title).slice(0, 70)}`, `FCM: ${df ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  let rec = sequenceStartFrame(seq, df);
  doc.items.forEach((it, i) => {
    const len = Math.max(1, onSequence(it.outFrame - it.inFrame, it.rate, seq));
    const src = (f: number) => framesToTimecode(it.startFrame + f, it.rate, it.dropFrame);
    const recTc = (f: number) => framesToTimecode(f, seq, df);
    const channel = (it.audioChannels ?? 0) > 0 ? 'AA/V' : 'V';
    lines.push(eventLine(i + 1, reelName(it.fileName), channel, src(it.inFrame), src(it.outFrame), recTc(rec), recTc(rec + len)));
    lines.push(`* FROM CLIP NAME: ${asciiLine(it.fileName)}`);
    if (it.note) lines.push(`* COMMENT: ${asciiLine(it.note)}`);
    if (it.keywords.length) lines.push(`* KEYWORDS: ${asciiLine(it.keywords.join(', '))}`);
    lines.push(resolveMarker(it, len));
    lines.push('');
    rec += len;
  });
  return lines.join('\r\n');
}
