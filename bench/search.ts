/**
 * npm run bench:search — the vector index at 100k and 1M synthetic 512-d segment embeddings.
 *
 * For each size, in one run: exact search (the JS scan the app uses as oracle and fallback),
 * usearch's SIMD brute force as a second exact reference, and the chosen HNSW index; build time,
 * p50/p95 latency of single queries, recall@10 against exact, memory (RSS delta) and size on disk.
 * At 100k the usearch storage kinds (f32, f16, i8) are compared and the chosen index also runs
 * on worst-case isotropic data; at small sizes the exact/HNSW crossover is measured. The app's full
 * query path is measured too: k x 1.5 candidates (candidatesFor), relevance against a bank of 64
 * reference vectors (each candidate's baseline, the library's floor from null queries), scoring,
 * merging adjacent segments of a shot and grouping by clip (synthetic clips of 8 segments, shots of
 * 4). Last line: one JSON object.
 *
 * Env: BENCH_SIZES=100000,1000000  BENCH_QUERIES=200  BENCH_VARIANTS=0 (skip the 100k variants)
 *      BENCH_EXACT_BUDGET_S=120 (time cap of the JS exact scan per size; at least 30 queries run)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { MetricKind, exactSearch } from 'usearch';
import { ExactVectorIndex } from '../src-main/core/search/index/exact-search';
import { saveIndex, tryLoadIndex } from '../src-main/core/search/index/index-store';
import { DEFAULT_HNSW_OPTIONS, HnswVectorIndex, type HnswOptions } from '../src-main/core/search/index/vector-index';
import { normalizeVector } from '../src-main/core/search/index/vector-math';
import { ClusteredVectors, realisticSpec, type ClusterSpec } from '../test/helpers/catalog/vector-synthetic';
import type { SearchFilter, SearchHit, VectorIndex } from '../src-main/core/search/index/vector-types';
import { BENCH_CLUSTERS, BENCH_DIM, measure, measureAppPath, pct, recallAt10, time, type Latency } from './search-path';

const DIM = BENCH_DIM;
const CLUSTERS = BENCH_CLUSTERS;
/** Headline data: 1000 Gaussian clusters around 50 topics, low-dimensional within each cluster. */
const REALISTIC = (seed: number): ClusterSpec => realisticSpec(DIM, CLUSTERS, seed);
/** Worst case, reported beside it: isotropic clusters around mutually orthogonal centres. */
const ISOTROPIC = (seed: number): ClusterSpec => ({ dimension: DIM, clusters: CLUSTERS, spread: 1, seed });
const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const VARIANTS = process.env.BENCH_VARIANTS !== '0';
const BATCH = 65_536;
const EXACT_BUDGET_S = Number(process.env.BENCH_EXACT_BUDGET_S ?? 120);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function rssMb(): number {
  gc();
  gc();
  return process.memoryUsage().rss / 2 ** 20;
}

/** n normalised points, row-major, ids 0..n-1, plus normalised queries from the same clusters. */
function dataset(n: number, spec: ClusterSpec): { data: Float32Array; queries: Float32Array[] } {
  const gen = new ClusteredVectors(spec);
  const data = new Float32Array(n * DIM);
  for (let off = 0; off < n; off += BATCH) {
    const rows = Math.min(BATCH, n - off);
    gen.fill(data, rows, off);
  }
  for (let i = 0; i < n; i++) {
    const row = data.subarray(i * DIM, (i + 1) * DIM);
    normalizeVector(row, DIM, row);
  }
  const queries: Float32Array[] = [];
  const qm = gen.next(QUERIES);
  for (let i = 0; i < QUERIES; i++) queries.push(normalizeVector(qm.subarray(i * DIM, (i + 1) * DIM), DIM));
  return { data, queries };
}

function fill(index: VectorIndex, data: Float32Array, n: number): void {
  for (let off = 0; off < n; off += BATCH) {
    const rows = Math.min(BATCH, n - off);
    const ids = Array.from({ length: rows }, (_, i) => off + i);
    index.addBatch(ids, data.subarray(off * DIM, (off + rows) * DIM));
  }
}

function dirSizeMb(dir: string): number {
  return fs.readdirSync(dir).reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0) / 2 ** 20;
}

