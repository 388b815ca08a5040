import { AppError } from '../../../../src-shared/errors';
import type { SearchHit, VectorInput } from './vector-types';

/** Throws AppError('invalid') unless the id can be a usearch key and come back as the same number. */
export function assertSegmentId(id: number): void {
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new AppError('invalid', `segment id must be a non-negative safe integer, got ${String(id)}`);
  }
}

/**
 * Copies `input` into `out` (or a new array) scaled to unit length.
 * Zero, NaN and infinite vectors have no direction, so they are rejected rather than stored as noise.
 */
export function normalizeVector(input: VectorInput, dimension: number, out?: Float32Array): Float32Array {
  if (input.length !== dimension) {
    throw new AppError('invalid', `vector has ${input.length} dimensions, the index has ${dimension}`);
  }
  const target = out ?? new Float32Array(dimension);
  let sum = 0;
  for (let i = 0; i < dimension; i++) {
    const v = Number(input[i]);
    sum += v * v;
  }
  if (!Number.isFinite(sum) || sum === 0) {
    throw new AppError('invalid', 'vector must be finite and non-zero');
  }
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < dimension; i++) target[i] = Number(input[i]) * scale;
  return target;
}

/** Dot product of `a` with the row of `matrix` starting at `offset`; unrolled because it is the hot loop. */
export function dotAt(a: Float32Array, matrix: Float32Array, offset: number, dimension: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  const end4 = dimension - (dimension % 4);
  for (; i < end4; i += 4) {
    s0 += a[i]! * matrix[offset + i]!;
    s1 += a[i + 1]! * matrix[offset + i + 1]!;
    s2 += a[i + 2]! * matrix[offset + i + 2]!;
    s3 += a[i + 3]! * matrix[offset + i + 3]!;
  }
  for (; i < dimension; i++) s0 += a[i]! * matrix[offset + i]!;
  return s0 + s1 + s2 + s3;
}

/**
 * Keeps the k best (score, id) pairs seen so far in a min-heap, so a full scan costs O(n log k)
 * and never sorts n items.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Float64Array;
  private count = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Float64Array(k);
  }

  get size(): number {
    return this.count;
  }

  /** The score a candidate must beat to enter (−Infinity while the heap is not full). */
  get threshold(): number {
    return this.count < this.k ? -Infinity : this.scores[0]!;
  }

  push(score: number, id: number): void {
    if (this.k === 0) return;
    if (this.count < this.k) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.scores[parent]! <= score) break;
        this.scores[i] = this.scores[parent]!;
        this.ids[i] = this.ids[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.ids[i] = id;
      return;
    }
    if (score <= this.scores[0]!) return;
    // Replace the root (the worst kept) and sift down.
    let i = 0;
    const n = this.count;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.scores[r]! < this.scores[l]! ? r : l;
      if (this.scores[c]! >= score) break;
      this.scores[i] = this.scores[c]!;
      this.ids[i] = this.ids[c]!;
      i = c;
    }
    this.scores[i] = score;
    this.ids[i] = id;
  }

  /** Best first; ties broken by smaller id so results are deterministic. */
  toSortedHits(): SearchHit[] {
    const out: SearchHit[] = [];
    for (let i = 0; i < this.count; i++) out.push({ id: this.ids[i]!, similarity: this.scores[i]! });
    out.sort((a, b) => b.similarity - a.similarity || a.id - b.id);
    return out;
  }
}

/** Validates k: a positive integer; larger k than the index size is fine (fewer hits come back). */
export function assertK(k: number): void {
  if (!Number.isSafeInteger(k) || k <= 0) {
    throw new AppError('invalid', `k must be a positive integer, got ${String(k)}`);
  }
}
