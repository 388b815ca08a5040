import type { CatalogDb } from '../catalog/open-catalog';
import { blobToFloat32 } from '../catalog/vector-blob';
import type { EmbeddingSpace } from './query-cache';
import { calibrate, SAMPLE_SIZE, type Calibration } from './relevance';
import { normalizeVector } from './vector-math';

/**
 * The fixed sample of the library's segment vectors every query is calibrated against
 * (relevance.ts): SAMPLE_SIZE segments spread over the id space by a multiplicative hash, so the
 * sample is the same from one query to the next and changes only when the library grows or shrinks
 * by more than a twentieth. Reading it is one pass over the embeddings; a query then costs
 * SAMPLE_SIZE dot products.
 */
export function createCalibrationSample(db: CatalogDb, space: () => EmbeddingSpace, indexedSize: () => number) {
  const pick = db.prepare(
    `SELECT vector FROM embeddings WHERE model = ? AND region = ?
     ORDER BY (segment_id * 2654435761) % 4294967296 LIMIT ?`,
  );
  let cached: { key: string; size: number; vectors: Float32Array[] } | null = null;

  function vectors(): { vectors: Float32Array[]; size: number } {
    const sp = space();
    const size = indexedSize();
    const key = `${sp.model}\n${sp.region}`;
    if (!cached || cached.key !== key || Math.abs(size - cached.size) > cached.size / 20) {
      const rows = pick.all(sp.model, sp.region, SAMPLE_SIZE) as { vector: Buffer }[];
      cached = {
        key,
        size,
        vectors: rows.map((r) => {
          const v = blobToFloat32(r.vector);
          return normalizeVector(v, v.length);
        }),
      };
    }
    return { vectors: cached.vectors, size };
  }

  return {
    /** The calibration of one query vector; null on an empty library. */
    forQuery(query: ArrayLike<number>): Calibration | null {
      const { vectors: sample, size } = vectors();
      if (sample.length === 0) return null;
      const q = normalizeVector(query, query.length);
      const sims = new Float64Array(sample.length);
      sample.forEach((v, i) => {
        // Vectors of another dimension (a stale row) say nothing about this query.
        if (v.length !== q.length) return;
        let dot = 0;
        for (let j = 0; j < q.length; j++) dot += v[j]! * q[j]!;
        sims[i] = dot;
      });
      return calibrate(sims, size);
    },
  };
}

export type CalibrationSample = ReturnType<typeof createCalibrationSample>;
