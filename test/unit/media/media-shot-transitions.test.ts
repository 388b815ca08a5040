import { describe, expect, it } from 'vitest';
import { SHOT_FRAME, ShotDetector } from '../../../src-main/core/media/shot-detector';

const W = SHOT_FRAME.width;
const H = SHOT_FRAME.height;
const FPS = 25;

/** A picture with structure: a colour gradient with a bright block at (bx, by), panned by `dx`. */
function picture(rgb: [number, number, number], bx: number, by: number, dx = 0): Uint8Array {
  const f = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const xx = x + dx;
      const g = 0.4 + 0.6 * (((xx * 3 + y * 5) % 64) / 64);
      const block = xx % 128 >= bx && xx % 128 < bx + 16 && y >= by && y < by + 12;
      const o = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) f[o + c] = block ? 250 : Math.round(rgb[c]! * g);
    }
  }
  return f;
}
const A = picture([200, 70, 40], 8, 4);
// Thumbnails are luma: B differs from A in brightness and layout, not only in hue.
const B = picture([120, 230, 250], 40, 20);
const flat = (v: number): Uint8Array => new Uint8Array(W * H * 3).fill(v);
const mix = (a: Uint8Array, b: Uint8Array, t: number): Uint8Array => a.map((v, i) => Math.round(v * (1 - t) + b[i]! * t));

/** Light per-frame noise so shots are not perfectly still. */
function jitter(f: Uint8Array, k: number): Uint8Array {
  return f.map((v, i) => Math.max(0, Math.min(255, v + (((i * 7 + k * 13) % 5) - 2))));
}

function run(frames: Uint8Array[]) {
  const d = new ShotDetector();
  frames.forEach((f, i) => d.push(jitter(f, i), i / FPS));
  return d.finish(frames.length / FPS);
}

const still = (f: Uint8Array, n: number): Uint8Array[] => Array.from({ length: n }, () => f);
const ramp = (a: Uint8Array, b: Uint8Array, n: number): Uint8Array[] => Array.from({ length: n }, (_, k) => mix(a, b, (k + 1) / (n + 1)));

describe('ShotDetector transitions on generated frames', () => {
  it('a 1 s dissolve is one dissolve boundary in its middle, with its span', () => {
    const r = run([...still(A, 50), ...ramp(A, B, 25), ...still(B, 50)]);
    expect(r.cuts).toHaveLength(1);
    const c = r.cuts[0]!;
    expect(c.kind).toBe('dissolve');
    expect(c.startS).toBeGreaterThanOrEqual(1.9);
    expect(c.endS).toBeLessThanOrEqual(3.1);
    expect(Math.abs(c.midS - 2.5)).toBeLessThanOrEqual(0.12);
    expect(c.timeS).toBe(c.midS);
    expect(r.shots[1]!.startS).toBe(c.midS);
  });

  it('a fade through black is one fade boundary at the black frame', () => {
    const r = run([...still(A, 50), ...ramp(A, flat(0), 12), flat(0), ...ramp(flat(0), B, 12), ...still(B, 50)]);
    expect(r.cuts.map((c) => c.kind)).toEqual(['fade']);
    expect(Math.abs(r.cuts[0]!.midS - 62 / FPS)).toBeLessThanOrEqual(0.08);
  });

  it('a fade through white is one fade boundary', () => {
    const r = run([...still(A, 50), ...ramp(A, flat(255), 12), flat(255), ...ramp(flat(255), B, 12), ...still(B, 50)]);
    expect(r.cuts.map((c) => c.kind)).toEqual(['fade']);
  });

  it('an exposure change (the same picture brightening over a second) is no boundary', () => {
    const bright = A.map((v) => Math.min(255, Math.round(v * 1.6 + 20)));
    const r = run([...still(A, 50), ...ramp(A, bright, 25), ...still(bright, 50)]);
    expect(r.cuts).toEqual([]);
  });

  it('a hard cut stays a cut', () => {
    const r = run([...still(A, 50), ...still(B, 50)]);
    expect(r.cuts.map((c) => [c.kind, c.frame])).toEqual([['cut', 50]]);
  });

  it('a two-frame white flash that returns to the same picture is no boundary', () => {
    const r = run([...still(A, 50), flat(255), flat(255), ...still(A, 50)]);
    expect(r.cuts).toEqual([]);
  });

  it('a whip pan (the picture sliding 12 px a frame for 8 frames) is no boundary', () => {
    const frames = [...Array.from({ length: 50 }, () => picture([200, 70, 40], 8, 4, 0))];
    for (let k = 1; k <= 8; k++) frames.push(picture([200, 70, 40], 8, 4, 12 * k));
    for (let k = 0; k < 50; k++) frames.push(picture([200, 70, 40], 8, 4, 96));
    const r = run(frames);
    expect(r.cuts).toEqual([]);
  });
});
