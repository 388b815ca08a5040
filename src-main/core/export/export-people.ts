import { shotFrames, type FrameRate } from '../../../src-shared/timecode';
import type { PersonPresence } from '../people/person-presence';
import type { ExportPersonSpan } from './export-model';

/**
 * Every named person's spans in a clip, in the frames the export counts in: a clip counted at its
 * own rate keeps the decoded frames the spans carry; a conformed one (VFR) places their times on
 * its rate's grid, as its shots are placed (`shotFrames`). A person's spans that touch or overlap
 * (seen up to a cut and on after it) become one: an editor wants "Maria" over the whole stretch,
 * not split where the shot changes.
 */
export function clipPeople(presence: PersonPresence, clipId: number, rate: FrameRate, conformed: boolean): ExportPersonSpan[] {
  const byName = new Map<string, ExportPersonSpan[]>();
  for (const s of presence.namedSpansInClip(clipId)) {
    const f = shotFrames({ startS: s.startS, endS: s.endS, startFrame: s.inFrame, endFrame: s.outFrame }, rate, conformed);
    (byName.get(s.name) ?? byName.set(s.name, []).get(s.name)!).push({ name: s.name, ...f });
  }
  const out: ExportPersonSpan[] = [];
  for (const spans of byName.values()) {
    spans.sort((a, b) => a.inFrame - b.inFrame);
    let run: ExportPersonSpan | null = null;
    for (const s of spans) {
      if (run && s.inFrame <= run.outFrame) run.outFrame = Math.max(run.outFrame, s.outFrame);
      else out.push((run = { ...s }));
    }
  }
  return out.sort((a, b) => a.inFrame - b.inFrame || a.name.localeCompare(b.name));
}

/** The spans a used part [inFrame, outFrame) shows: those that overlap it, cut to it. */
export function peopleInPart(people: readonly ExportPersonSpan[], inFrame: number, outFrame: number): ExportPersonSpan[] {
  return people
    .filter((p) => p.inFrame < outFrame && p.outFrame > inFrame)
    .map((p) => ({ name: p.name, inFrame: Math.max(p.inFrame, inFrame), outFrame: Math.min(p.outFrame, outFrame) }));
}
