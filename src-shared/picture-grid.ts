import type { FrameRate } from './timecode';

/**
 * A conformed clip (VFR phone footage: `countingOf` in timecode.ts) counts positions on its rate's
 * grid while its pictures keep their own presentation times. The one rule between the two, the
 * one a player applies (a paused <video> sought to t shows the picture whose time <= t < the next
 * one's) and the one the exports hand over (grid position k is source time k / rate, and the NLE
 * shows the picture on screen at that time):
 * - grid position k shows the last picture presented at or before k / rate (the first picture
 *   before any: a player shows it from 0);
 * - a picture reads out as the first grid position that shows it: ceil(time * rate);
 * - so a picture holds for every grid position from there to the next picture's (one or two at
 *   20 fps on a 30 fps grid), and a picture whose successor comes within the same grid frame (a
 *   burst of jitter) is shown at no grid position, as in an NLE's conform.
 * Times are compared with a couple of microseconds of slack: players and ffprobe print times
 * rounded to the microsecond, and no two pictures of a clock as fine as 1/90000 are closer than 11 µs.
 */
const SLACK_S = 2e-6;

/** The first grid position at or after time `t` (s): where a picture presented at `t` first shows. */
export function firstGridAt(t: number, rate: FrameRate): number {
  return Math.max(0, Math.ceil(((t - SLACK_S) * rate.num) / rate.den));
}

/** The index of the picture a player shows at time `t` (s): the last of `times` (ascending) at or before it, 0 before the first. */
export function pictureAt(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t + SLACK_S) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The picture grid position `k` shows. */
export function pictureOfGrid(times: readonly number[], k: number, rate: FrameRate): number {
  return pictureAt(times, (k * rate.den) / rate.num);
}

/** The grid positions picture `i` shows: [frame, end), empty when the next picture comes within its grid frame. */
export function gridSpanOfPicture(times: readonly number[], i: number, rate: FrameRate): { frame: number; end: number } {
  const frame = i === 0 ? 0 : firstGridAt(times[i]!, rate);
  const next = times[i + 1];
  return { frame, end: next === undefined ? Number.POSITIVE_INFINITY : Math.max(frame, firstGridAt(next, rate)) };
}

/**
 * The time (s) at fraction `at` (0-1) of the interval picture `i` is on screen: a seek there shows
 * it whatever the player's rounding. The last picture lasts as long as the one before it.
 */
export function timeInPicture(times: readonly number[], i: number, at: number): number {
  const start = times[i]!;
  const next = times[i + 1] ?? start + (i > 0 ? start - times[i - 1]! : 0.04);
  return start + (next - start) * at;
}
