import { describe, expect, it } from 'vitest';
import { classifyMotion } from '../../../src-main/core/analysis/camera-motion';
import { estimateStep } from '../../../src-main/core/analysis/workers/block-motion.cjs';
import type { MotionStep } from '../../../src-main/core/analysis/workers/block-motion.cjs';

const W = 160;
const H = 90;
const DT = 0.2;

function steps(n: number, f: (i: number) => Partial<MotionStep>): MotionStep[] {
  return Array.from({ length: n }, (_, i) => ({ tx: 0, ty: 0, k: 0, valid: true, blocks: 30, inliers: 30, residual: 0.1, ...f(i) }));
}

/** Deterministic textured scene (sum of sinusoids + hash noise), sampled with bilinear interpolation. */
function scene(x: number, y: number): number {
  const h = Math.sin(x * 12.9898 + y * 78.233) * 43758.5453;
  return 128 + 40 * Math.sin(x / 7) * Math.cos(y / 5) + 30 * Math.sin((x + 2 * y) / 11) + 20 * (h - Math.floor(h) - 0.5);
}
function render(cx: number, cy: number, scale: number): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sx = cx + (x - W / 2) / scale;
      const sy = cy + (y - H / 2) / scale;
      const ix = Math.floor(sx);
      const iy = Math.floor(sy);
      const fx = sx - ix;
      const fy = sy - iy;
      const v =
        scene(ix, iy) * (1 - fx) * (1 - fy) + scene(ix + 1, iy) * fx * (1 - fy) + scene(ix, iy + 1) * (1 - fx) * fy + scene(ix + 1, iy + 1) * fx * fy;
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  return out;
}

describe('block-matching global motion', () => {
  it('measures content translation with sub-pixel precision, x right and y down', () => {
    const a = render(300, 200, 1);
    const b = render(300 - 3.25, 200 + 2, 1); // view moved left/up -> content moved right/down
    const s = estimateStep(a, b, W, H);
    expect(s.valid).toBe(true);
    expect(s.tx).toBeCloseTo(3.25, 0);
    expect(s.ty).toBeCloseTo(-2, 0);
    expect(Math.abs(s.k)).toBeLessThan(0.005);
  });

  it('measures zoom as a positive scale change when content grows', () => {
    const s = estimateStep(render(300, 200, 1), render(300, 200, 1.04), W, H);
    expect(s.valid).toBe(true);
    expect(s.k).toBeGreaterThan(0.025);
    expect(s.k).toBeLessThan(0.055);
    expect(Math.abs(s.tx)).toBeLessThan(0.3);
  });

  it('follows a fast pan beyond the fine search range', () => {
    const s = estimateStep(render(300, 200, 1), render(300 + 22, 200, 1), W, H);
    expect(s.tx).toBeCloseTo(-22, 0);
  });

  it('reports flat frames as unmeasurable', () => {
    const flat = new Uint8Array(W * H).fill(90);
    expect(estimateStep(flat, flat, W, H).valid).toBe(false);
  });
});

describe('camera motion classification', () => {
  it('uses the camera sign convention: content moving left is a pan right', () => {
    expect(classifyMotion(steps(10, () => ({ tx: -3 })), W, DT).movement).toBe('pan right');
    expect(classifyMotion(steps(10, () => ({ tx: 3 })), W, DT).movement).toBe('pan left');
    expect(classifyMotion(steps(10, () => ({ ty: 3 })), W, DT).movement).toBe('tilt up');
    expect(classifyMotion(steps(10, () => ({ ty: -3 })), W, DT).movement).toBe('tilt down');
    expect(classifyMotion(steps(10, () => ({ k: 0.02 })), W, DT).movement).toBe('zoom in');
    expect(classifyMotion(steps(10, () => ({ k: -0.02 })), W, DT).movement).toBe('zoom out');
  });

  it('reports speed in frame widths per second', () => {
    const m = classifyMotion(steps(10, () => ({ tx: -4 })), W, DT);
    expect(m.panSpeed).toBeCloseTo(4 / W / DT, 6);
    expect(m.magnitude).toBeCloseTo(0.125, 6);
  });

  it('calls small motion static and direction-less shake handheld', () => {
    expect(classifyMotion(steps(12, () => ({ tx: 0.1 })), W, DT).movement).toBe('static');
    const shake = classifyMotion(steps(20, (i) => ({ tx: [2.5, -2, 1.5, -3][i % 4], ty: [-1.5, 2, -2.5, 1][i % 4] })), W, DT);
    expect(shake.movement).toBe('handheld');
    expect(shake.jitter).toBeGreaterThan(0.04);
    // A steady pan with mild shake stays a pan.
    expect(classifyMotion(steps(20, (i) => ({ tx: -5 + (i % 2 ? 0.4 : -0.4) })), W, DT).movement).toBe('pan right');
  });

  it('ignores a few outlier steps and makes no claim without reliable steps', () => {
    const mostlyStill = steps(20, (i) => (i >= 8 && i < 11 ? { ty: -8 } : {}));
    expect(classifyMotion(mostlyStill, W, DT).movement).toBe('static');
    const unreliable = steps(6, (i) => ({ valid: i === 0 }));
    expect(classifyMotion(unreliable, W, DT).movement).toBeNull();
    expect(classifyMotion([], W, DT).movement).toBeNull();
  });
});
