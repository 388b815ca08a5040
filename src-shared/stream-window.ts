import type { FrameRate } from './timecode';

/**
 * The windows of a clip's preview stream (issue 37): while a clip that needs a proxy has none yet,
 * main transcodes the stretch being watched, one window at a time. Windows lie on a fixed grid of
 * the clip's frames (0, n, 2n...), so the viewer and main name the same window by its first frame
 * and a return to a stretch asks for the window already made. 20 s bounds the transcode ahead of
 * the playhead and the wait before the first picture (the window is served once written).
 */
export const STREAM_WINDOW_S = 20;

export interface StreamWindow {
  /** First frame of the window. */
  from: number;
  /** The frame after its last (never past the clip's end). */
  to: number;
}

/** Frames in a full window of `seconds` at `rate`. */
export function streamWindowFrames(rate: FrameRate, seconds: number = STREAM_WINDOW_S): number {
  return Math.max(1, Math.round((seconds * rate.num) / rate.den));
}

/** The window holding frame `frame` of a clip of `clipFrames` frames (null: length unknown); `seconds` only tests shorten. */
export function streamWindowOf(frame: number, rate: FrameRate, clipFrames: number | null, seconds: number = STREAM_WINDOW_S): StreamWindow {
  const n = streamWindowFrames(rate, seconds);
  const last = clipFrames !== null && clipFrames > 0 ? clipFrames - 1 : Number.POSITIVE_INFINITY;
  const from = Math.floor(Math.max(0, Math.min(frame, last)) / n) * n;
  return { from, to: Math.min(from + n, clipFrames !== null && clipFrames > 0 ? clipFrames : from + n) };
}
