import { frameToSeconds, secondsToFrame, type FrameRate, type FrameSpan } from '../../../../src-shared/timecode';

/** The viewer opens a range (a shot, a search result) with its In and Out marked (Out exclusive). */
export function marksOfRange(range: { startS: number; endS: number }, rate: FrameRate): FrameSpan {
  const inFrame = secondsToFrame(range.startS, rate);
  return { inFrame, outFrame: Math.max(inFrame + 1, secondsToFrame(range.endS, rate)) };
}

/** Frames as the moments the viewer is opened at: each frame's exact start, so nothing rounds on the way back. */
export function rangeOfFrames(span: FrameSpan, rate: FrameRate): { startS: number; endS: number } {
  return { startS: frameToSeconds(span.inFrame, rate), endS: frameToSeconds(span.outFrame, rate) };
}
