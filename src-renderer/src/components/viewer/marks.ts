import { convertFrame, frameToSeconds, shotFrames, type FrameRate, type FrameSpan } from '../../../../src-shared/timecode';

/**
 * The viewer opens a range (a shot, a search result) with its In and Out marked (Out exclusive),
 * placed as a shot is (`shotFrames`): on a conformed clip In is the first frame showing the picture at its start.
 */
export function marksOfRange(range: { startS: number; endS: number }, rate: FrameRate, conformed = false): FrameSpan {
  return shotFrames({ startS: range.startS, endS: range.endS, startFrame: null, endFrame: null }, rate, conformed);
}

/**
 * A saved range on the viewer's frame grid: a range keeps the rate it was saved at, and a re-probe
 * can count its clip at another since (a VFR clip at the rate it was shot at: catalog 0063), so its
 * frames are the same moments counted at the clip's rate now; at least one frame long.
 */
export function rangeOnGrid(r: FrameSpan & { rate: FrameRate }, rate: FrameRate): FrameSpan {
  const inFrame = convertFrame(r.inFrame, r.rate, rate);
  return { inFrame, outFrame: Math.max(inFrame + 1, convertFrame(r.outFrame, r.rate, rate)) };
}

/** Frames as the moments the viewer is opened at: each frame's exact start, so nothing rounds on the way back. */
export function rangeOfFrames(span: FrameSpan, rate: FrameRate): { startS: number; endS: number } {
  return { startS: frameToSeconds(span.inFrame, rate), endS: frameToSeconds(span.outFrame, rate) };
}

/** In and Out as the viewer holds them: frame numbers, Out exclusive (the viewer shows Out - 1, the range's last frame). */
export interface Marks {
  inFrame: number | null;
  outFrame: number | null;
}

export const NO_MARKS: Marks = { inFrame: null, outFrame: null };

/** I at the playhead: an Out at or before it no longer closes a range and goes. */
export function markIn(m: Marks, frame: number): Marks {
  return { inFrame: frame, outFrame: m.outFrame !== null && m.outFrame <= frame ? null : m.outFrame };
}

/** O at the playhead: the range ends after this frame; an In after it goes. */
export function markOut(m: Marks, frame: number): Marks {
  return { inFrame: m.inFrame !== null && m.inFrame > frame ? null : m.inFrame, outFrame: frame + 1 };
}

/** Alt+I / Alt+O: one mark goes, the other stays. */
export function clearIn(m: Marks): Marks {
  return { ...m, inFrame: null };
}

export function clearOut(m: Marks): Marks {
  return { ...m, outFrame: null };
}

/** The frames In to Out as the duration shows them: In (or the first frame) to Out (or the clip's end); null when there is nothing to measure. */
export function markedFrames(m: Marks, clipFrames: number | null): number | null {
  const from = m.inFrame ?? 0;
  const to = m.outFrame ?? clipFrames;
  return to !== null && to > from ? to - from : null;
}

/** The next (dir 1) or previous (dir -1) shot start from a frame, or null at the ends: ↑ and ↓. */
export function shotJumpTarget(shotStarts: readonly number[], frame: number, dir: -1 | 1): number | null {
  const target = dir > 0 ? shotStarts.find((f) => f > frame) : [...shotStarts].reverse().find((f) => f < frame);
  return target ?? null;
}
