import { clipTimebase, durationTimecode, rateFromFps, timecodeAt, type Timebase } from '../../../src-shared/timecode';

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

/** Source timecode of a moment of the clip: "01:00:10:12". */
export function tcAt(c: ClipClock, seconds: number): string {
  return timecodeAt(timebaseOf(c), seconds);
}

/** "01:00:10:12–01:00:12:03": a range in source timecode. */
export function tcRange(c: ClipClock, startS: number, endS: number): string {
  return `${tcAt(c, startS)}–${tcAt(c, endS)}`;
}

/** A length as timecode from zero, as NLEs show durations: "00:00:04:12". */
export function tcDuration(c: ClipClock, seconds: number | null): string {
  return seconds === null || !Number.isFinite(seconds) ? '–' : durationTimecode(timebaseOf(c), seconds);
}
