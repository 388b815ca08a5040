import type { StoredVector } from './index-sync-store';

/**
 * The stored rows an index of `dimension` (0 while empty: the first usable row sets it) can take: a
 * vector of that dimension, not all zeros, every number finite. The others are counted as skipped: a
 * different dimension means another model wrote them, a null vector a damaged blob.
 */
export function fittingRows(rows: readonly StoredVector[], dimension: number): { ids: number[]; vectors: Float32Array[]; skipped: number } {
  const ids: number[] = [];
  const vectors: Float32Array[] = [];
  let dim = dimension;
  let skipped = 0;
  for (const r of rows) {
    const v = r.vector;
    if (v === null) {
      skipped++;
      continue;
    }
    if (dim === 0) dim = v.length;
    if (v.length !== dim || !v.some((x) => x !== 0) || !v.every(Number.isFinite)) {
      skipped++;
      continue;
    }
    ids.push(r.segmentId);
    vectors.push(v);
  }
  return { ids, vectors, skipped };
}
