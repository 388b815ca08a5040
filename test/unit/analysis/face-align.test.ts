import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { frameOfSample, THUMBS_PER_LOOK, thumbsOfClip, thumbsToKeep } from '../../../src-main/core/analysis/face-identity-store';
import type { FaceIdentity } from '../../../src-main/core/analysis/analysis-types';
import { CROP, TEMPLATE, cutPatch, fitSimilarity, rgbToInput, scaled, sharpness, warpBox, warpToRgb, wholeFrame, yawOf } from '../../../src-main/core/analysis/workers/face-align.cjs';
import { THUMB, identifyFaces, identityPatch, l2normalize } from '../../../src-main/core/analysis/workers/face-identity.cjs';
import { encodePngRgb } from '../../../src-main/core/util/png';

/** Applies x' = a x - b y + tx, y' = b x + a y + ty to every point. */
function apply(m: { a: number; b: number; tx: number; ty: number }, pts: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < pts.length; i += 2) out.push(m.a * pts[i]! - m.b * pts[i + 1]! + m.tx, m.b * pts[i]! + m.a * pts[i + 1]! + m.ty);
  return out;
}

/**
 * A yuv420p frame, gray (U = V = 128), whose luma at (x, y) is 16 + (x + 2y) / 1.164 rounded down
 * to a step the conversion maps back exactly: pixel (x, y) turns into the gray level x + 2y (mod
 * the 200 levels it spans), so where a warp sampled can be read back from its RGB.
 */
const level = (x: number, y: number) => (x + 2 * y) % 200;
function coordFrame(w: number, h: number): Uint8Array {
  const f = new Uint8Array(w * h * 1.5).fill(128);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) f[y * w + x] = 16 + level(x, y) / 1.164;
  return f;
}
const gray = (crop: Uint8Array, size: number, u: number, v: number) => crop[(v * size + u) * 3]!;

describe('fitSimilarity', () => {
  it('maps the template onto itself with the identity', () => {
    const m = fitSimilarity(TEMPLATE, TEMPLATE)!;
    expect(m.a).toBeCloseTo(1, 9);
    expect(m.b).toBeCloseTo(0, 9);
    expect(m.tx).toBeCloseTo(0, 6);
    expect(m.ty).toBeCloseTo(0, 6);
  });

  it('recovers a known rotation, scale and shift, and least-squares through noise', () => {
    const angle = 0.4;
    const scale = 0.35;
    const truth = { a: scale * Math.cos(angle), b: scale * Math.sin(angle), tx: 12.5, ty: -7 };
    // Landmarks in a big frame that the truth maps onto the template: src = truth^-1(template).
    const det = truth.a ** 2 + truth.b ** 2;
    const src: number[] = [];
    for (let i = 0; i < 10; i += 2) {
      const u = TEMPLATE[i]! - truth.tx;
      const v = TEMPLATE[i + 1]! - truth.ty;
      src.push((truth.a * u + truth.b * v) / det, (-truth.b * u + truth.a * v) / det);
    }
    const m = fitSimilarity(src, TEMPLATE)!;
    expect(m.a).toBeCloseTo(truth.a, 9);
    expect(m.b).toBeCloseTo(truth.b, 9);
    expect(m.tx).toBeCloseTo(truth.tx, 6);
    expect(m.ty).toBeCloseTo(truth.ty, 6);
    const noisy = src.map((v, i) => v + (i % 3 === 0 ? 0.8 : -0.5));
    const n = fitSimilarity(noisy, TEMPLATE)!;
    const err = (mm: typeof m) => apply(mm, noisy).reduce((s, v, i) => s + (v - TEMPLATE[i]!) ** 2, 0);
    // The fit's residual is no larger than the truth's on the noisy points (it is the least-squares one).
    expect(err(n)).toBeLessThanOrEqual(err(truth) + 1e-9);
    expect(Math.atan2(n.b, n.a)).toBeCloseTo(angle, 1);
  });

  it('has no answer for points that coincide', () => {
    expect(fitSimilarity([5, 5, 5, 5, 5, 5, 5, 5, 5, 5], TEMPLATE)).toBeNull();
  });
});

