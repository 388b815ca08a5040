/**
 * SMPTE timecode: the one module that turns frames and seconds into HH:MM:SS:FF and back, used by
 * the renderer (cards, shot list, results, viewer) and by every export writer.
 *
 * Rates are rationals (24000/1001, not 23.976) because NLE files count frames in them and a float
 * drifts by a frame every few minutes. Drop-frame timecode (";" before the frames) skips the frame
 * numbers 00 and 01 (00-03 at 59.94) at the start of every minute except every tenth, so that the
 * timecode of 29.97 fps material stays within a frame of the wall clock; no picture is dropped.
 */

import { firstGridAt } from './picture-grid';

export interface FrameRate {
  num: number;
  den: number;
}

/** How a clip counts time: its rate, drop-frame or not, and the frame number of its first frame. */
export interface Timebase {
  rate: FrameRate;
  dropFrame: boolean;
  /** The file's start timecode as a frame count (0 for a clip without one). */
  startFrame: number;
}

/** Rates NLEs know by name; a probed float is snapped to one of them when it is within 0.1%. */
const STANDARD_RATES: FrameRate[] = [
  { num: 24000, den: 1001 },
  { num: 24, den: 1 },
  { num: 25, den: 1 },
  { num: 30000, den: 1001 },
  { num: 30, den: 1 },
  { num: 48, den: 1 },
  { num: 50, den: 1 },
  { num: 60000, den: 1001 },
  { num: 60, den: 1 },
  { num: 100, den: 1 },
  { num: 120000, den: 1001 },
  { num: 120, den: 1 },
];

export function fps(rate: FrameRate): number {
  return rate.num / rate.den;
}

/**
 * How a clip counts time: the rate its timecode, frame numbers and exports use, and whether its
 * positions are its pictures' presentation times placed on that rate's grid (`conformed`) rather
 * than its decoded frame numbers.
 */
export interface Counting {
  rate: FrameRate;
  conformed: boolean;
}

const within = (value: number, r: FrameRate) => Math.abs(fps(r) - value) / fps(r) < 0.001;

/**
 * The counting of a probed rate, as an NLE counts it:
 * - a standard rate, or within 0.1% of one: that rate (its frame numbers as decoded);
 * - variable-rate footage (phones, screen recordings: `vfr`; `value` is the rate it was shot at,
 *   probe-parse.ts `nominalRate`): the nearest standard rate, conformed
 *   (NLEs conform it on import; its presentation times are kept for frame lookups);
 * - a whole rate NLEs have no name for (10, 12, 15 fps): its own rate, one timecode frame a picture
 *   (Premiere and Resolve show such clips' timecode at their own rate);
 * - another fractional rate whose double, triple or quadruple is standard (12.5 -> 25, 14.985 ->
 *   29.97, 7.5 -> 30): that standard rate, conformed (each picture holds 2, 3 or 4 timecode frames,
 *   as in a project at that rate; a timecode second is a second of the clip);
 * - any other rate (29.833): the nearest standard rate at or above it, conformed, so that every
 *   picture keeps a timecode frame of its own.
 */
export function countingOf(value: number | null | undefined, vfr = false): Counting {
  if (!value || !Number.isFinite(value) || value <= 0) return { rate: { num: 25, den: 1 }, conformed: false };
  const dist = (r: FrameRate) => Math.abs(fps(r) - value) / fps(r);
  const nearest = STANDARD_RATES.reduce((a, b) => (dist(b) < dist(a) ? b : a));
  if (within(value, nearest)) return { rate: nearest, conformed: vfr };
  if (vfr) return { rate: nearest, conformed: true };
  const whole = Math.round(value);
  if (Math.abs(whole - value) / value < 0.001) return { rate: { num: whole, den: 1 }, conformed: false };
  for (const m of [2, 3, 4]) {
    const multiple = STANDARD_RATES.find((r) => within(value * m, r));
    if (multiple) return { rate: multiple, conformed: true };
  }
  const above = STANDARD_RATES.filter((r) => fps(r) >= value);
  return { rate: above.length > 0 ? above.reduce((a, b) => (fps(b) < fps(a) ? b : a)) : STANDARD_RATES[STANDARD_RATES.length - 1]!, conformed: true };
}

