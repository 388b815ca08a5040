import fs from 'node:fs';
import path from 'node:path';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { z } from 'zod';
import { AppError, toAppError } from '../../../../src-shared/errors';
import { exactSearchStore, forEachBatchRow, rerankExact } from './exact-search';
import { assertK, assertSegmentId, normalizeVector } from './vector-math';
import { VectorStore } from './vector-store';
import type { SearchFilter, SearchHit, VectorIndex, VectorInput } from './vector-types';

export type { SearchFilter, SearchHit, VectorIndex, VectorInput } from './vector-types';

export type HnswQuantization = 'f32' | 'f16' | 'i8';

/**
 * Tuning of the HNSW index. Defaults come from bench/search.ts on 1M clustered 512-d vectors
 * (see docs/notes-search-index.md for the numbers behind each one).
 */
export interface HnswOptions {
  /** Graph degree M: more links, better recall, bigger graph, slower build. */
  connectivity: number;
  /** Beam width while inserting: the main lever on graph quality versus build time. */
  expansionAdd: number;
  /** Beam width while searching (raised to the candidate count when that is larger). */
  expansionSearch: number;
  /**
   * How usearch stores its copy of the vectors. The f32 rows kept beside it re-rank every candidate
   * list, so a coarse i8 graph loses almost no recall and takes a quarter of the memory.
   */
  quantization: HnswQuantization;
  /** Candidates fetched per wanted hit and re-scored exactly (1 = trust the graph's own scores). */
  rerankFactor: number;
  /** At or below this many vectors every search is an exact scan: as fast, and never wrong. */
  exactBelow: number;
  /** Allow-sets up to this size are scanned exactly instead of oversampling the graph. */
  exactAllowedMax: number;
  /** Most candidates one filtered graph search may fetch before giving up and scanning exactly. */
  maxCandidates: number;
  /** Insert threads for addBatch; 0 = one per core. */
  threads: number;
}

export const DEFAULT_HNSW_OPTIONS: HnswOptions = {
  connectivity: 32,
  expansionAdd: 128,
  expansionSearch: 256,
  quantization: 'i8',
  rerankFactor: 4,
  exactBelow: 1_000,
  exactAllowedMax: 4_096,
  maxCandidates: 4_096,
  threads: 0,
};

/**
 * One candidate fetched from the graph costs a few exact dot products over allowed rows (bench at
 * 1M: ~3 µs per candidate at ef 4000; ~0.65 µs per 512-d row scanned in order, ~1.5 µs when the
 * allowed rows are scattered). An allow-set no bigger than this multiple of the candidates the
 * graph would need is scanned exactly: about the same latency, and recall 1 instead of ~0.95.
 */
const GRAPH_VS_EXACT_COST = 4;

const SCALAR: Record<HnswQuantization, ScalarKind> = {
  f32: ScalarKind.F32,
  f16: ScalarKind.F16,
  i8: ScalarKind.I8,
};

/** What `save` writes beside the usearch file so `load` rebuilds the exact same object. */
const hnswConfigSchema = z.object({
  kind: z.literal('hnsw'),
  usearchMajor: z.number().int(),
  dimension: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  connectivity: z.number().int().positive(),
  expansionAdd: z.number().int().positive(),
  quantization: z.enum(['f32', 'f16', 'i8']),
});
type HnswConfigFile = z.infer<typeof hnswConfigSchema>;

/** Major version of the installed usearch: its file format is only trusted within one major. */
export function usearchMajorVersion(): number {
  if (cachedUsearchMajor !== undefined) return cachedUsearchMajor;
  // usearch's "exports" map hides package.json, so walk up from its entry point.
  let dir = path.dirname(require.resolve('usearch'));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = z.object({ name: z.string(), version: z.string() }).safeParse(JSON.parse(fs.readFileSync(candidate, 'utf8')));
      if (pkg.success && pkg.data.name === 'usearch') {
        cachedUsearchMajor = Number(pkg.data.version.split('.')[0]);
        return cachedUsearchMajor;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new AppError('internal', 'usearch package.json not found');
    dir = parent;
  }
}
let cachedUsearchMajor: number | undefined;

/**
 * Cosine nearest neighbours with usearch's HNSW graph, plus an f32 copy of every vector
 * (VectorStore) that re-ranks candidates, answers small indexes and narrow filters exactly,
 * and survives the fact that usearch's JS binding cannot return stored vectors.
 *
 * Filtering rule (usearch's JS binding has no predicate search):
 *  - size ≤ exactBelow: exact scan with the filter;
 *  - an allow-set with ≤ exactAllowedMax ids, or no bigger than GRAPH_VS_EXACT_COST × the candidates
 *    the graph would need (k·rerankFactor / selectivity), or needing more than maxCandidates:
 *    exact scan of the allowed rows only (cost ∝ allow-set size, recall 1);
 *  - otherwise: fetch k·rerankFactor/selectivity candidates from the graph (selectivity 1 for a
 *    predicate until one round has measured it), keep the allowed ones and re-rank them exactly;
 *    while fewer than k·rerankFactor survive, fetch more (at least twice as many, sized by the
 *    observed selectivity) up to maxCandidates; if even then fewer than k survive, exact scan.
 */
