import type { CatalogDb } from '../catalog/open-catalog';
import { blobToFloat32 } from '../catalog/vector-blob';
import type { EmbeddingSpace } from './embedding-space';
import type { VectorBank } from './relevance/baselines';
import { normalizeVector } from './vector-math';

/** Segments in find-similar's sample: enough for a stable median, cheap per candidate. */
export const VIDEO_SAMPLE_SIZE = 64;

/**
 * A fixed sample of the library's segment vectors (spread over the ids by a multiplicative hash, so
 * the same segments from one call to the next): what find-similar measures each candidate's typical
 * neighbour against (relevance/relevance-math.ts). Null for an empty space.
 */
export function sampleSegmentVectors(db: CatalogDb, space: EmbeddingSpace, size = VIDEO_SAMPLE_SIZE): VectorBank | null {
  const rows = db
    .prepare(
      `SELECT segment_id, vector FROM embeddings WHERE model = ? AND region = ?
       ORDER BY (segment_id * 2654435761) % 4294967296 LIMIT ?`,
    )
    .all(space.model, space.region, size) as { segment_id: number; vector: Buffer }[];
  const vectors: { id: number; v: Float32Array }[] = [];
  for (const r of rows) {
    try {
      const raw = blobToFloat32(r.vector);
      vectors.push({ id: r.segment_id, v: normalizeVector(raw, raw.length) });
    } catch {
      // A damaged or zero row says nothing about the library.
    }
  }
  const dimension = vectors[0]?.v.length ?? 0;
  const same = vectors.filter((x) => x.v.length === dimension);
  if (same.length === 0) return null;
  const data = new Float32Array(same.length * dimension);
  same.forEach((x, i) => data.set(x.v, i * dimension));
  return { key: `video:${space.model}\n${space.region}:${same.map((x) => x.id).join(',')}`, dimension, rows: same.length, data };
}
