import type { FrameRate } from './timecode';

/**
 * The windows of a clip's preview stream (issue 37): while a clip that needs a proxy has none yet,
 * main transcodes the stretch being watched, one window at a time, each served once written whole.
 * The first window at a playhead is a short head (STREAM_HEAD_S, on a grid of the clip's frames:
 * 0, n, 2n...) so that its first picture comes after a second's transcode, not a long window's;
 * each window play runs on into (reverse play back into) is twice the one before, up to STREAM_RAMP heads, so that main,
 * making it while the one before plays (range-streams.ts), finishes it in time whenever it
 * transcodes at least twice as fast as playing, and play stalls less and less often. A window is
 * named by its first and last frames; both sides check it with `isStreamWindow`.
 */
export const STREAM_HEAD_S = 1;

/** The longest window, in heads: bounds the transcode ahead of the playhead (16 s). */
export const STREAM_RAMP = 16;

/**
 * The picture heights a window is made at, largest first: the proxy's (540, proxy-branch.ts
 * PROXY_DEFAULTS.height; test/unit/media/stream-size.test.ts keeps them one), then the smaller ones an
 * NLE drops its playback resolution to when the machine cannot keep up (main's choice:
 * src-main/core/proxies/stream-size.ts). Never above the clip's own height.
 */
export const STREAM_HEIGHTS = [540, 360, 270] as const;

/** Whether a window whose picture is `videoHeight` lines tall was made smaller than a full-size one of a clip `clipHeight` tall (unknown: its full size is the proxy's). */
export function isReducedStream(videoHeight: number, clipHeight: number | null): boolean {
  const full = Math.min(STREAM_HEIGHTS[0], clipHeight ?? STREAM_HEIGHTS[0]);
  // Heights are kept even (proxyPictureFilter): a clip 1081 lines tall is 540 at full size.
  return videoHeight > 0 && videoHeight < Math.floor(full / 2) * 2;
}

export interface StreamWindow {
  /** First frame of the window. */
  from: number;
  /** The frame after its last (never past the clip's end). */
  to: number;
}

/** Frames in a head of `seconds` at `rate`. */
export function streamHeadFrames(rate: FrameRate, seconds: number = STREAM_HEAD_S): number {
  return Math.max(1, Math.round((seconds * rate.num) / rate.den));
}

const endOf = (clipFrames: number | null) => (clipFrames !== null && clipFrames > 0 ? clipFrames : Number.POSITIVE_INFINITY);

/** The head window holding frame `frame` of a clip of `clipFrames` frames (null: length unknown); `seconds` only tests change. */
export function streamHeadAt(frame: number, rate: FrameRate, clipFrames: number | null, seconds: number = STREAM_HEAD_S): StreamWindow {
  const n = streamHeadFrames(rate, seconds);
  const end = endOf(clipFrames);
  const from = Math.floor(Math.max(0, Math.min(frame, end - 1)) / n) * n;
  return { from, to: Math.min(from + n, end) };
}

/** The window play runs on into after `w`: twice as long, up to STREAM_RAMP heads, cut at the clip's end; null after its last. */
export function streamWindowAfter(w: StreamWindow, rate: FrameRate, clipFrames: number | null, seconds: number = STREAM_HEAD_S): StreamWindow | null {
  const n = streamHeadFrames(rate, seconds);
  const end = endOf(clipFrames);
  if (w.to >= end) return null;
  const length = Math.min(2 * Math.max(n, w.to - w.from), STREAM_RAMP * n);
  return { from: w.to, to: Math.min(w.to + length, end) };
}

/** The window reverse play runs back into before `w`: twice as long, up to STREAM_RAMP heads, cut at the clip's start; null before its first. */
export function streamWindowBefore(w: StreamWindow, rate: FrameRate, seconds: number = STREAM_HEAD_S): StreamWindow | null {
  const n = streamHeadFrames(rate, seconds);
  if (w.from <= 0) return null;
  const length = Math.min(2 * Math.max(n, w.to - w.from), STREAM_RAMP * n);
  return { from: Math.max(0, w.from - length), to: w.from };
}

/** Whether main makes this window: both ends on the heads' grid (or the clip's end), its length a head times a power of two up to the ramp's, or cut at the clip's start or end. */
export function isStreamWindow(w: StreamWindow, rate: FrameRate, clipFrames: number | null, seconds: number = STREAM_HEAD_S): boolean {
  const n = streamHeadFrames(rate, seconds);
  const end = endOf(clipFrames);
  const length = w.to - w.from;
  if (w.from % n !== 0 || length <= 0 || w.to > end || (w.to !== end && w.to % n !== 0)) return false;
  for (let k = n; k <= STREAM_RAMP * n; k *= 2) if (length === k || ((w.to === end || w.from === 0) && length < k)) return true;
  return false;
}

/**
 * The window the viewer plays with its playhead at `frame` and its shuttle at `speed`: the one it
 * has while the playhead is in it; while playing forwards, the one after it (play ran past its
 * end), backwards the one before it (reverse play ran past its start); else a head at the playhead
 * (a seek, a step, the first look).
 */
export function streamWindowFor(current: StreamWindow | null, frame: number, speed: number, rate: FrameRate, clipFrames: number | null): StreamWindow {
  if (current && frame >= current.from && frame < current.to) return current;
  const next = !current || speed === 0 ? null : speed > 0 ? streamWindowAfter(current, rate, clipFrames) : streamWindowBefore(current, rate);
  if (next && frame >= next.from && frame < next.to) return next;
  return streamHeadAt(frame, rate, clipFrames);
}
