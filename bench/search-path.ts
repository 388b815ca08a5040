import { MetricKind, exactSearch } from 'usearch';
import { normalizeVector } from '../src-main/core/search/index/vector-math';
import type { SearchHit } from '../src-main/core/search/index/vector-types';
import type { HnswVectorIndex } from '../src-main/core/search/index/vector-index';
import type { VectorBank } from '../src-main/core/search/relevance/baselines';
import { TextRelevance, type IndexView } from '../src-main/core/search/relevance/relevance-model';
import { groupResults, type Hit } from '../src-main/core/search/results/result-groups';
import { candidatesFor } from '../src-main/core/search/results/paging';
import { ClusteredVectors, realisticSpec } from '../test/helpers/catalog/vector-synthetic';

/**
 * What bench:search and bench:team measure the same way: query latency percentiles, recall@10, and
 * the app's whole query path on top of the vector index (over-fetch, relevance against a bank of
 * reference vectors, scoring, merging adjacent segments of a shot, grouping by clip).
 */

export const BENCH_DIM = 512;
export const BENCH_CLUSTERS = 1000;

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export interface Latency {
  p50: number;
  p95: number;
}

export function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

/** Runs every query once (after a short warm-up) and returns hits and latency percentiles. */
export function measure(queries: Float32Array[], run: (q: Float32Array) => SearchHit[] | number[]): { hits: Array<SearchHit[] | number[]>; lat: Latency } {
  for (const q of queries.slice(0, 3)) run(q);
  const lat: number[] = [];
  const hits: Array<SearchHit[] | number[]> = [];
  for (const q of queries) {
    const [h, ms] = time(() => run(q));
    hits.push(h);
    lat.push(ms);
  }
  lat.sort((a, b) => a - b);
  return { hits, lat: { p50: pct(lat, 0.5), p95: pct(lat, 0.95) } };
}

function idsOf(h: SearchHit[] | number[]): number[] {
  return h.map((x) => (typeof x === 'number' ? x : x.id));
}

export function recallAt10(got: Array<SearchHit[] | number[]>, truth: Array<SearchHit[] | number[]>): number {
  let sum = 0;
  for (let i = 0; i < got.length; i++) {
    const want = new Set(idsOf(truth[i]!).slice(0, 10));
    sum += idsOf(got[i]!).slice(0, 10).filter((id) => want.has(id)).length / want.size;
  }
  return sum / got.length;
}

/**
 * The app's query path over `index` (n rows; ids 0..n-1 are the rows of `data`, row-major, normalised):
 * its latency, and its recall against the same scoring and grouping over the exact top candidates.
 * The bank stands for the 64 reference queries (generic points of the space); synthetic clips of 8
 * segments, shots of 4. Returns also the time of the background warm-up the path reads (every
 * segment's baseline and the library's floor).
 */
export function measureAppPath(index: HnswVectorIndex, data: Float32Array, n: number, queries: Float32Array[]): { lat: Latency; recall: number; warmMs: number } {
  const DIM = BENCH_DIM;
  const bankRows = 64;
  const bankGen = new ClusteredVectors(realisticSpec(DIM, BENCH_CLUSTERS, 4242)).next(bankRows);
  for (let i = 0; i < bankRows; i++) normalizeVector(bankGen.subarray(i * DIM, (i + 1) * DIM), DIM, bankGen.subarray(i * DIM, (i + 1) * DIM));
  const bank: VectorBank = { key: 'bench', dimension: DIM, rows: bankRows, data: bankGen };
  const view: IndexView = { size: n, vector: (id) => index.vector(id), search: (q, k) => index.search(q, k) };
  const relevance = new TextRelevance();
  relevance.setBank(bank);
  const [, warmMs] = time(() => {
    const ids = index.ids();
    for (let i = 0; i < ids.length; i += 4096) relevance.baselines.get(ids.slice(i, i + 4096), view.vector);
    relevance.scorer(view, []);
  });
  const asHits = (found: SearchHit[], score: (h: SearchHit) => number): Hit[] =>
    found.map((h) => ({ clipId: Math.floor(h.id / 8), segmentId: h.id, shotStartS: Math.floor((h.id % 8) / 4) * 16, startS: (h.id % 8) * 4, endS: (h.id % 8) * 4 + 4, startFrame: null, endFrame: null, similarity: h.similarity, score: score(h), source: 'local' as const }));
  const cards = (found: SearchHit[]): number[] => {
    const scorer = relevance.scorer(view, found.map((h) => h.id))!;
    const groups = groupResults(asHits(found, (h) => scorer.segment(h.id, h.similarity).score), { identity: (c) => `clip:${c}` });
    return groups.slice(0, 10).map((g) => g.best.segmentId!);
  };
  const full = measure(queries, (q) => cards(index.search(q, candidatesFor(11))));
  const truth = queries.map((q) => {
    const m = exactSearch(data.subarray(0, n * DIM), q, DIM, candidatesFor(11), MetricKind.IP, 1);
    const ids = Array.from(m.keys as BigUint64Array, (k) => Number(k));
    const sims = Array.from(m.distances as Float32Array, (d) => 1 - d);
    return cards(ids.map((id, i) => ({ id, similarity: sims[i]! })));
  });
  return { lat: full.lat, recall: recallAt10(full.hits, truth), warmMs };
}