describe('warpToRgb', () => {
  it('samples the frame at the inverse-mapped points, bilinearly, BT.601 to RGB, black outside', () => {
    const w = 300;
    const h = 200;
    const frame = coordFrame(w, h);
    // crop = frame scaled by 0.5 then shifted by (-10, -20): crop (u, v) samples frame (2(u + 10), 2(v + 20)).
    const crop = warpToRgb(wholeFrame(frame, w, h), w, h, { a: 0.5, b: 0, tx: -10, ty: -20 }, CROP, null);
    for (const [u, v] of [[0, 0], [30, 25], [5, 2]] as const) expect(Math.abs(gray(crop, CROP, u, v) - level(2 * (u + 10), 2 * (v + 20)))).toBeLessThanOrEqual(1);
    // Gray stays gray: R = G = B.
    expect(crop[3 * 40]).toBe(crop[3 * 40 + 1]);
    expect(crop[3 * 40 + 1]).toBe(crop[3 * 40 + 2]);
    // Half a frame pixel between samples (crop scale 2): the mean of two neighbours.
    const half = warpToRgb(wholeFrame(frame, w, h), w, h, { a: 2, b: 0, tx: -1, ty: 0 }, 8, null);
    expect(Math.abs(gray(half, 8, 1, 0) - 0.5)).toBeLessThanOrEqual(1);
    // Shifted left past the frame's right edge: black where the frame ends (x >= 300 from u = 50).
    const shifted = warpToRgb(wholeFrame(frame, w, h), w, h, { a: 1, b: 0, tx: -250, ty: 0 }, CROP, null);
    expect(Array.from(shifted.subarray((10 * CROP + 100) * 3, (10 * CROP + 100) * 3 + 3))).toEqual([0, 0, 0]);
    expect(Math.abs(gray(shifted, CROP, 40, 10) - level(290, 10))).toBeLessThanOrEqual(1);
  });

  it('reads colour from the chroma planes', () => {
    const w = 64;
    const h = 64;
    const red = new Uint8Array(w * h * 1.5);
    red.fill(81, 0, w * h);
    red.fill(90, w * h, w * h * 1.25);
    red.fill(240, w * h * 1.25);
    const crop = warpToRgb(wholeFrame(red, w, h), w, h, { a: 1, b: 0, tx: 0, ty: 0 }, 16, null);
    const [r, g, b] = Array.from(crop.subarray((8 * 16 + 8) * 3, (8 * 16 + 8) * 3 + 3));
    expect(r).toBeGreaterThan(240);
    expect(g).toBeLessThan(10);
    expect(b).toBeLessThan(10);
  });

  it('scaled() draws the same crop at another size', () => {
    const frame = coordFrame(256, 256);
    const m = { a: 0.5, b: 0, tx: 0, ty: 0 };
    const small = warpToRgb(wholeFrame(frame, 256, 256), 256, 256, scaled(m, 0.5), 56, null);
    // small (u, v) = big crop (2u, 2v) = frame (4u, 4v)
    expect(Math.abs(gray(small, 56, 5, 7) - level(20, 28))).toBeLessThanOrEqual(1);
  });
});

