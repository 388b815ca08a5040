import { describe, expect, it } from 'vitest';
import { combinedScore, FrameDiffer } from '../../../src-main/core/media/shot-score';
import { jpegSize } from '../../../src-main/core/media/jpeg-size';
import { fillMissingTimes } from '../../../src-main/core/media/clip-decoder';

const W = 8;
const H = 4;
const solid = (r: number, g: number, b: number) => {
  const f = new Uint8Array(W * H * 3);
  for (let i = 0; i < f.length; i += 3) f.set([r, g, b], i);
  return f;
};

describe('frame differences', () => {
  it('is zero for the first and for identical frames, one for opposite colours', () => {
    const d = new FrameDiffer(W * H * 3);
    expect(d.push(solid(10, 20, 30))).toEqual({ hist: 0, pixel: 0 });
    expect(d.push(solid(10, 20, 30))).toEqual({ hist: 0, pixel: 0 });
    const s = d.push(solid(255, 255, 255));
    expect(s.hist).toBeCloseTo(1, 6);
    expect(s.pixel).toBeCloseTo((245 + 235 + 225) / 3 / 255, 6);
    expect(combinedScore(s)).toBeCloseTo((s.hist + s.pixel) / 2, 9);
  });

  it('separates layout change (pixels) from colour change (histogram)', () => {
    const d = new FrameDiffer(W * H * 3);
    const half = (flip: boolean) => {
      const f = new Uint8Array(W * H * 3);
      for (let p = 0; p < W * H; p++) {
        const left = p % W < W / 2;
        f.set(left !== flip ? [255, 255, 255] : [0, 0, 0], p * 3);
      }
      return f;
    };
    d.push(half(false));
    const s = d.push(half(true)); // same colours, mirrored layout
    expect(s.hist).toBe(0);
    expect(s.pixel).toBeCloseTo(1, 6);
    expect(() => d.push(new Uint8Array(5))).toThrow(RangeError);
  });
});

describe('jpegSize', () => {
  it('reads the SOF marker and refuses non-JPEG data', () => {
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0xb4, 0x01, 0x40, 0x03, 0, 0, 0, 0]);
    expect(jpegSize(jpeg)).toEqual({ width: 320, height: 180 });
    expect(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });
});

describe('fillMissingTimes', () => {
  it('interpolates lost showinfo timestamps inside, before and after the known ones', () => {
    const N = Number.NaN;
    const mid = fillMissingTimes([0, 0.04, N, 0.12, 0.16]);
    [0, 0.04, 0.08, 0.12, 0.16].forEach((t, i) => expect(mid[i]).toBeCloseTo(t, 9));
    const lead = fillMissingTimes([N, N, 0.08, 0.12]);
    expect(lead[0]).toBeCloseTo(0, 9);
    expect(lead[1]).toBeCloseTo(0.04, 9);
    const tail = fillMissingTimes([0, 0.04, N]);
    expect(tail[2]).toBeCloseTo(0.08, 9);
    expect(fillMissingTimes([N, N])).toEqual([0, 0.04]);
  });
});