const rowsOut: string[][] = [];
function row(...cells: Array<string | number>): void {
  rowsOut.push(cells.map((c) => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(2)) : c)));
}
function log(msg: string): void {
  process.stderr.write(`[bench:search] ${msg}\n`);
}

interface HnswRun {
  buildS: number;
  rssMb: number;
  lat: Latency;
  recall: number;
  fileMb: number;
  saveS: number;
  loadS: number;
  index: HnswVectorIndex;
}

function runHnsw(label: string, n: number, data: Float32Array, queries: Float32Array[], truth: number[][], opts: Partial<HnswOptions>, tmpRoot: string): HnswRun {
  const before = rssMb();
  const index = new HnswVectorIndex(opts);
  const [, buildMs] = time(() => fill(index, data, n));
  const rss = rssMb() - before;
  const { hits, lat } = measure(queries, (q) => index.search(q, 10));
  const recall = recallAt10(hits, truth);
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'idx-'));
  const [, saveMs] = time(() => saveIndex(dir, index, 1));
  const fileMb = dirSizeMb(dir);
  const [loaded, loadMs] = time(() => tryLoadIndex(dir, 1, () => new HnswVectorIndex(opts)));
  if (!loaded.ok) throw new Error(`reload failed: ${loaded.detail}`);
  fs.rmSync(dir, { recursive: true, force: true });
  log(`${label} n=${n}: build ${(buildMs / 1000).toFixed(1)} s, p95 ${lat.p95.toFixed(2)} ms, recall ${recall.toFixed(3)}`);
  return { buildS: buildMs / 1000, rssMb: rss, lat, recall, fileMb, saveS: saveMs / 1000, loadS: loadMs / 1000, index };
}

