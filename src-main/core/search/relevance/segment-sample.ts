import type { EmbeddingSpace } from '../index/embedding-space';
import type { IndexSyncStore } from '../index/index-sync-store';
import type { VectorBank } from './baselines';
import { normalizeVector } from '../index/vector-math';

/** Segments in find-similar's sample: enough for a stable median, cheap per candidate. */
export const VIDEO_SAMPLE_SIZE = 64;

/**
 * A fixed sample of the library's segment vectors (the same segments from one call to the next):
 * what find-similar measures each candidate's typical neighbour against
 * (relevance/relevance-math.ts). Null for an empty space.
 */
export function sampleSegmentVectors(store: IndexSyncStore, space: EmbeddingSpace, size = VIDEO_SAMPLE_SIZE): VectorBank | null {
  const vectors: { id: number; v: Float32Array }[] = [];
  for (const r of store.sampleVectors(space, size)) {
    if (r.vector === null) continue;
    try {
      vectors.push({ id: r.segmentId, v: normalizeVector(r.vector, r.vector.length) });
    } catch {
      // A damaged, zero or non-finite row says nothing about the library.
    }
  }
  const dimension = vectors[0]?.v.length ?? 0;
  const same = vectors.filter((x) => x.v.length === dimension);
  if (same.length === 0) return null;
  const data = new Float32Array(same.length * dimension);
  same.forEach((x, i) => data.set(x.v, i * dimension));
  return { key: `video:${space.model}\n${space.region}:${same.map((x) => x.id).join(',')}`, dimension, rows: same.length, data };
}
