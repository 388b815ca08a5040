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
  // One flat row-major matrix: the per-query dot products stay in one tight loop (about 0.1 ms).
  let cached: { key: string; size: number; dim: number; rows: number; matrix: Float32Array } | null = null;

  function sampleMatrix() {
    const sp = space();
    const size = indexedSize();
    const key = `${sp.model}\n${sp.region}`;
    if (!cached || cached.key !== key || Math.abs(size - cached.size) > cached.size / 20) {
      const vectors = (pick.all(sp.model, sp.region, SAMPLE_SIZE) as { vector: Buffer }[]).map((r) => {
        const v = blobToFloat32(r.vector);
        return normalizeVector(v, v.length);
      });
      const dim = vectors[0]?.length ?? 0;
      // Rows of another dimension (a stale space) say nothing about this one.
      const same = vectors.filter((v) => v.length === dim);
      const matrix = new Float32Array(same.length * dim);
      same.forEach((v, i) => matrix.set(v, i * dim));
      cached = { key, size, dim, rows: same.length, matrix };
    }
    return { ...cached, size };
  }

  return {
    /** The calibration of one query vector; null on an empty library or a query of another dimension. */
    forQuery(query: ArrayLike<number>): Calibration | null {
      const m = sampleMatrix();
      if (m.rows === 0 || query.length !== m.dim) return null;
      const q = normalizeVector(query, query.length);
      const sims = new Float64Array(m.rows);
      for (let i = 0; i < m.rows; i++) {
        let dot = 0;
        const o = i * m.dim;
        for (let j = 0; j < m.dim; j++) dot += m.matrix[o + j]! * q[j]!;
        sims[i] = dot;
      }
      return calibrate(sims, m.size);
    },
  };
}

export type CalibrationSample = ReturnType<typeof createCalibrationSample>;