function main(): void {
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-search-'));
  const json: Record<string, unknown> = {
    dim: DIM,
    clusters: CLUSTERS,
    queries: QUERIES,
    cores: os.availableParallelism(),
    config: { ...DEFAULT_HNSW_OPTIONS },
  };
  try {
    // --- crossover: where does the graph start beating the exact scan? -------------------------
    log('crossover sizes');
    const crossover: Array<{ n: number; exact: number; hnsw: number }> = [];
    {
      const { data, queries } = dataset(16_000, REALISTIC(11));
      for (const n of [500, 1000, 2000, 4000, 8000, 16000]) {
        const exact = new ExactVectorIndex();
        fill(exact, data, n);
        const hnsw = new HnswVectorIndex({ exactBelow: 0 });
        fill(hnsw, data, n);
        const e = measure(queries.slice(0, 100), (q) => exact.search(q, 10)).lat;
        const h = measure(queries.slice(0, 100), (q) => hnsw.search(q, 10)).lat;
        crossover.push({ n, exact: e.p50, hnsw: h.p50 });
        row(`crossover n=${n}`, 'exact vs hnsw p50 ms', e.p50, h.p50, '', '', '', '');
      }
      const firstHnswWin = crossover.find((c) => c.hnsw < c.exact);
      json.crossover_n = firstHnswWin?.n ?? null;
      json.crossover = crossover;
    }

    const keepAlive: unknown[] = [];
    for (const n of SIZES) {
      keepAlive.length = 0;
      const tag = n >= 1_000_000 ? `${n / 1_000_000}m` : `${n / 1000}k`;
      log(`generating ${n} x ${DIM}`);
      const [ds, genMs] = time(() => dataset(n, REALISTIC(42)));
      const { data, queries } = ds;
      log(`generated in ${(genMs / 1000).toFixed(1)} s`);

      // usearch's own SIMD brute force over the same flat matrix: the fastest exact scan available
      // here, and the ground truth for recall (checked against the JS scan below).
      log(`SIMD exact scan, ${QUERIES} queries`);
      const simd = measure(queries, (q) => {
        const m = exactSearch(data, q, DIM, 10, MetricKind.IP, 1);
        return Array.from(m.keys as BigUint64Array, (k) => Number(k));
      });
      const truth = simd.hits as number[][];

      // Exact JS scan (the app's oracle and fallback): latency and memory. At 1M one query takes
      // most of a second, so it runs on as many queries as fit in EXACT_BUDGET_S (at least 30).
      const rss0 = rssMb();
      const exact = new ExactVectorIndex();
      // Kept referenced until the size is done, so RSS deltas of later indexes are not
      // flattered by reusing the pages this one would free.
      keepAlive.push(exact);
      const [, exactBuildMs] = time(() => fill(exact, data, n));
      const exactRss = rssMb() - rss0;
      const budgetMs = EXACT_BUDGET_S * 1000;
      const started = performance.now();
      const exactLat: number[] = [];
      const exactHits: SearchHit[][] = [];
      exact.search(queries[0]!, 10);
      for (const q of queries) {
        if (exactLat.length >= 30 && performance.now() - started > budgetMs) break;
        const [h, ms] = time(() => exact.search(q, 10));
        exactHits.push(h);
        exactLat.push(ms);
      }
      exactLat.sort((a, b) => a - b);
      const ex = { lat: { p50: pct(exactLat, 0.5), p95: pct(exactLat, 0.95) }, queries: exactLat.length };
      const agreement = recallAt10(exactHits, truth.slice(0, exactHits.length));
      log(`exact JS scan: ${ex.queries} queries, agreement with SIMD exact ${agreement.toFixed(3)}`);
      row(`${tag} exact (JS scan, ${ex.queries} q)`, 'build s', exactBuildMs / 1000, 'p50/p95 ms', ex.lat.p50, ex.lat.p95, 'recall', agreement);
      row('', 'rss MB', exactRss, 'file MB', (n * (DIM * 4 + 8)) / 2 ** 20, '', '', '');
      row(`${tag} exact (usearch SIMD, 1 thread)`, '', '', 'p50/p95 ms', simd.lat.p50, simd.lat.p95, 'recall', 1);

      // The chosen index.
      const chosen = runHnsw(`hnsw ${DEFAULT_HNSW_OPTIONS.quantization}`, n, data, queries, truth, {}, tmpRoot);
      row(`${tag} hnsw ${DEFAULT_HNSW_OPTIONS.quantization} (chosen)`, 'build s', chosen.buildS, 'p50/p95 ms', chosen.lat.p50, chosen.lat.p95, 'recall', chosen.recall);
      row('', 'rss MB', chosen.rssMb, 'file MB', chosen.fileMb, 'save/load s', chosen.saveS, chosen.loadS);

      // Filtered searches on the chosen index (each path of the filtering rule).
      const filters: Array<[string, SearchFilter]> = [
        ['allow-set 0.1%', new Set(Array.from({ length: Math.round(n / 1000) }, (_, i) => i * 1000 + 17))],
        ['allow-set 1%', new Set(Array.from({ length: Math.round(n / 100) }, (_, i) => i * 100 + 3))],
        ['predicate 10%', (id: number) => id % 10 === 4],
      ];
      const filtered: Record<string, Latency & { recall: number }> = {};
      for (const [name, filter] of filters) {
        const oracle = new ExactVectorIndex();
        // Ground truth for the filter: the exact scan over the allowed rows only.
        const allowedIds = Array.from({ length: n }, (_, i) => i).filter((id) => (typeof filter === 'function' ? filter(id) : filter.has(id)));
        for (const id of allowedIds) oracle.add(id, data.subarray(id * DIM, (id + 1) * DIM));
        const fq = queries.slice(0, Math.min(QUERIES, 100));
        const f = measure(fq, (q) => chosen.index.search(q, 10, filter));
        const r = recallAt10(f.hits, fq.map((q) => oracle.search(q, 10)));
        filtered[name] = { ...f.lat, recall: r };
        row(`${tag} hnsw filter ${name}`, '', '', 'p50/p95 ms', f.lat.p50, f.lat.p95, 'recall', r);
      }

      // The app's whole path on top of the index: over-fetch, relevance against the bank, score,
      // merge, group.
      const app = measureAppPath(chosen.index, data, n, queries);
      log(`baselines of ${n} segments and the floor in ${(app.warmMs / 1000).toFixed(1)} s`);
      json[`relevance_warm_s_${tag}`] = app.warmMs / 1000;
      row(`${tag} app path (bank relevance + group)`, '', '', 'p50/p95 ms', app.lat.p50, app.lat.p95, 'recall', app.recall);
      json[`app_path_p95_ms_${tag}`] = app.lat.p95;
      json[`app_path_recall_at_10_${tag}`] = app.recall;

      json[`p50_ms_${tag}`] = chosen.lat.p50;
      json[`p95_ms_${tag}`] = chosen.lat.p95;
      json[`recall_at_10_${tag}`] = chosen.recall;
      json[`build_s_${tag}`] = chosen.buildS;
      json[`rss_mb_${tag}`] = Math.round(chosen.rssMb);
      json[`file_mb_${tag}`] = Math.round(chosen.fileMb);
      json[`save_s_${tag}`] = chosen.saveS;
      json[`load_s_${tag}`] = chosen.loadS;
      json[`exact_p50_ms_${tag}`] = ex.lat.p50;
      json[`exact_p95_ms_${tag}`] = ex.lat.p95;
      json[`exact_rss_mb_${tag}`] = Math.round(exactRss);
      json[`exact_queries_${tag}`] = ex.queries;
      json[`simd_exact_p50_ms_${tag}`] = simd.lat.p50;
      json[`simd_exact_p95_ms_${tag}`] = simd.lat.p95;
      json[`speedup_p95_vs_exact_${tag}`] = ex.lat.p95 / chosen.lat.p95;
      json[`filtered_${tag}`] = filtered;
      if (n === 1_000_000) json.recall_at_10 = chosen.recall;

      // Storage kinds compared on the same data (100k only: 1M builds take minutes each).
      if (VARIANTS && n <= 100_000) {
        const variants: Record<string, unknown> = {};
        for (const [name, opts] of [
          ['f32', { quantization: 'f32' }],
          ['f16', { quantization: 'f16' }],
          ['i8 no-rerank', { quantization: 'i8', rerankFactor: 1 }],
        ] as Array<[string, Partial<HnswOptions>]>) {
          const v = runHnsw(`hnsw ${name}`, n, data, queries, truth, opts, tmpRoot);
          keepAlive.push(v.index);
          row(`${tag} hnsw ${name}`, 'build s', v.buildS, 'p50/p95 ms', v.lat.p50, v.lat.p95, 'recall', v.recall);
          row('', 'rss MB', v.rssMb, 'file MB', v.fileMb, 'save/load s', v.saveS, v.loadS);
          variants[name] = { build_s: v.buildS, p50_ms: v.lat.p50, p95_ms: v.lat.p95, recall_at_10: v.recall, rss_mb: Math.round(v.rssMb), file_mb: Math.round(v.fileMb) };
        }
        json[`variants_${tag}`] = variants;
      }

      // The same chosen index on the worst-case data (100k only): how far recall falls when
      // clusters have no low-dimensional structure and no relation to each other.
      if (VARIANTS && n === 100_000) {
        keepAlive.length = 0;
        const iso = dataset(n, ISOTROPIC(42));
        const isoTruth = iso.queries.map((q) => Array.from(exactSearch(iso.data, q, DIM, 10, MetricKind.IP, 0).keys as BigUint64Array, (k) => Number(k)));
        for (const [name, opts] of [
          ['chosen', {}],
          ['ef 1024', { expansionSearch: 1024 }],
        ] as Array<[string, Partial<HnswOptions>]>) {
          const v = runHnsw(`isotropic ${name}`, n, iso.data, iso.queries, isoTruth, opts, tmpRoot);
          row(`${tag} isotropic, hnsw ${name}`, 'build s', v.buildS, 'p50/p95 ms', v.lat.p50, v.lat.p95, 'recall', v.recall);
          json[`isotropic_${name.replace(' ', '')}_${tag}`] = { build_s: v.buildS, p50_ms: v.lat.p50, p95_ms: v.lat.p95, recall_at_10: v.recall };
        }
      }
    }
  } finally {
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  if (json.recall_at_10 === undefined) {
    // Without a 1M run the headline recall is the largest size measured.
    const largest = SIZES[SIZES.length - 1]!;
    json.recall_at_10 = json[`recall_at_10_${largest >= 1_000_000 ? `${largest / 1_000_000}m` : `${largest / 1000}k`}`];
  }

  const widths = rowsOut[0]!.map((_, i) => Math.max(...rowsOut.map((r) => (r[i] ?? '').length)));
  console.log(`Vector search, ${DIM}-d, ${CLUSTERS} clusters, ${QUERIES} single-thread queries, k=10, ${os.availableParallelism()} cores`);
  for (const r of rowsOut) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(JSON.stringify(json));
}

main();
