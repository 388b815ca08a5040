import fs from 'node:fs';
import { AppError } from '../../../../src-shared/errors';
import { TopK, assertK, assertSegmentId, dotAt, normalizeVector } from './vector-math';
import { VectorStore } from './vector-store';
import type { SearchFilter, SearchHit, VectorIndex, VectorInput } from './vector-types';

/**
 * Brute-force top-k over every stored row: one dot product per row, a k-sized heap.
 * `unitQuery` must already be normalised. With an allow-set only the allowed rows are visited,
 * which is what makes it the right tool for narrow filters.
 */
export function exactSearchStore(store: VectorStore, unitQuery: Float32Array, k: number, filter?: SearchFilter): SearchHit[] {
  const dim = store.dimension;
  const top = new TopK(Math.min(k, store.size));
  if (top.k === 0) return [];
  if (filter !== undefined && typeof filter !== 'function') {
    for (const id of filter) {
      const slot = store.slotOfId(id);
      if (slot === undefined) continue;
      const score = dotAt(unitQuery, store.chunkOf(slot), store.offsetOf(slot), dim);
      if (score > top.threshold) top.push(score, id);
    }
    return top.toSortedHits();
  }
  const accept = filter;
  let slot = 0;
  for (let c = 0; c < store.chunkCount; c++) {
    const chunk = store.chunkAt(c);
    const rows = store.rowsInChunk(c);
    for (let r = 0, off = 0; r < rows; r++, off += dim, slot++) {
      if (accept !== undefined && !accept(store.idAt(slot))) continue;
      const score = dotAt(unitQuery, chunk, off, dim);
      if (score > top.threshold) top.push(score, store.idAt(slot));
    }
  }
  return top.toSortedHits();
}

/** Exact cosine scores of `unitQuery` against the given ids (ids not stored are skipped). */
export function rerankExact(store: VectorStore, unitQuery: Float32Array, ids: Iterable<number>, k: number): SearchHit[] {
  const top = new TopK(k);
  for (const id of ids) {
    const slot = store.slotOfId(id);
    if (slot === undefined) continue;
    top.push(dotAt(unitQuery, store.chunkOf(slot), store.offsetOf(slot), store.dimension), id);
  }
  return top.toSortedHits();
}

/**
 * The exact index: always right, linear in size. It is the oracle of the recall tests and what
 * the HNSW index itself answers with below its measured crossover size.
 */
export class ExactVectorIndex implements VectorIndex {
  private store: VectorStore | null = null;

  get dimension(): number {
    return this.store?.dimension ?? 0;
  }

  get size(): number {
    return this.store?.size ?? 0;
  }

  private storeFor(length: number): VectorStore {
    if (this.store === null) this.store = new VectorStore(length);
    return this.store;
  }

  add(id: number, vector: VectorInput): void {
    assertSegmentId(id);
    const store = this.storeFor(vector.length);
    store.put(id, normalizeVector(vector, store.dimension));
  }

  addBatch(ids: ArrayLike<number>, vectors: Float32Array | readonly VectorInput[]): void {
    // Validate every row before storing any, so a bad row leaves the index as it was.
    const units: Array<[number, Float32Array]> = [];
    let dim = this.dimension;
    forEachBatchRow(ids, vectors, dim, (id, row) => {
      assertSegmentId(id);
      if (dim === 0) dim = row.length;
      units.push([id, normalizeVector(row, dim)]);
    });
    if (units.length === 0) return;
    const store = this.storeFor(dim);
    for (const [id, unit] of units) store.put(id, unit);
  }

  remove(id: number): boolean {
    return this.store?.remove(id) ?? false;
  }

  has(id: number): boolean {
    return this.store?.has(id) ?? false;
  }

  ids(): number[] {
    return this.store?.ids() ?? [];
  }

  vector(id: number): Float32Array | undefined {
    return this.store?.vector(id);
  }

  search(query: VectorInput, k: number, filter?: SearchFilter): SearchHit[] {
    assertK(k);
    if (this.store === null) return [];
    return exactSearchStore(this.store, normalizeVector(query, this.store.dimension), k, filter);
  }

  save(basePath: string): string[] {
    const path = `${basePath}.f32`;
    (this.store ?? new VectorStore(1)).save(path);
    return [path];
  }

  load(basePath: string): void {
    const path = `${basePath}.f32`;
    if (!fs.existsSync(path)) throw new AppError('io', `${path} is missing`);
    const loaded = VectorStore.load(path);
    this.store = loaded.size === 0 ? null : loaded;
  }
}

/**
 * Walks a batch given either as one flat matrix or as one array per id, checking the shape once.
 * `dimension` 0 means "not fixed yet": the first row fixes it.
 */
export function forEachBatchRow(
  ids: ArrayLike<number>,
  vectors: Float32Array | readonly VectorInput[],
  dimension: number,
  visit: (id: number, row: VectorInput) => void,
): void {
  const n = ids.length;
  if (vectors instanceof Float32Array) {
    if (n === 0) return;
    if (vectors.length % n !== 0) {
      throw new AppError('invalid', `a flat batch of ${vectors.length} numbers does not split into ${n} vectors`);
    }
    const dim = vectors.length / n;
    if (dimension !== 0 && dim !== dimension) {
      throw new AppError('invalid', `vector has ${dim} dimensions, the index has ${dimension}`);
    }
    for (let i = 0; i < n; i++) visit(ids[i]!, vectors.subarray(i * dim, (i + 1) * dim));
    return;
  }
  if (vectors.length !== n) {
    throw new AppError('invalid', `${n} ids but ${vectors.length} vectors`);
  }
  for (let i = 0; i < n; i++) visit(ids[i]!, vectors[i]!);
}
