/**
 * A clip's sampling grid, anchored at the start of the file: frame k of a stream sampled at `fps` is
 * at k / fps. The decoder samples on it (its filter), the tensors and the local analysis place their
 * frames by it (tensors/shot-grid.ts), so every consumer of one decode agrees on the times.
 */

/**
 * The ffmpeg filter that samples a stream on the grid: output frame k is the picture on screen at
 * k / fps, the last frame whose time is at or before it (round=up). The filter's default rounding
 * ("near") takes the last frame before (k + 0.5) / fps instead, up to half an interval later than
 * its grid time, so a frame just before a cut showed the next shot.
 */
export function gridFilter(fps: number): string {
  return `fps=${fps}:round=up`;
}

/** Time of sampled frame `index` on a stream sampled at `fps` from the origin. */
export function gridTime(index: number, fps: number): number {
  return index / fps;
}