describe('the patch of a frame a warp reads (warpBox, cutPatch)', () => {
  // Noise: every pixel differs from its neighbours, so a pixel the patch missed would change the crop.
  let seed = 7;
  const noise = (w: number, h: number) => new Uint8Array(w * h * 1.5).map(() => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), 16 + (seed % 220)));

  it('gives the same crop, byte for byte, as the whole frame: rotated, scaled, at the edges and partly outside', () => {
    const [w, h] = [320, 180];
    const frame = noise(w, h);
    const transforms = [];
    for (const angle of [0, 0.3, -0.9, Math.PI / 2, 2.5]) {
      for (const scale of [0.37, 1, 2.8, 6]) {
        // Face centres inside, at the corners and past the edges of the frame.
        for (const [cx, cy] of [[160, 90], [3, 4], [317, 177], [-20, 90], [330, 200], [101.37, 66.61]] as const) {
          const a = scale * Math.cos(angle), b = scale * Math.sin(angle);
          transforms.push({ a, b, tx: 56 - (a * cx - b * cy), ty: 56 - (b * cx + a * cy) });
        }
      }
    }
    for (const m of transforms) {
      for (const [mm, size] of [[m, CROP], [scaled(m, THUMB / CROP), THUMB]] as const) {
        const patch = cutPatch(frame, w, h, warpBox(mm, size, w, h));
        expect(Buffer.from(warpToRgb(patch, w, h, mm, size, null)).equals(warpToRgb(wholeFrame(frame, w, h), w, h, mm, size, null))).toBe(true);
      }
    }
  });

  it("holds a small face's box only, and nothing of a crop wholly outside the frame", () => {
    const [w, h] = [960, 540];
    // A face 40 px between the eyes, upright: its 112 px crop reads about 100 x 100 frame pixels.
    const box = warpBox({ a: 35 / 40, b: 0, tx: 56 - (35 / 40) * 480, ty: 56 - (35 / 40) * 270 }, CROP, w, h);
    expect(box.w * box.h).toBeLessThan(150 * 150);
    expect(box.x % 2 + box.y % 2 + box.w % 2 + box.h % 2).toBe(0);
    const patch = cutPatch(noise(w, h), w, h, box);
    expect(patch.data.byteLength).toBe(box.w * box.h * 1.5);
    const outside = { a: 1, b: 0, tx: 5000, ty: 0 };
    expect(warpBox(outside, CROP, w, h)).toEqual({ x: 0, y: 0, w: 0, h: 0 });
    const black = warpToRgb(cutPatch(noise(w, h), w, h, warpBox(outside, CROP, w, h)), w, h, outside, CROP, null);
    expect(new Set(black)).toEqual(new Set([0]));
  });
});

describe('face measures', () => {
  it('yaw is 0 for the template, grows as the nose moves to an eye and as the eyes close up', () => {
    expect(yawOf(TEMPLATE)).toBeLessThan(0.02);
    const turned = TEMPLATE.slice();
    turned[4] = TEMPLATE[2]!; // nose under the image-right eye
    expect(yawOf(turned)).toBeCloseTo(1, 1);
    const narrow = TEMPLATE.slice();
    narrow[0] = 48;
    narrow[2] = 64; // eyes 16 apart instead of 35
    expect(yawOf(narrow)).toBeGreaterThan(0.5);
    // A rotated, scaled frontal face is still frontal.
    expect(yawOf(apply({ a: 3 * Math.cos(1), b: 3 * Math.sin(1), tx: 40, ty: 9 }, TEMPLATE))).toBeLessThan(0.02);
  });

  it('sharpness is the Laplacian variance: 0 for a flat crop, large for a checkerboard, less once smoothed', () => {
    const flat = new Uint8Array(CROP * CROP * 3).fill(128);
    expect(sharpness(flat, CROP)).toBe(0);
    const checker = new Uint8Array(CROP * CROP * 3);
    const ramp = new Uint8Array(CROP * CROP * 3);
    for (let y = 0; y < CROP; y++) {
      for (let x = 0; x < CROP; x++) {
        checker.fill((x + y) % 2 ? 255 : 0, (y * CROP + x) * 3, (y * CROP + x) * 3 + 3);
        ramp.fill(Math.round(127 + 120 * Math.sin(x / 4)), (y * CROP + x) * 3, (y * CROP + x) * 3 + 3);
      }
    }
    expect(sharpness(checker, CROP)).toBeGreaterThan(1000);
    expect(sharpness(ramp, CROP)).toBeGreaterThan(0);
    expect(sharpness(ramp, CROP)).toBeLessThan(sharpness(checker, CROP) / 100);
  });

  it('rgbToInput is planar RGB with the ImageNet mean and std', () => {
    const rgb = new Uint8Array(4 * 3).fill(0);
    rgb.set([255, 0, 0]);
    const t = rgbToInput(rgb, 2, null);
    expect(t[0]).toBeCloseTo((1 - 0.485) / 0.229, 5);
    expect(t[4]).toBeCloseTo(-0.456 / 0.224, 5);
    expect(t[8]).toBeCloseTo(-0.406 / 0.225, 5);
  });
});

