import { describe, expect, it } from 'vitest';
import { PROXY_DEFAULTS } from '../../../src-main/core/media/proxy-branch';
import { FULL_SIZE, nextStreamSize, STREAM_FASTER_FROM, STREAM_SLOWER_BELOW, streamHeight, type StreamSize } from '../../../src-main/core/proxies/stream-size';
import { isReducedStream, STREAM_HEIGHTS } from '../../../src-shared/stream-window';

/** The preview stream's size as an NLE's playback resolution: smaller while the transcode cannot keep up, back up once it can (stream-size.ts). */
describe('the size of the next preview windows', () => {
  const run = (speeds: number[]) => speeds.reduce<StreamSize[]>((acc, v) => [...acc, nextStreamSize(acc.at(-1)!, v)], [FULL_SIZE]).map(streamHeight);

  it('starts at the proxy\'s height and keeps it while windows are written faster than real time', () => {
    expect(streamHeight(FULL_SIZE)).toBe(PROXY_DEFAULTS.height);
    expect(run([5, 1.2, 1, 2.9, 40])).toEqual([540, 540, 540, 540, 540, 540]);
  });

  it('steps down one size for each window written slower than real time, to the smallest and no further', () => {
    expect(run([0.8, 0.5, 0.2, 0.1])).toEqual([540, 360, 270, 270, 270]);
    expect(STREAM_HEIGHTS.at(-1)).toBe(270);
  });

  it('comes back up one size at a time once windows are written well ahead of real time, not at a bare keep-up', () => {
    expect(run([0.5, 0.5, 1.5, 2.5, STREAM_FASTER_FROM, 1.1, 4])).toEqual([540, 360, 270, 270, 270, 360, 360, 540]);
    // Just under real time steps down, real time itself holds.
    expect(run([STREAM_SLOWER_BELOW - 0.01])).toEqual([540, 360]);
    expect(run([STREAM_SLOWER_BELOW])).toEqual([540, 540]);
  });

  it('ignores a speed that was not measured (0, negative, not a number)', () => {
    expect(run([0, -1, Number.NaN, Number.POSITIVE_INFINITY])).toEqual([540, 540, 540, 540, 540]);
  });
});

describe('the viewer\'s word for a reduced preview window', () => {
  it('a window below the full size of its clip (the proxy\'s height, or the clip\'s own when smaller)', () => {
    expect(isReducedStream(540, 1080)).toBe(false);
    expect(isReducedStream(360, 1080)).toBe(true);
    expect(isReducedStream(270, 2160)).toBe(true);
    // A clip smaller than the proxy's height: its own height is full size, and only a smaller window is reduced.
    expect(isReducedStream(270, 270)).toBe(false);
    expect(isReducedStream(360, 480)).toBe(true);
    expect(isReducedStream(480, 481)).toBe(false);
    // Nothing loaded yet, or the clip's height unknown.
    expect(isReducedStream(0, 1080)).toBe(false);
    expect(isReducedStream(360, null)).toBe(true);
  });

  it('is said of the windows the size rule made smaller than the clip, and only of them', () => {
    // Two windows slower than real time, then two well ahead: the heights main makes windows at, never above the clip's own.
    const heights = [0.5, 0.5, 5, 5].reduce<StreamSize[]>((acc, v) => [...acc, nextStreamSize(acc.at(-1)!, v)], [FULL_SIZE]).map(streamHeight);
    expect(heights).toEqual([540, 360, 270, 360, 540]);
    const said = (clip: number) => heights.map((h) => isReducedStream(Math.min(h, clip), clip));
    expect(said(720)).toEqual([false, true, true, true, false]);
    // A 360-line clip's full size is its own: only the smallest size is a reduction; a 270-line one is never reduced.
    expect(said(360)).toEqual([false, false, true, false, false]);
    expect(said(270)).toEqual([false, false, false, false, false]);
  });
});
