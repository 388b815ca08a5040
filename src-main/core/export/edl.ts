import { framesToTimecode } from '../../../src-shared/timecode';
import { asciiLine, formulaSafe, oneLine } from './exchange-text';
import { audioChannelCount, peopleNames, type ExportDocument, type ExportItem } from './export-model';
import { fileUrl } from './file-url';
import { assignReels } from './reels';
import { sequenceStartFrame, splitByRate } from './sequence';

const RESOLVE_COLOR = { favorite: 'ResolveColorGreen', reject: 'ResolveColorRed', none: 'ResolveColorBlue' } as const;

/**
 * Resolve reads "|C:colour |M:name |D:frames" after an event as a marker at its record In. The name
 * goes on into Resolve's marker lists and exports, which spreadsheets open: neutralised as a CSV cell.
 */
function resolveMarker(it: ExportItem, durationFrames: number): string {
  return ` |C:${RESOLVE_COLOR[it.rating ?? 'none']} |M:${formulaSafe(asciiLine(it.name).replace(/\|/g, '/'))} |D:${durationFrames}`;
}

/** CMX3600 channels: V, B (V + A1), AA/V (V + A1 + A2, the most a list can say). */
function channelCode(it: ExportItem): string {
  const n = audioChannelCount(it);
  return n === 0 ? 'V' : n === 1 ? 'B' : 'AA/V';
}

/**
 * One CMX3600 event line, fixed columns: event 1-3, reel 6-13, channel 15-19, transition 21-24,
 * (transition duration 26-28), source In 30-40, source Out 42-52, record In 54-64, record Out 66-76.
 */
export function eventLine(n: number, reel: string, channel: string, srcIn: string, srcOut: string, recIn: string, recOut: string): string {
  return `${String(n).padStart(3, '0')}  ${reel.padEnd(8)} ${channel.padEnd(5)} ${'C'.padEnd(4)} ${''.padEnd(3)} ${srcIn} ${srcOut} ${recIn} ${recOut}`;
}

/** A path as 7-bit text: as it is when it is, else its file URL (percent-encoded UTF-8, exact). */
function asciiPath(p: string): string {
  return /^[\x20-\x7e]*$/.test(p) ? p : fileUrl(p);
}

/**
 * CMX3600 EDLs of the items cut one after another from 01:00:00:00: one list per frame rate and
 * counting (a list has one rate and one FCM for all its timecodes: a 29.97 non-drop source gets a
 * NON-DROP FRAME list of its own, never a DROP FRAME one), source times in each file's own
 * timecode, record times on the list's rate. Each event carries:
 * - `* FROM CLIP NAME:` the file name exactly as it is, in UTF-8 (control characters only become
 *   spaces, so it stays one line): it is the key Resolve relinks by (file name + timecode), and
 *   OpenTimelineIO's reader (which reads EDLs as UTF-8) names the clip by it, so "é 日本.mov"
 *   spelled "e ??.mov" would come in offline;
 * - `* FROM CLIP:` the file URL, the media reference OpenTimelineIO's reader takes (Avid style);
 * - `* SOURCE FILE:` the path (its file URL when the path is not 7-bit);
 * - the note and keywords as comments, and a Resolve marker (colour from the rating, the item's
 *   name, its length) so "Timeline markers from EDL" brings the selects in as markers;
 * - the saved ranges inside the item (a whole clip's selects) as `* LOC:` locators at their source
 *   In (Avid's locator comment; OpenTimelineIO's reader makes them markers on the clip, in its
 *   source time); shots are not listed, the list stays an edit;
 * - the named people seen in the item as `* PEOPLE: Maria; Smith, John` (a list has no
 *   keywords: a comment is what Avid and OpenTimelineIO keep of it; "; " as in the CSV, since a
 *   name may hold a comma), and a MAGENTA `* LOC:` where each stretch of a person on screen
 *   starts, in time order with the ranges' (a locator is a point: the PEOPLE line says who, the
 *   locators where).
 * Everything else is 7-bit ASCII, as CMX3600 is (accents dropped, other characters as "?"): the
 * event line has fixed columns a multi-byte character would shift for readers that count bytes,
 * and the title, comments and marker names are free text that older list tools print or refuse;
 * no relink depends on them, and the paths stay exact as file URLs.
 * Reels are the files' own reel names, else made unique per export (reels.ts); the event's reel
 * and its FROM CLIP NAME / SOURCE FILE lines are the mapping from reel to file.
 */
export function writeEdls(doc: ExportDocument): { title: string; text: string }[] {
  const reels = assignReels(doc.items);
  return splitByRate(doc).map((part) => ({ title: part.title, text: writeOneEdl(part, reels) }));
}

function writeOneEdl(doc: ExportDocument, reels: Map<string, string>): string {
  const seq = doc.sequenceRate;
  const df = doc.sequenceDropFrame;
  const lines = [`TITLE: ${asciiLine(doc.title).slice(0, 70)}`, `FCM: ${df ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  let rec = sequenceStartFrame(seq, df);
  doc.items.forEach((it, i) => {
    // One rate per list: record and source lengths are the same frames.
    const len = it.outFrame - it.inFrame;
    const src = (f: number) => framesToTimecode(it.startFrame + f, it.rate, it.dropFrame);
    const recTc = (f: number) => framesToTimecode(f, seq, df);
    lines.push(eventLine(i + 1, reels.get(it.path) ?? 'AX', channelCode(it), src(it.inFrame), src(it.outFrame), recTc(rec), recTc(rec + len)));
    lines.push(`* FROM CLIP NAME: ${oneLine(it.fileName)}`);
    lines.push(`* FROM CLIP: ${fileUrl(it.path)}`);
    lines.push(`* SOURCE FILE: ${asciiPath(it.path)}`);
    if (it.note) lines.push(`* COMMENT: ${asciiLine(it.note)}`);
    if (it.keywords.length) lines.push(`* KEYWORDS: ${asciiLine(it.keywords.join(', '))}`);
    if (it.people.length) lines.push(`* PEOPLE: ${asciiLine(peopleNames(it).join('; '))}`);
    const locators = [
      ...it.markers.filter((m) => m.kind === 'user').map((m) => ({ frame: m.frame, colour: 'YELLOW', name: m.name })),
      ...it.people.map((p) => ({ frame: p.inFrame, colour: 'MAGENTA', name: p.name })),
    ].sort((a, b) => a.frame - b.frame);
    for (const l of locators) lines.push(`* LOC: ${src(l.frame)} ${l.colour.padEnd(7)} ${asciiLine(l.name)}`);
    lines.push(resolveMarker(it, len));
    lines.push('');
    rec += len;
  });
  return lines.join('\r\n');
}
