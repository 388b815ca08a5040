import { seededRandom } from '../../util/seeded-random';
import type { SearchHit } from '../index/vector-types';
import { BaselineCache, type VectorBank } from './baselines';
import { floorOfNullMaxima, median, textRelevance, textZ, VIDEO_FLOOR, videoRelevance, type Baseline, type Relevance } from './relevance-math';

/** What relevance needs of the vector index (the ready one, current with the catalog). */
export interface IndexView {
  readonly size: number;
  /** A segment's stored unit vector. */
  vector(id: number): Float32Array | undefined;
  search(query: Float32Array, k: number): SearchHit[];
}

/** Scores the hits of one query. */
export interface QueryScorer {
  /** The floor in z (text) or in u (find-similar): for the notes and tests. */
  readonly floor: number;
  /** A local segment's relevance from its cosine to the query. */
  segment(segmentId: number, cos: number): Relevance;
  /** Relevance of a similarity against the library's typical baseline: a moment with no local vector. */
  typical(cos: number): Relevance;
}

const NULL_QUERIES = 64;
const NULL_HITS = 32;
const NULL_TERMS = 3;
/** The floor is measured again when the library has grown or shrunk by more than this fraction. */
const RESIZE_FRACTION = 0.05;

/** Sums of NULL_TERMS random bank rows, normalised: text unrelated to anything in particular. */
export function nullQueries(bank: VectorBank, count = NULL_QUERIES): Float32Array[] {
  const rand = seededRandom(0x9e3779b9 ^ bank.rows);
  const d = bank.dimension;
  return Array.from({ length: count }, () => {
    const q = new Float32Array(d);
    for (let t = 0; t < NULL_TERMS; t++) {
      const r = Math.floor(rand() * bank.rows);
      for (let j = 0; j < d; j++) q[j]! += bank.data[r * d + j]!;
    }
    let n = 0;
    for (let j = 0; j < d; j++) n += q[j]! * q[j]!;
    const s = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < d; j++) q[j]! *= s;
    return q;
  });
}

/**
 * Text relevance for the active space: each segment against the bank of reference queries, the floor
 * measured with null queries on the library as it is (relevance-math.ts). Null when the bank is not
 * encoded yet: results are then shown in cosine order without a score.
 */
export class TextRelevance {
  readonly baselines = new BaselineCache();
  private calibrated: { key: string; size: number; floor: number; typical: Baseline } | null = null;

  setBank(bank: VectorBank | null): void {
    this.baselines.setBank(bank);
    if (this.calibrated?.key !== bank?.key) this.calibrated = null;
  }

  get ready(): boolean {
    return this.baselines.current !== null;
  }

  /** Segments whose vectors changed: their baselines are stale. */
  forget(ids: Iterable<number>): void {
    this.baselines.forget(ids);
  }

  private calibration(index: IndexView): { floor: number; typical: Baseline } {
    const bank = this.baselines.current!;
    const c = this.calibrated;
    if (c && c.key === bank.key && Math.abs(index.size - c.size) <= c.size * RESIZE_FRACTION) return c;
    const vectorOf = (id: number) => index.vector(id);
    const maxima: number[] = [];
    const seen: Baseline[] = [];
    for (const q of nullQueries(bank)) {
      const hits = index.search(q, NULL_HITS);
      const base = this.baselines.get(
        hits.map((h) => h.id),
        vectorOf,
      );
      let best = Number.NEGATIVE_INFINITY;
      for (const h of hits) {
        const b = base.get(h.id);
        if (!b) continue;
        best = Math.max(best, textZ(h.similarity, b));
        seen.push(b);
      }
      if (Number.isFinite(best)) maxima.push(best);
    }
    const typical = { median: median(seen.map((b) => b.median)), spread: median(seen.map((b) => b.spread)) || 0.05 };
    this.calibrated = { key: bank.key, size: index.size, floor: floorOfNullMaxima(maxima), typical };
    return this.calibrated;
  }

  /** The scorer of one query over the candidates found (their baselines computed in one batch). */
  scorer(index: IndexView, candidateIds: readonly number[]): QueryScorer | null {
    if (!this.ready) return null;
    const { floor, typical } = this.calibration(index);
    const base = this.baselines.get(candidateIds, (id) => index.vector(id));
    return {
      floor,
      segment: (id, cos) => {
        const b = base.get(id) ?? this.baselines.get([id], (x) => index.vector(x)).get(id) ?? typical;
        return textRelevance(cos, b, floor);
      },
      typical: (cos) => textRelevance(cos, typical, floor),
    };
  }
}

/**
 * Find-similar relevance: each candidate against a fixed sample of the library's own segments (its
 * typical neighbour), scored by how much of the way to identical the source comes.
 */
export class VideoRelevance {
  readonly baselines = new BaselineCache();

  setSample(sample: VectorBank | null): void {
    this.baselines.setBank(sample);
  }

  get ready(): boolean {
    return this.baselines.current !== null;
  }

  forget(ids: Iterable<number>): void {
    this.baselines.forget(ids);
  }

  scorer(index: IndexView, candidateIds: readonly number[]): QueryScorer | null {
    if (!this.baselines.current) return null;
    const base = this.baselines.get(candidateIds, (id) => index.vector(id));
    const typical = { median: median([...base.values()].map((b) => b.median)), spread: 1 };
    return {
      floor: VIDEO_FLOOR,
      segment: (id, cos) => videoRelevance(cos, base.get(id) ?? this.baselines.get([id], (x) => index.vector(x)).get(id) ?? typical),
      typical: (cos) => videoRelevance(cos, typical),
    };
  }
}
