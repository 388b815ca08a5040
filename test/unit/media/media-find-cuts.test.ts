import { describe, expect, it } from 'vitest';
import { findCuts, shotsFromCuts } from '../../../src-main/core/media/find-cuts';
import type { FrameScore } from '../../../src-main/core/media/shot-score';

const FPS = 25;
const times = (n: number) => Array.from({ length: n }, (_, i) => i / FPS);
/** A calm sequence with optional overrides: frame -> [hist, pixel]. */
function frames(n: number, base = 0.01, overrides: Record<number, [number, number]> = {}): FrameScore[] {
  return Array.from({ length: n }, (_, i) => {
    if (i === 0) return { hist: 0, pixel: 0 };
    const o = overrides[i];
    return o ? { hist: o[0], pixel: o[1] } : { hist: base, pixel: base };
  });
}

describe('cut detection on frame differences', () => {
  it('finds an isolated spike and nothing in calm footage', () => {
    expect(findCuts(frames(100), times(100))).toEqual([]);
    const cuts = findCuts(frames(100, 0.01, { 50: [0.3, 0.25] }), times(100));
    expect(cuts.map((c) => c.frame)).toEqual([50]);
    expect(cuts[0]!.timeS).toBeCloseTo(2, 6);
  });

  it('ignores motion: a run of high pixel differences with steady colours', () => {
    const overrides: Record<number, [number, number]> = {};
    for (let i = 30; i < 60; i++) overrides[i] = [0.03, 0.2 + (i % 3) * 0.02];
    expect(findCuts(frames(100, 0.01, overrides), times(100))).toEqual([]);
  });

  it('ignores a change in one measure only (exposure flicker, a big object moving)', () => {
    expect(findCuts(frames(100, 0.01, { 40: [0.5, 0.03] }), times(100))).toEqual([]);
    expect(findCuts(frames(100, 0.01, { 40: [0.03, 0.5] }), times(100))).toEqual([]);
  });

  it('still finds a cut out of a shaky shot into a calm one', () => {
    const overrides: Record<number, [number, number]> = {};
    for (let i = 1; i < 50; i++) overrides[i] = [0.06, 0.16];
    overrides[50] = [0.14, 0.23];
    expect(findCuts(frames(100, 0.01, overrides), times(100)).map((c) => c.frame)).toEqual([50]);
  });

  it('keeps shots at least minShotS long: the stronger of two close cuts wins, and none hugs an end', () => {
    const cuts = findCuts(frames(100, 0.01, { 40: [0.3, 0.3], 45: [0.5, 0.5] }), times(100), { minShotS: 0.5 });
    expect(cuts.map((c) => c.frame)).toEqual([45]);
    expect(findCuts(frames(100, 0.01, { 5: [0.5, 0.5], 97: [0.5, 0.5] }), times(100))).toEqual([]);
    // With a shorter minimum both close cuts stand.
    expect(findCuts(frames(100, 0.01, { 40: [0.3, 0.3], 45: [0.5, 0.5] }), times(100), { minShotS: 0.1 }).map((c) => c.frame)).toEqual([40, 45]);
  });

  it('works on real timestamps (variable frame rate)', () => {
    const t = Array.from({ length: 60 }, (_, i) => (i < 30 ? i / 30 : 1 + (i - 30) / 15));
    const cuts = findCuts(frames(60, 0.01, { 30: [0.4, 0.4] }), t);
    expect(cuts).toHaveLength(1);
    expect(cuts[0]!.timeS).toBeCloseTo(1, 6);
  });

  it('turns cuts into shots that cover the whole clip', () => {
    const t = times(100);
    const cuts = findCuts(frames(100, 0.01, { 25: [0.4, 0.4], 75: [0.3, 0.3] }), t);
    const shots = shotsFromCuts(cuts, t, 4.0);
    expect(shots.map((s) => [s.startFrame, s.endFrame])).toEqual([[0, 25], [25, 75], [75, 100]]);
    expect(shots[0]!.startS).toBe(0);
    expect(shots[1]!.startS).toBeCloseTo(1, 6);
    expect(shots[2]!.endS).toBe(4.0);
    expect(shots[0]!.cutScore).toBeNull();
    expect(shots[1]!.cutScore).toBeCloseTo(0.4, 6);
    expect(shotsFromCuts([], [], null)).toEqual([]);
    expect(shotsFromCuts([], [0], null)).toEqual([{ idx: 0, startFrame: 0, endFrame: 1, startS: 0, endS: 0, cutScore: null }]);
  });
});