/** The rate a clip counts in (`countingOf`'s rate). */
export function rateFromFps(value: number | null | undefined, vfr = false): FrameRate {
  return countingOf(value, vfr).rate;
}

/** Parses ffprobe's "30000/1001" (or "25"); null when it is not a positive rational. */
export function parseRational(text: string | null | undefined): FrameRate | null {
  if (!text) return null;
  const m = /^(\d+)(?:\/(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const num = Number(m[1]);
  const den = m[2] === undefined ? 1 : Number(m[2]);
  if (num <= 0 || den <= 0) return null;
  return { num, den };
}

/** Frames per timecode second: 24 for 23.976, 30 for 29.97. */
export function nominalFps(rate: FrameRate): number {
  return Math.max(1, Math.round(rate.num / rate.den));
}

/** Drop-frame counting exists for 29.97 and 59.94 only. */
export function supportsDropFrame(rate: FrameRate): boolean {
  const n = nominalFps(rate);
  return (n === 30 || n === 60) && rate.den === 1001;
}

function dropsPerMinute(rate: FrameRate): number {
  return nominalFps(rate) / 15; // 2 at 29.97, 4 at 59.94
}

function framesPerDay(rate: FrameRate, dropFrame: boolean): number {
  const n = nominalFps(rate);
  if (!dropFrame) return n * 86_400;
  const d = dropsPerMinute(rate);
  return (n * 600 - 9 * d) * 144;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Frame count -> "HH:MM:SS:FF" (";" before the frames when drop-frame); wraps at 24 hours. */
export function framesToTimecode(frames: number, rate: FrameRate, dropFrame: boolean): string {
  const df = dropFrame && supportsDropFrame(rate);
  const day = framesPerDay(rate, df);
  let f = ((Math.round(frames) % day) + day) % day;
  const n = nominalFps(rate);
  if (df) {
    const d = dropsPerMinute(rate);
    const per10 = n * 600 - 9 * d;
    const perMin = n * 60 - d;
    const tens = Math.floor(f / per10);
    const rem = f % per10;
    // The first minute of each ten keeps all its numbers; later ones skip d at their start.
    f += 9 * d * tens + (rem >= d ? d * Math.floor((rem - d) / perMin) : 0);
  }
  const ff = f % n;
  const totalS = Math.floor(f / n);
  const ss = totalS % 60;
  const mm = Math.floor(totalS / 60) % 60;
  const hh = Math.floor(totalS / 3600);
  return `${pad2(hh)}:${pad2(mm)}:${pad2(ss)}${df ? ';' : ':'}${pad2(ff)}`;
}

/** A parsed timecode label: fields plus whether it was written drop-frame (";" or "."). */
export interface TimecodeFields {
  hh: number;
  mm: number;
  ss: number;
  ff: number;
  dropFrame: boolean;
}

export function parseTimecode(text: string): TimecodeFields | null {
  const m = /^(\d{1,2})[:;.](\d{2})[:;.](\d{2})([:;.])(\d{2,3})$/.exec(text.trim());
  if (!m) return null;
  const [hh, mm, ss, ff] = [m[1], m[2], m[3], m[5]].map(Number) as [number, number, number, number];
  if (mm > 59 || ss > 59) return null;
  return { hh, mm, ss, ff, dropFrame: m[4] === ';' || m[4] === '.' || text.includes(';') };
}

/** "HH:MM:SS:FF" -> frame count at `rate`; null when the label is not a timecode of that rate. */
export function timecodeToFrames(text: string, rate: FrameRate): number | null {
  const t = parseTimecode(text);
  if (!t) return null;
  const n = nominalFps(rate);
  if (t.ff >= n) return null;
  const df = t.dropFrame && supportsDropFrame(rate);
  const totalMinutes = t.hh * 60 + t.mm;
  let frames = (t.hh * 3600 + t.mm * 60 + t.ss) * n + t.ff;
  if (df) {
    const d = dropsPerMinute(rate);
    if (t.ss === 0 && t.mm % 10 !== 0 && t.ff < d) return null; // a number drop-frame skips
    frames -= d * (totalMinutes - Math.floor(totalMinutes / 10));
  }
  return frames;
}

/**
 * The frame shown at `seconds` after the start of the file: frame k covers [k/rate, (k+1)/rate).
 * The small tolerance absorbs float error on times that are exactly a frame's start.
 */
export function secondsToFrame(seconds: number, rate: FrameRate): number {
  return Math.max(0, Math.floor((seconds * rate.num) / rate.den + 1e-6));
}

/** The start time of frame `frame`, in seconds. */
export function frameToSeconds(frame: number, rate: FrameRate): number {
  return (frame * rate.den) / rate.num;
}

/**
 * A frame number marked at one rate, at another: a range keeps the rate it was saved at, and a
 * re-probe can count its clip at another since (catalog 0063: a VFR clip at the rate it was shot
 * at, no longer its average). The frame whose span holds the marked frame's start.
 */
export function convertFrame(frame: number, from: FrameRate, to: FrameRate): number {
  if (from.num === to.num && from.den === to.den) return frame;
  return secondsToFrame(frameToSeconds(frame, from), to);
}

/**
 * A clip's timebase from what the catalog holds: its probed rate and start timecode label.
 * A label decides drop-frame by its separator; a clip without one counts from 00:00:00:00, in
 * drop-frame at 29.97 and 59.94 (what Premiere and Resolve default to for NTSC rates).
 */
export function clipTimebase(rate: FrameRate, startTimecode: string | null | undefined): Timebase {
  const parsed = startTimecode ? parseTimecode(startTimecode) : null;
  const startFrame = startTimecode ? timecodeToFrames(startTimecode, rate) : null;
  if (parsed && startFrame !== null) {
    return { rate, dropFrame: parsed.dropFrame && supportsDropFrame(rate), startFrame };
  }
  return { rate, dropFrame: supportsDropFrame(rate), startFrame: 0 };
}

/** A part of a clip as frames of its counting rate: [inFrame, outFrame), Out exclusive. */
export interface FrameSpan {
  inFrame: number;
  outFrame: number;
}

/** What the catalog holds of a shot's place: frames of its decode, and their presentation times. */
export interface ShotPlace {
  startS: number;
  endS: number;
  /** Decoded frame numbers, Out exclusive (null: the clip was never decoded here, e.g. a URL clip). */
  startFrame: number | null;
  endFrame: number | null;
}

/**
 * Where a shot starts and ends, in frames: a clip counted at its own rate, its decoded frame
 * numbers as they are (what an NLE counts, with nothing to round); a conformed clip (VFR, 12.5 fps:
 * `countingOf`), the grid positions that show its pictures (picture-grid.ts: a picture reads out
 * as the first grid position at or after its presentation time), so its In shows its first picture.
 * A clip without decoded frame numbers (a URL clip) has its times on its own grid: the frame shown then.
 */
export function shotFrames(s: ShotPlace, rate: FrameRate, conformed: boolean): FrameSpan {
  if (!conformed && s.startFrame !== null && s.endFrame !== null) return { inFrame: s.startFrame, outFrame: Math.max(s.startFrame + 1, s.endFrame) };
  const at = conformed ? firstGridAt : secondsToFrame;
  const inFrame = at(s.startS, rate);
  return { inFrame, outFrame: Math.max(inFrame + 1, at(s.endS, rate)) };
}

/**
 * A clip's length in frames: its video's frames, whatever the container says (AAC audio often
 * runs a frame or two past the last picture, and the container's duration with it). The decoded
 * or probed frame count of a clip counted at its own rate; else (conformed) its duration on the rate's grid.
 */
export function clipFrameCount(c: { frameCount: number | null; durationS: number | null; conformed: boolean | null }, rate: FrameRate): number | null {
  if (!c.conformed && c.frameCount !== null && c.frameCount > 0) return c.frameCount;
  if (c.durationS === null || !(c.durationS > 0)) return null;
  return Math.max(1, Math.round((c.durationS * rate.num) / rate.den));
}

/** Source timecode of the frame shown at `seconds` into the file. */
export function timecodeAt(tb: Timebase, seconds: number): string {
  return framesToTimecode(tb.startFrame + secondsToFrame(seconds, tb.rate), tb.rate, tb.dropFrame);
}

/** "23.976", "29.97", "25": a rate as editors say it. */
export function rateLabel(rate: FrameRate): string {
  const v = fps(rate);
  return Number.isInteger(v) ? String(v) : (Math.round(v * 1000) / 1000).toString();
}
