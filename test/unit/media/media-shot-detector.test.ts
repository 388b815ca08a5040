import { describe, expect, it } from 'vitest';
import { SHOT_FRAME, ShotDetector } from '../../../src-main/core/media/shot-detector';

const BYTES = SHOT_FRAME.width * SHOT_FRAME.height * 3;

/** A textured frame: a diagonal gradient of the given colour, shifted by `dx` pixels (slow motion). */
function frame(rgb: [number, number, number], dx = 0): Uint8Array {
  const f = new Uint8Array(BYTES);
  for (let y = 0; y < SHOT_FRAME.height; y++) {
    for (let x = 0; x < SHOT_FRAME.width; x++) {
      const g = ((x + dx + y) % 32) / 32;
      const o = (y * SHOT_FRAME.width + x) * 3;
      for (let c = 0; c < 3; c++) f[o + c] = Math.round(rgb[c]! * (0.5 + g / 2));
    }
  }
  return f;
}

describe('ShotDetector (streaming)', () => {
  it('reports a hard cut with its frame, time, kind and a zero-length span, and the shots around it', () => {
    const d = new ShotDetector();
    for (let i = 0; i < 50; i++) d.push(frame([200, 60, 40], i % 3), i / 25);
    for (let i = 50; i < 100; i++) d.push(frame([30, 90, 220], i % 3), i / 25);
    const r = d.finish(4);
    expect(r.frames).toBe(100);
    expect(r.ptsTimes).toHaveLength(100);
    expect(r.cuts).toHaveLength(1);
    expect(r.cuts[0]).toMatchObject({ frame: 50, timeS: 2, kind: 'cut', startS: 2, endS: 2, midS: 2 });
    expect(r.shots.map((s) => [s.startS, s.endS])).toEqual([[0, 2], [2, 4]]);
  });

  it('finds nothing in one steady shot, and retime() replaces the provisional times', () => {
    const d = new ShotDetector();
    for (let i = 0; i < 60; i++) d.push(frame([120, 120, 120], i % 4), Number.NaN);
    d.retime(Array.from({ length: 60 }, (_, i) => i / 30));
    expect(() => d.retime([0])).toThrow(RangeError);
    const r = d.finish(null);
    expect(r.cuts).toEqual([]);
    expect(r.shots).toHaveLength(1);
    expect(r.shots[0]!.endS).toBeCloseTo(2, 6);
  });
});
