import { describe, expect, it } from 'vitest';
import type { CameraMotion, FrameFaces } from '../../../src-main/core/analysis/analysis-types';
import { localTagsFor, shotSizeForFaceHeight, summarizeFaces } from '../../../src-main/core/analysis/local-tags';
import { bgrToPlanar, decodeYunet, nms, normalizeFaces, type RawFace } from '../../../src-main/core/analysis/workers/yunet.cjs';

function emptyOutputs(w: number, h: number): Record<string, Float32Array> {
  const o: Record<string, Float32Array> = {};
  for (const s of [8, 16, 32]) {
    const n = (w / s) * (h / s);
    o[`cls_${s}`] = new Float32Array(n);
    o[`obj_${s}`] = new Float32Array(n);
    o[`bbox_${s}`] = new Float32Array(n * 4);
    o[`kps_${s}`] = new Float32Array(n * 10);
  }
  return o;
}

const face = (x: number, y: number, w: number, h: number, score: number): RawFace => ({ x, y, w, h, score, landmarks: new Array(10).fill(0) });
const still: CameraMotion = { movement: 'static', magnitude: 0, confidence: 0.9, panSpeed: 0, tiltSpeed: 0, zoomRate: 0, jitter: 0, steps: 10, validSteps: 10 };

describe('YuNet decoding', () => {
  it('decodes an anchor with the public scheme (score = sqrt(cls*obj), grid offsets times stride)', () => {
    const o = emptyOutputs(64, 32);
    // stride 16: grid 4 x 2; anchor at row 1, column 2 -> index 1*4 + 2 = 6
    const i = 6;
    o.cls_16![i] = 0.81;
    o.obj_16![i] = 1.2; // clamped to 1
    o.bbox_16!.set([0.5, 0.25, Math.log(2), Math.log(3)], i * 4);
    o.kps_16!.set([0.1, 0.2, 0.9, 0.2, 0.5, 0.5, 0.2, 0.8, 0.8, 0.8], i * 10);
    const faces = decodeYunet(o, 64, 32, 0.5);
    expect(faces).toHaveLength(1);
    const f = faces[0]!;
    expect(f.score).toBeCloseTo(0.9, 6);
    // centre ((2+0.5)*16, (1+0.25)*16) = (40, 20); size (32, 48)
    expect([f.x, f.y, f.w, f.h].map((v) => +v.toFixed(4))).toEqual([24, -4, 32, 48]);
    expect(f.landmarks.slice(0, 2).map((v) => +v.toFixed(4))).toEqual([(2 + 0.1) * 16, (1 + 0.2) * 16]);
    expect(decodeYunet(o, 64, 32, 0.95)).toHaveLength(0);
  });

  it('suppresses overlapping boxes, keeping the best', () => {
    const kept = nms([face(0, 0, 10, 10, 0.7), face(1, 1, 10, 10, 0.9), face(50, 50, 10, 10, 0.6)], 0.3, 10);
    expect(kept.map((f) => f.score)).toEqual([0.9, 0.6]);
    expect(nms([face(0, 0, 10, 10, 0.7), face(50, 50, 10, 10, 0.6)], 0.3, 1)).toHaveLength(1);
  });

  it('normalises to the picture and drops detections in the padding', () => {
    const out = normalizeFaces([face(-10, 20, 40, 60, 0.9), face(300, 185, 10, 10, 0.9)], 320, 180);
    expect(out).toHaveLength(1);
    expect(out[0]!.x).toBe(0);
    expect(out[0]!.w).toBeCloseTo(30 / 320, 6);
    expect(out[0]!.h).toBeCloseTo(60 / 180, 6);
  });

  it('feeds the network planar BGR in input order', () => {
    const frame = new Uint8Array([1, 2, 3, 4, 5, 6]); // two pixels, B G R each
    expect([...bgrToPlanar(frame, 2, 1)]).toEqual([1, 4, 2, 5, 3, 6]);
  });
});

describe('local tags', () => {
  it('maps face height to shot size at the documented bounds', () => {
    expect(shotSizeForFaceHeight(0.7)).toBe('extreme close-up');
    expect(shotSizeForFaceHeight(0.45)).toBe('close-up');
    expect(shotSizeForFaceHeight(0.25)).toBe('medium close-up');
    expect(shotSizeForFaceHeight(0.144)).toBe('medium');
    expect(shotSizeForFaceHeight(0.07)).toBe('wide');
    expect(shotSizeForFaceHeight(0.02)).toBe('extreme wide');
  });

  it('uses the median of the per-frame largest face and marks every tag local', () => {
    const frames: FrameFaces[] = [0.3, 0.32, 0.9, 0.31].map((h, i) => ({
      frameIndex: i,
      timeS: i / 2,
      faces: [{ x: 0.1, y: 0.1, w: h / 2, h, score: 0.9, landmarks: [] }, { x: 0.6, y: 0.1, w: 0.05, h: 0.05, score: 0.8, landmarks: [] }],
    }));
    frames.push({ frameIndex: 4, timeS: 2, faces: [] });
    const summary = summarizeFaces(frames, 0.6);
    expect(summary.largestFaceHeight).toBeCloseTo(0.315, 6);
    expect(summary.framesWithFaces).toBe(4);
    expect(summary.maxFaces).toBe(2);
    const tags = localTagsFor(summary, still);
    expect(tags).toEqual([
      { category: 'shot_size', value: 'medium_close_up', confidence: 0.81, source: 'local', magnitude: 0.315 },
      { category: 'camera_movement', value: 'static', confidence: 0.9, source: 'local', magnitude: 0 },
    ]);
  });

  it('gives no shot size when no face passes the score, and nothing about motion it could not measure', () => {
    const frames: FrameFaces[] = [{ frameIndex: 0, timeS: 0, faces: [{ x: 0, y: 0, w: 0.5, h: 0.5, score: 0.4, landmarks: [] }] }];
    const tags = localTagsFor(summarizeFaces(frames, 0.6), { ...still, movement: null });
    expect(tags).toEqual([]);
  });
});