describe('identifyFaces (the model replaced by a stub)', () => {
  const task = { width: 300, height: 200, sourceWidth: 1200, sourceHeight: 800, minEyePx: 12, minSharpness: 3, maxYaw: 0.7, goodEyePx: 48, goodSharpness: 30, model: 'm.onnx' };
  // A yuv420p checkerboard (luma only; chroma gray).
  const checker = new Uint8Array(300 * 200 * 1.5).map((_, i) => (i >= 300 * 200 ? 128 : ((i % 300) + Math.floor(i / 300)) % 2 ? 235 : 16));
  const face = (eyeFrac: number) => {
    const c = 0.5;
    return { x: 0.4, y: 0.4, w: 0.2, h: 0.2, score: 0.9, landmarks: [c - eyeFrac / 2, 0.45, c + eyeFrac / 2, 0.45, c, 0.5, c - eyeFrac / 2.5, 0.56, c + eyeFrac / 2.5, 0.56] };
  };

  it('embeds a face above the floors (unit length) and not one under 12 px between the eyes', async () => {
    let runs = 0;
    const embed = async () => (runs++, new Float32Array(128).fill(2));
    const [big, tiny] = await identifyFaces([face(0.05), face(0.005)], identityPatch(checker, [face(0.05), face(0.005)], task), task, embed);
    expect(big!.eyePx).toBeCloseTo(60, 5);
    expect(big!.model).toBe('m.onnx');
    expect(big!.assignable).toBe(true);
    expect(Math.hypot(...big!.embedding!)).toBeCloseTo(1, 5);
    expect(big!.thumb!.length).toBe(64 * 64 * 3);
    expect(tiny!.eyePx).toBeCloseTo(6, 5);
    expect(tiny!.assignable).toBe(false);
    expect(tiny!.embedding).toBeNull();
    expect(tiny!.thumb).toBeNull();
    expect(runs).toBe(1);
  });

  it('does not embed a blurred face', async () => {
    const flat = new Uint8Array(300 * 200 * 1.5).fill(90);
    const [id] = await identifyFaces([face(0.05)], identityPatch(flat, [face(0.05)], task), task, async () => new Float32Array(128).fill(1));
    expect(id!.sharpness).toBe(0);
    expect(id!.assignable).toBe(false);
  });

  it('l2normalize gives unit length', () => {
    expect(Math.hypot(...l2normalize([3, 4]))).toBeCloseTo(1, 6);
  });
});