export class HnswVectorIndex implements VectorIndex {
  readonly options: HnswOptions;
  private graph: Index | null = null;
  private store: VectorStore | null = null;
  private removedSinceBuild = 0;

  constructor(options: Partial<HnswOptions> = {}) {
    this.options = { ...DEFAULT_HNSW_OPTIONS, ...options };
    const o = this.options;
    for (const [name, value] of Object.entries(o)) {
      if (name === 'quantization') continue;
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        throw new AppError('invalid', `HNSW option ${name} must be a non-negative integer`);
      }
    }
    if (o.connectivity < 2 || o.expansionAdd < 1 || o.expansionSearch < 1 || o.rerankFactor < 1 || o.maxCandidates < 1) {
      throw new AppError('invalid', 'HNSW options out of range');
    }
    if (!(o.quantization in SCALAR)) throw new AppError('invalid', `unknown quantization ${String(o.quantization)}`);
  }

  get dimension(): number {
    return this.store?.dimension ?? 0;
  }

  get size(): number {
    return this.store?.size ?? 0;
  }

  /** Graph slots left behind by removals; HNSW degrades as they pile up, `compact()` clears them. */
  get tombstones(): number {
    return this.removedSinceBuild;
  }

  has(id: number): boolean {
    return this.store?.has(id) ?? false;
  }

  ids(): number[] {
    return this.store?.ids() ?? [];
  }

  /** A copy of the stored unit vector ("find similar" starts from it). */
  vector(id: number): Float32Array | undefined {
    return this.store?.vector(id);
  }

  add(id: number, vector: VectorInput): void {
    this.addBatch([id], [vector]);
  }

  addBatch(ids: ArrayLike<number>, vectors: Float32Array | readonly VectorInput[]): void {
    const n = ids.length;
    if (n === 0) return;
    // Validate everything before touching state, so a bad row leaves the index as it was.
    let dim = this.dimension;
    const lastRow = new Map<number, number>();
    const rows: VectorInput[] = [];
    forEachBatchRow(ids, vectors, dim, (id, row) => {
      assertSegmentId(id);
      if (dim === 0) dim = row.length;
      lastRow.set(id, rows.length);
      rows.push(row);
    });
    const keys = new BigUint64Array(lastRow.size);
    const units = new Float32Array(lastRow.size * dim);
    let i = 0;
    for (const [id, rowIndex] of lastRow) {
      normalizeVector(rows[rowIndex]!, dim, units.subarray(i * dim, (i + 1) * dim));
      keys[i++] = BigInt(id);
    }
    const { store, graph } = this.ensureStructures(dim);
    const replaced: bigint[] = [];
    i = 0;
    for (const id of lastRow.keys()) {
      if (store.has(id)) replaced.push(keys[i]!);
      i++;
    }
    if (replaced.length > 0) {
      graph.remove(BigUint64Array.from(replaced));
      this.removedSinceBuild += replaced.length;
    }
    try {
      // Worker threads only pay off for real batches; a single insert stays on this thread.
      graph.add(keys, units, keys.length < 64 ? 1 : this.options.threads);
    } catch (e) {
      throw new AppError('internal', `usearch insert failed: ${toAppError(e).message}`, { cause: e });
    }
    i = 0;
    for (const id of lastRow.keys()) {
      store.put(id, units.subarray(i * dim, (i + 1) * dim));
      i++;
    }
  }

  remove(id: number): boolean {
    if (this.store === null || !this.store.remove(id)) return false;
    this.graph?.remove(BigUint64Array.of(BigInt(id)));
    this.removedSinceBuild++;
    return true;
  }

  search(query: VectorInput, k: number, filter?: SearchFilter): SearchHit[] {
    assertK(k);
    const store = this.store;
    const graph = this.graph;
    if (store === null || graph === null || store.size === 0) return [];
    const unit = normalizeVector(query, store.dimension);
    const o = this.options;
    const size = store.size;
    if (size <= o.exactBelow) return exactSearchStore(store, unit, k, filter);

    let accept: ((id: number) => boolean) | undefined;
    let selectivity = 1;
    if (filter !== undefined) {
      if (typeof filter === 'function') {
        accept = filter;
      } else {
        const allowed = filter;
        selectivity = Math.max(allowed.size, 1) / size;
        const wantFromGraph = (k * o.rerankFactor) / selectivity;
        if (allowed.size <= o.exactAllowedMax || allowed.size <= GRAPH_VS_EXACT_COST * wantFromGraph || wantFromGraph > o.maxCandidates) {
          return exactSearchStore(store, unit, k, allowed);
        }
        accept = (id) => allowed.has(id);
      }
    }

    // Re-ranking `target` survivors exactly is what lifts a quantised graph to full recall.
    const target = k * o.rerankFactor;
    let want = Math.min(size, Math.ceil(target / selectivity));
    for (;;) {
      const candidates = this.graphCandidates(graph, unit, want);
      const kept = accept === undefined ? candidates : candidates.filter(accept);
      if (kept.length >= target || want >= size) return rerankExact(store, unit, kept, k);
      // The graph returned fewer than asked (tombstones can cut paths) or the candidate budget is
      // spent: what survived is the answer if it is enough, else the exact scan is.
      if (candidates.length < want || want >= o.maxCandidates) {
        return kept.length >= k ? rerankExact(store, unit, kept, k) : exactSearchStore(store, unit, k, filter);
      }
      // Grow from the selectivity just observed, at least doubling.
      const observed = kept.length / candidates.length;
      const next = observed > 0 ? Math.ceil((target / observed) * 1.25) : want * 8;
      want = Math.min(size, o.maxCandidates, Math.max(want * 2, next));
    }
  }

  private graphCandidates(graph: Index, unit: Float32Array, want: number): number[] {
    // One query runs on the calling thread: spawning workers for it costs more than it saves.
    const matches = graph.search(unit, want, 1);
    const out: number[] = new Array<number>(matches.keys.length);
    for (let i = 0; i < matches.keys.length; i++) out[i] = Number(matches.keys[i]!);
    return out;
  }

  /** Rebuilds the graph from the stored vectors, dropping removal tombstones. */
  compact(): void {
    const store = this.store;
    if (store === null) return;
    const dim = store.dimension;
    const graph = this.newGraph(dim);
    const batch = VectorStore.CHUNK_ROWS;
    for (let c = 0; c < store.chunkCount; c++) {
      const rows = store.rowsInChunk(c);
      const keys = new BigUint64Array(rows);
      for (let r = 0; r < rows; r++) keys[r] = BigInt(store.idAt(c * batch + r));
      graph.add(keys, store.chunkAt(c).subarray(0, rows * dim), this.options.threads);
    }
    this.graph = graph;
    this.removedSinceBuild = 0;
  }

  save(basePath: string): string[] {
    const dim = this.dimension;
    const store = this.store ?? new VectorStore(1);
    const files = [`${basePath}.usearch`, `${basePath}.f32`, `${basePath}.hnsw.json`];
    // An empty index has no graph; an empty graph file keeps the file set uniform.
    (this.graph ?? this.newGraph(1)).save(files[0]!);
    store.save(files[1]!);
    const config: HnswConfigFile = {
      kind: 'hnsw',
      usearchMajor: usearchMajorVersion(),
      dimension: dim === 0 ? 1 : dim,
      count: this.size,
      connectivity: this.options.connectivity,
      expansionAdd: this.options.expansionAdd,
      quantization: this.options.quantization,
    };
    fs.writeFileSync(files[2]!, JSON.stringify(config));
    return files;
  }

  /**
   * Loads what `save` wrote. usearch aborts the whole process on a damaged file (its failed load
   * corrupts the heap), so callers must verify the files first: index-store checks sizes and CRCs.
   * Here only what the checksum cannot catch is checked: a config or usearch version that differs.
   */
  load(basePath: string): void {
    let config: HnswConfigFile;
    try {
      config = hnswConfigSchema.parse(JSON.parse(fs.readFileSync(`${basePath}.hnsw.json`, 'utf8')));
    } catch (e) {
      throw new AppError('io', `${basePath}.hnsw.json is missing or invalid`, { cause: e });
    }
    if (config.usearchMajor !== usearchMajorVersion()) {
      throw new AppError('io', `index was written by usearch ${config.usearchMajor}.x`);
    }
    if (config.quantization !== this.options.quantization || config.connectivity !== this.options.connectivity) {
      throw new AppError('io', 'index was built with other HNSW settings');
    }
    const store = VectorStore.load(`${basePath}.f32`);
    if (store.size !== config.count || (config.count > 0 && store.dimension !== config.dimension)) {
      throw new AppError('io', 'vector store does not match the index config');
    }
    const graph = this.newGraph(config.dimension);
    if (config.count > 0) {
      graph.load(`${basePath}.usearch`);
      if (graph.size() !== config.count) throw new AppError('io', 'usearch file does not match the index config');
    }
    this.store = config.count === 0 ? null : store;
    this.graph = config.count === 0 ? null : graph;
    this.removedSinceBuild = 0;
  }

  private ensureStructures(dim: number): { store: VectorStore; graph: Index } {
    if (this.store === null) this.store = new VectorStore(dim);
    if (this.graph === null) this.graph = this.newGraph(dim);
    return { store: this.store, graph: this.graph };
  }

  private newGraph(dim: number): Index {
    const o = this.options;
    return new Index({
      dimensions: dim,
      metric: MetricKind.Cos,
      quantization: SCALAR[o.quantization],
      connectivity: o.connectivity,
      expansion_add: o.expansionAdd,
      expansion_search: o.expansionSearch,
      multi: false,
    });
  }
}

/** The index the app uses: HNSW with the measured defaults. */
export function createVectorIndex(options: Partial<HnswOptions> = {}): HnswVectorIndex {
  return new HnswVectorIndex(options);
}
