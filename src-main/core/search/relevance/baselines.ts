import { exactSearch, MetricKind, type BatchMatches, type Matches } from 'usearch';
import { baselineOf, type Baseline } from './relevance-math';

/** Unit vectors, one per row: a bank of reference queries, or a sample of the library's segments. */
export interface VectorBank {
  /** Identifies what the rows are (the bank's version, or the sample's ids): a new one resets baselines. */
  key: string;
  dimension: number;
  rows: number;
  data: Float32Array;
}

/** Most baselines kept: 2 floats per segment id below this many ids (8 MB), a map above. */
const DENSE_IDS = 1_000_000;

/**
 * Each segment's baseline against one bank (relevance-math.ts): its similarities to every row, reduced
 * to a median and a spread. Computed in batches with usearch's SIMD exact search (64 rows x 512-d:
 * about 15 µs a segment, seven times the JS loop), kept until the segment's vector changes or the
 * bank does.
 */
export class BaselineCache {
  private dense = new Float32Array(0);
  private readonly sparse = new Map<number, Baseline>();
  private bankKey: string | null = null;

  constructor(private bank: VectorBank | null = null) {
    this.bankKey = bank?.key ?? null;
  }

  /** A new bank (another space, another version, a re-sampled library) makes every baseline stale. */
  setBank(bank: VectorBank | null): void {
    if ((bank?.key ?? null) === this.bankKey && bank?.dimension === this.bank?.dimension) return;
    this.bank = bank;
    this.bankKey = bank?.key ?? null;
    this.clear();
  }

  get current(): VectorBank | null {
    return this.bank;
  }

  clear(): void {
    this.dense = new Float32Array(0);
    this.sparse.clear();
  }

  /** The segments' vectors changed (or went): their baselines are computed again when asked. */
  forget(ids: Iterable<number>): void {
    for (const id of ids) {
      if (id < this.dense.length / 2) this.dense[2 * id] = Number.NaN;
      this.sparse.delete(id);
    }
  }

  private read(id: number): Baseline | undefined {
    if (id < DENSE_IDS) {
      const m = this.dense[2 * id];
      return m === undefined || Number.isNaN(m) ? undefined : { median: m, spread: this.dense[2 * id + 1]! };
    }
    return this.sparse.get(id);
  }

  private write(id: number, b: Baseline): void {
    if (id >= DENSE_IDS) {
      this.sparse.set(id, b);
      return;
    }
    if (2 * id + 1 >= this.dense.length) {
      const grown = new Float32Array(Math.min(2 * DENSE_IDS, Math.max(2 * id + 2, this.dense.length * 2, 1024))).fill(Number.NaN);
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[2 * id] = b.median;
    this.dense[2 * id + 1] = b.spread;
  }

  /**
   * Baselines of `ids`, computing the missing ones from their unit vectors (`vectorOf`; an id without
   * a vector, or of another dimension, is left out). Empty without a bank.
   */
  get(ids: readonly number[], vectorOf: (id: number) => Float32Array | undefined): Map<number, Baseline> {
    const out = new Map<number, Baseline>();
    const bank = this.bank;
    if (!bank || bank.rows === 0) return out;
    const missing: number[] = [];
    for (const id of ids) {
      const b = this.read(id);
      if (b) out.set(id, b);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const found: number[] = [];
    const queries = new Float32Array(missing.length * bank.dimension);
    for (const id of missing) {
      const v = vectorOf(id);
      if (!v || v.length !== bank.dimension) continue;
      queries.set(v, found.length * bank.dimension);
      found.push(id);
    }
    if (found.length === 0) return out;
    const sims = bankSimilarities(bank, queries.subarray(0, found.length * bank.dimension), found.length);
    found.forEach((id, i) => {
      const b = baselineOf(sims.subarray(i * bank.rows, (i + 1) * bank.rows));
      this.write(id, b);
      out.set(id, b);
    });
    return out;
  }
}

/** Every row of the bank against every query (unit vectors): rows x queries similarities, query-major. */
export function bankSimilarities(bank: VectorBank, queries: Float32Array, count: number): Float32Array {
  const out = new Float32Array(count * bank.rows);
  const m = exactSearch(bank.data, queries, bank.dimension, bank.rows, MetricKind.IP, 1) as Matches | BatchMatches;
  // IP distance is 1 - dot; the order of the rows does not matter for a median.
  const distances = m.distances;
  for (let i = 0; i < out.length; i++) out[i] = 1 - distances[i]!;
  return out;
}
