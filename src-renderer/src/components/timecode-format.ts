import { clipFrameCount, clipTimebase, framesToTimecode, rateFromFps, timecodeAt, type Timebase } from '../../../src-shared/timecode';

/** What a view knows of a clip's clock: its rate (or probed fps) and its start timecode label. */
export interface ClipClock {
  rate?: { num: number; den: number } | null;
  fps?: number | null;
  timecode?: string | null;
}

/** The timebase every time of this clip is shown in (SMPTE from its start timecode). */
export function timebaseOf(c: ClipClock): Timebase {
  return clipTimebase(c.rate ?? rateFromFps(c.fps ?? null), c.timecode ?? null);
}

/** Source timecode of frame `frame` of the clip (0 = its first frame): "01:00:10:12". */
export function tcFrame(c: ClipClock, frame: number): string {
  const tb = timebaseOf(c);
  return framesToTimecode(tb.startFrame + frame, tb.rate, tb.dropFrame);
}

/** Source timecode of the frame shown at a moment of the clip. */
export function tcAt(c: ClipClock, seconds: number): string {
  return timecodeAt(timebaseOf(c), seconds);
}

/**
 * "01:00:10:12–01:00:12:02": frames [inFrame, outFrame) (Out exclusive, as a search result and a
 * shot carry them) in source timecode from the In to the last frame, both frames shown
 * (inclusive), as the viewer shows its Out; exchange files write the exclusive Out.
 */
export function tcRange(c: ClipClock, inFrame: number, outFrame: number): string {
  return `${tcFrame(c, inFrame)}–${tcFrame(c, Math.max(inFrame, outFrame - 1))}`;
}

/** A length of `frames` as a timecode duration, in the clip's own counting (";" when drop-frame): "00:00:04:12". */
export function tcLength(c: ClipClock, frames: number | null): string {
  if (frames === null || !Number.isFinite(frames)) return '–';
  const tb = timebaseOf(c);
  return framesToTimecode(frames, tb.rate, tb.dropFrame);
}

/** The clip's length to its last video frame (not the container's, which audio may outlast). */
export function clipLengthTc(c: ClipClock & { frameCount: number | null; durationS: number | null; conformed: boolean | null }): string {
  return tcLength(c, clipFrameCount(c, timebaseOf(c).rate));
}
