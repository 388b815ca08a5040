import { EMBEDDING_MODEL_FILE } from '../../../src-main/core/analysis/resource-paths';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';

/**
 * Faces written straight into a real catalog as the analysis would store them (shot_faces with its
 * face_identity row), for tests of what people do with faces. `embedding` null: below the floor.
 */
export interface SeedFace {
  shotId: number;
  clipId: number;
  timeS: number;
  box?: { x: number; y: number; w: number; h: number };
  embedding: Float32Array | null;
  model?: string;
  quality?: number;
}

export function seedFace(db: CatalogDb, f: SeedFace): number {
  const b = f.box ?? { x: 0.4, y: 0.3, w: 0.2, h: 0.3 };
  const frameIdx = Math.round(f.timeS * 2);
  const id = Number(
    db.prepare('INSERT INTO shot_faces (shot_id, frame_idx, time_s, x, y, w, h, score, landmarks_json) VALUES (?, ?, ?, ?, ?, ?, ?, 0.9, ?)').run(f.shotId, frameIdx, f.timeS, b.x, b.y, b.w, b.h, '[]').lastInsertRowid,
  );
  const blob = f.embedding ? Buffer.from(f.embedding.buffer, f.embedding.byteOffset, f.embedding.byteLength) : null;
  db.prepare('INSERT INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable, embedding, thumb) VALUES (?, ?, ?, ?, 40, 100, 0, ?, ?, ?, NULL)').run(
    id,
    f.clipId,
    null,
    f.model ?? EMBEDDING_MODEL_FILE,
    f.quality ?? 0.8,
    blob ? 1 : 0,
    blob,
  );
  return id;
}

/** A clip's faces gone, as a re-analysis replaces them (shot_faces rows deleted; face_identity and face_people follow). */
export function dropFacesOfClip(db: CatalogDb, clipId: number): void {
  db.prepare('DELETE FROM shot_faces WHERE shot_id IN (SELECT id FROM shots WHERE clip_id = ?)').run(clipId);
}

/** Deterministic unit vectors: people as centres, faces as noisy copies. */
export function faceSpace(seed: number, dim = 128) {
  let s = seed >>> 0;
  const r = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const unit = (v: Float32Array) => {
    let n = 0;
    for (const x of v) n += x * x;
    n = Math.sqrt(n);
    return v.map((x) => x / n);
  };
  return {
    centre: () => unit(Float32Array.from({ length: dim }, () => r())),
    around: (c: Float32Array, spread = 0.08) => unit(c.map((x) => x + spread * r())),
  };
}
