/**
 * Relevance an editor can read. Raw cosine similarities are not comparable across queries (one
 * query's best is 0.31, another's unrelated noise is 0.28), so each query is calibrated against the
 * library itself: its similarities to a fixed sample of the library's segments give a robust centre
 * and spread (median, 1.4826 x MAD), and a hit's score is how far above that it stands:
 *   z = (cos - median) / spread
 * Among n segments that have nothing to do with the query, the best one still reaches about
 * sqrt(2 ln n) by chance (the expected maximum of n normal draws), so the relevance floor sits a
 * spread and a half above it: floor = sqrt(2 ln n) + 1.5 (the half covers the error of a median and
 * MAD measured on 256 samples, about 8%). The displayed score maps z onto 0..100 with the floor at
 * 50: score = 100 / (1 + exp(-(z - floor) * 4 / floor)). It is monotonic in the cosine, so ordering by
 * score is ordering by similarity within a query; never negative; and two queries on the same
 * library share the scale, since both are measured in spreads of the same library. A query whose
 * best hit is under the floor matches nothing well: the results are "closest, not good".
 */
export interface Calibration {
  median: number;
  spread: number;
  floorZ: number;
}

/** Segments of the sample the distribution is measured on: enough for a stable median and MAD, cheap per query. */
export const SAMPLE_SIZE = 256;
const MAD_TO_SIGMA = 1.4826;
/** Below this spread the sample is degenerate (all alike): fall back to a cosine-scale spread. */
const MIN_SPREAD = 1e-3;

function median(sorted: Float64Array): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const m = n >> 1;
  return n % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

const FLOOR_MARGIN = 1.5;

export function floorZ(librarySize: number): number {
  const n = Math.max(2, librarySize);
  return Math.sqrt(2 * Math.log(n)) + FLOOR_MARGIN;
}

/** similarities: the query against the sample; librarySize: segments searched. */
export function calibrate(similarities: ArrayLike<number>, librarySize: number): Calibration {
  const sorted = Float64Array.from(similarities).sort();
  const med = median(sorted);
  const dev = Float64Array.from(sorted, (v) => Math.abs(v - med)).sort();
  const spread = Math.max(MIN_SPREAD, MAD_TO_SIGMA * median(dev));
  return { median: med, spread, floorZ: floorZ(librarySize) };
}

export function zScore(cos: number, c: Calibration): number {
  return (cos - c.median) / c.spread;
}

/** 0..100, 50 at the relevance floor. */
export function relevanceScore(cos: number, c: Calibration): number {
  const z = zScore(cos, c);
  return 100 / (1 + Math.exp((-(z - c.floorZ) * 4) / c.floorZ));
}

export function aboveFloor(cos: number, c: Calibration): boolean {
  return zScore(cos, c) >= c.floorZ;
}
