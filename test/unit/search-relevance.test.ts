import { describe, expect, it } from 'vitest';
import { aboveFloor, calibrate, floorZ, relevanceScore } from '../../src-main/core/search/relevance';

/** A seeded normal generator: similarities of a query to segments it has nothing to do with. */
function normals(n: number, mean: number, sd: number, seed: number): number[] {
  let s = seed;
  const u = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  return Array.from({ length: n }, () => mean + sd * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}

describe('relevance calibration', () => {
  it('keeps the order of the similarities and never goes below 0 or above 100', () => {
    const c = calibrate(normals(256, 0.2, 0.03, 1), 10_000);
    const sims = [-1, -0.2, 0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.5, 0.9, 1];
    const scores = sims.map((x) => relevanceScore(x, c));
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThanOrEqual(scores[i - 1]!);
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...scores)).toBeLessThanOrEqual(100);
  });

  it('puts the best of a query unrelated to the library under the floor, at any library size', () => {
    for (const [n, seed] of [[50, 2], [1_000, 3], [100_000, 4], [1_000_000, 5]] as const) {
      // The library's similarities to a nonsense query, and the best of them: what a plain top-k would show.
      const library = normals(Math.min(n, 200_000), 0.05, 0.04, seed);
      const sample = library.slice(0, 256);
      const c = calibrate(sample, n);
      const best = library.reduce((a, b) => Math.max(a, b), -Infinity);
      expect(aboveFloor(best, c), `n=${n}`).toBe(false);
      expect(relevanceScore(best, c)).toBeLessThan(50);
    }
  });

  it('puts real matches above the floor, and scores two queries on one library on one scale', () => {
    // Two queries on the same library: their own spreads differ (one is sharper), their matches
    // stand out by the same number of spreads, and get the same score.
    const a = calibrate(normals(256, 0.2, 0.02, 6), 50_000);
    const b = calibrate(normals(256, 0.3, 0.05, 7), 50_000);
    const matchA = a.median + 7 * a.spread;
    const matchB = b.median + 7 * b.spread;
    expect(aboveFloor(matchA, a) && aboveFloor(matchB, b)).toBe(true);
    expect(Math.abs(relevanceScore(matchA, a) - relevanceScore(matchB, b))).toBeLessThan(1);
    // The raw cosines say the opposite of what is comparable: B's match is higher only because B's noise is.
    expect(relevanceScore(b.median, b)).toBeLessThan(20);
    expect(relevanceScore(a.median, a)).toBeLessThan(20);
  });

  it('places the floor where chance stops: sqrt(2 ln n) + 1.5', () => {
    expect(floorZ(1_000_000)).toBeCloseTo(Math.sqrt(2 * Math.log(1e6)) + 1.5, 9);
    expect(floorZ(1)).toBe(floorZ(2));
    expect(relevanceScore(calibrate([0, 0.1, 0.2], 10).median + floorZ(10) * calibrate([0, 0.1, 0.2], 10).spread, calibrate([0, 0.1, 0.2], 10))).toBeCloseTo(50, 6);
  });
});
