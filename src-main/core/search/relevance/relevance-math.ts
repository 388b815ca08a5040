/**
 * Relevance an editor can read: a score of 0..100 where 50 is the floor of a match, on one scale for
 * every query of a library. The math, pure and tested directly; relevance-model.ts feeds it.
 *
 * TEXT QUERIES. A raw cosine says little on its own: one query's match is 0.31, another's noise 0.28,
 * and some segments (dark, grey, busy pictures) are near every text ("hubs"). So each segment v is
 * measured against a fixed bank of generic reference queries B (query-bank.ts), encoded by the same
 * model: its similarities {cos(b, v)} are what generic text reaches on that very segment. Their median
 * and spread (1.4826 x MAD, robust to the few bank phrases that do describe v) are v's baseline:
 *     z(q, v) = (cos(q, v) - median_v) / spread_v
 * is how far the query beats generic text on v, in v's own units (querybank normalisation, Bogolin
 * et al., CVPR 2022; CSLS, Conneau et al., 2018). A segment identical to the query's meaning scores
 * high however many similar segments the library holds (the baseline is v's own, not the library's);
 * an outlier clip that stands out from the library in every direction gets no credit for it (generic
 * text stands out on it just as much).
 *
 * The floor. An unrelated query still reaches some z on its luckiest segment, more in a larger and
 * more varied library. Null queries stand for unrelated text: sums of three random bank phrases
 * (seeded, so the same every time) are searched like a query, and the best z each reaches in this
 * library is noted; the floor is their mean plus 2.33 standard deviations (what 99% of unrelated
 * queries stay under), kept within [FLOOR_MIN, FLOOR_MAX]. It belongs to the library, not the query,
 * so two queries' scores compare.
 *
 * The score: 100 / (1 + exp(-SLOPE x (z - floor))): 50 at the floor, 73 half a spread above, 88 one
 * spread above, 12 one below. A cosine at or below 0 is never a match: its score is held under 50.
 *
 * Near-identical content. z cannot exceed (1 - median_v) / spread_v, and in a space of few
 * dimensions (or on a segment whose bank answers spread widely) that ceiling can sit near the floor:
 * an exact match would read as barely good. So the floor's cosine on v is never above
 * NEAR_IDENTICAL_COS (a query and a segment that close point the same way), and above the floor the
 * score is also at least 50 + 50 x (cos - cos_floor) / (1 - cos_floor): the fraction of the way from
 * the floor to identical. Models whose text and pictures never come that close (real text-video
 * cosines stay under 0.5) are scored by spreads alone; identical content scores near 100 in any.
 * Monotonic in the cosine for a given segment.
 *
 * FIND-SIMILAR (a segment's own vector as the query). Picture-to-picture cosines of one library crowd
 * together, and an exact twin cannot stand out by more than the segment's spread allows, so spreads
 * are the wrong unit. The baseline is the candidate's median similarity to a fixed sample of the
 * library (its typical neighbour), and the measure is how much of the way from that to identical
 * the source comes:  u = (cos - median_v) / (1 - median_v), 1 for an identical picture. The score is
 * 100 / (1 + exp(-VIDEO_SLOPE x (u - VIDEO_FLOOR))): 50 halfway to identical, 80 at u = 0.75, 93 at 1.
 */

export interface Baseline {
  median: number;
  spread: number;
}

export interface Relevance {
  /** 0..100 in whole points (what the card shows), 50 at the floor. */
  score: number;
  /** The score shown is at least 50: "good" is decided on the number the editor reads. */
  good: boolean;
}

const MAD_TO_SIGMA = 1.4826;
/** Below this spread a segment's bank answers are degenerate (all alike): a cosine-scale spread stands in. */
export const MIN_SPREAD = 0.01;
export const SLOPE = 2;
/** z of the floor: never below (a library of one clip), never above (a huge varied one) these. */
export const FLOOR_MIN = 1.5;
export const FLOOR_MAX = 6;
/** One-sided 99% of a normal: the null maxima's mean + this many standard deviations. */
const NULL_QUANTILE_SD = 2.326;
/** A cosine this high is at or above the floor on any segment: query and segment point the same way. */
export const NEAR_IDENTICAL_COS = 0.95;
export const VIDEO_FLOOR = 0.5;
export const VIDEO_SLOPE = 6;
/** A score from here up is a good match: the line the Search view draws. */
export const MATCH_FLOOR_SCORE = 50;

function medianOfSorted(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const m = n >> 1;
  return n % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

/** The median of values in any order (0 for none). */
export function median(values: readonly number[]): number {
  return medianOfSorted(Float64Array.from(values).sort());
}

/** Median and robust spread of a segment's similarities to the bank (any order). */
export function baselineOf(similarities: ArrayLike<number>): Baseline {
  const sorted = Float64Array.from(similarities).sort();
  const median = medianOfSorted(sorted);
  const dev = Float64Array.from(sorted, (v) => Math.abs(v - median)).sort();
  return { median, spread: Math.max(MIN_SPREAD, MAD_TO_SIGMA * medianOfSorted(dev)) };
}

export function textZ(cos: number, b: Baseline): number {
  return (cos - b.median) / b.spread;
}

/** The floor from the best z each null query reached in the library. */
export function floorOfNullMaxima(maxima: readonly number[]): number {
  const finite = maxima.filter(Number.isFinite);
  if (finite.length === 0) return FLOOR_MIN;
  const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
  const sd = Math.sqrt(finite.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, finite.length - 1));
  return Math.min(FLOOR_MAX, Math.max(FLOOR_MIN, mean + NULL_QUANTILE_SD * sd));
}

function logistic(x: number): number {
  return 100 / (1 + Math.exp(-x));
}

/** A negative or zero cosine is never a match, whatever the baseline says. */
function capped(score: number, cos: number): Relevance {
  const shown = Math.round(score);
  const s = cos > 0 ? shown : Math.min(shown, MATCH_FLOOR_SCORE - 1);
  return { score: s, good: s >= MATCH_FLOOR_SCORE };
}

export function textRelevance(cos: number, b: Baseline, floorZ: number): Relevance {
  const floorCos = Math.min(b.median + floorZ * b.spread, NEAR_IDENTICAL_COS);
  const z = textZ(cos, b);
  const zFloor = textZ(floorCos, b);
  const bySpread = logistic(SLOPE * (z - zFloor));
  const towardIdentical = cos >= floorCos ? 50 + (50 * (cos - floorCos)) / Math.max(1e-6, 1 - floorCos) : 0;
  return capped(Math.max(bySpread, towardIdentical), cos);
}

export function videoU(cos: number, b: Baseline): number {
  const headroom = Math.max(1e-6, 1 - b.median);
  return (cos - b.median) / headroom;
}

export function videoRelevance(cos: number, b: Baseline): Relevance {
  return capped(logistic(VIDEO_SLOPE * (videoU(cos, b) - VIDEO_FLOOR)), cos);
}