describe('storage helpers', () => {
  it('frameOfSample counts on the shot frames and stays inside the shot', () => {
    const shot = { clip_id: 1, start_s: 10, end_s: 12, start_frame: 250, end_frame: 300 };
    expect(frameOfSample(shot, 10)).toBe(250);
    expect(frameOfSample(shot, 11)).toBe(275);
    expect(frameOfSample(shot, 12)).toBe(299);
    expect(frameOfSample({ ...shot, start_frame: null }, 11)).toBeNull();
  });

  it('thumbsToKeep keeps the best face of each look', () => {
    const id = (quality: number, e: number[]): FaceIdentity => ({
      model: 'm.onnx',
      eyePx: 30, sharpness: 20, yaw: 0, quality, assignable: true, embedding: l2normalize(e), thumb: new Uint8Array(64 * 64 * 3),
    });
    const faces = [id(0.5, [1, 0.1]), id(0.9, [1, 0]), id(0.7, [0, 1]), { ...id(1, [1, 1]), assignable: false, embedding: null, thumb: null }];
    expect([...thumbsToKeep(faces, 1)].sort()).toEqual([1, 2]);
  });

  it('thumbsToKeep keeps a few faces of each look, spread over the shot, at most THUMBS_PER_LOOK', () => {
    const id = (quality: number, e: number[]): FaceIdentity => ({
      model: 'm.onnx',
      eyePx: 30, sharpness: 20, yaw: 0, quality, assignable: true, embedding: l2normalize(e), thumb: new Uint8Array(64 * 64 * 3),
    });
    // One person talking for 20 samples (the best at sample 3), and a second person seen twice.
    const talking = Array.from({ length: 20 }, (_, k) => id(k === 3 ? 0.99 : 0.5 + (k % 5) / 20, [1, 0.01 * k]));
    const faces = [...talking, id(0.8, [0, 1]), id(0.6, [0.05, 1])];
    const kept = [...thumbsToKeep(faces)].sort((a, b) => a - b);
    const first = kept.filter((i) => i < 20);
    expect(first).toHaveLength(THUMBS_PER_LOOK);
    expect(first).toContain(3);
    // One in each quarter of the shot: distinct moments, not the best four in a row.
    expect(first.map((i) => Math.floor(i / 5))).toEqual([0, 1, 2, 3]);
    expect(kept.filter((i) => i >= 20)).toEqual([20, 21]);
    // The old rule, one per look, is perLook 1.
    expect([...thumbsToKeep(faces, 1)].sort((a, b) => a - b)).toEqual([3, 20]);
  });

  it("thumbsOfClip keeps each shot's best and a few more per person over the clip, not per shot", () => {
    const id = (quality: number, e: number[]): FaceIdentity => ({
      model: 'm.onnx',
      eyePx: 30, sharpness: 20, yaw: 0, quality, assignable: true, embedding: l2normalize(e), thumb: new Uint8Array(64 * 64 * 3),
    });
    // Ten short shots of one person, three faces each: before, one crop a shot; now one a shot and at most THUMBS_PER_LOOK spread more.
    const shots = Array.from({ length: 10 }, (_, s) => [id(0.6, [1, 0.01 * s]), id(0.7 + s / 100, [1, 0.01 * s + 0.001]), id(0.5, [1, 0.01 * s + 0.002])]);
    const kept = thumbsOfClip(shots);
    for (const k of kept) expect(k.has(1)).toBe(true);
    expect(kept.reduce((n, k) => n + k.size, 0)).toBeLessThanOrEqual(10 + THUMBS_PER_LOOK);
    // One long shot of the same faces: the spread picks are kept there.
    expect(thumbsOfClip([shots.flat()])[0]!.size).toBe(THUMBS_PER_LOOK);
  });

  it('encodePngRgb writes a PNG that inflates back to the pixels', () => {
    const rgb = new Uint8Array(2 * 2 * 3).map((_, i) => i * 10);
    const png = encodePngRgb(2, 2, rgb);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const idatAt = png.indexOf('IDAT');
    const len = png.readUInt32BE(idatAt - 4);
    const raw = zlib.inflateSync(png.subarray(idatAt + 4, idatAt + 4 + len));
    expect(Array.from(raw)).toEqual([0, ...rgb.subarray(0, 6), 0, ...rgb.subarray(6)]);
    // Each chunk's CRC covers its type and data.
    expect(png.readUInt32BE(idatAt + 4 + len)).toBe(zlib.crc32(png.subarray(idatAt, idatAt + 4 + len)));
  });
});
