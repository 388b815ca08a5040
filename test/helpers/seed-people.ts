import { randomUUID } from 'node:crypto';
import type { CatalogDb } from '../../src-main/core/catalog/open-catalog';
import { nameKey } from '../../src-main/core/people/person-names';
import { frameInShot } from '../../src-main/core/people/person-spans';

/**
 * People written straight into a real catalog (migration 0053's tables), for tests of what reads
 * them (search's `@Name`, the hand-off files) without the face model or the grouping: each face
 * is a `shot_faces` row on a real shot, its `face_identity` (assignable, no embedding: nothing
 * here matches faces) and its `face_people` row, confirmed, to one `people` row.
 */
export interface SeedFace {
  shotId: number;
  /** Seconds from the clip's start, as the analysis stores a sample's time. */
  timeS: number;
  x?: number;
  y?: number;
  w?: number;
  h?: number;
}

export interface SeedPerson {
  /** null: a group the grouping proposed and nobody named yet. */
  name: string | null;
  faces: SeedFace[];
  hidden?: boolean;
}

/** Inserts one person and their faces; returns the person's id. */
export function seedPerson(db: CatalogDb, p: SeedPerson): number {
  const now = Date.now();
  const personId = Number(
    db
      .prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), p.name, p.name === null ? null : nameKey(p.name), p.hidden ? 1 : 0, p.name === null ? null : now, now).lastInsertRowid,
  );
  const shot = db.prepare('SELECT clip_id AS clipId, start_s AS shotStartS, end_s AS shotEndS, start_frame AS shotStartFrame, end_frame AS shotEndFrame FROM shots WHERE id = ?');
  const sampleIdx = db.prepare('SELECT COUNT(*) AS n FROM shot_faces WHERE shot_id = ?');
  const face = db.prepare('INSERT INTO shot_faces (shot_id, frame_idx, time_s, x, y, w, h, score, landmarks_json) VALUES (?, ?, ?, ?, ?, ?, ?, 0.99, ?)');
  const identity = db.prepare("INSERT INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable) VALUES (?, ?, ?, 'test-face-model', 40, 100, 0, 0.9, 1)");
  const belongs = db.prepare("INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, 'confirmed', 1)");
  db.transaction(() => {
    for (const f of p.faces) {
      const s = shot.get(f.shotId) as { clipId: number; shotStartS: number; shotEndS: number; shotStartFrame: number | null; shotEndFrame: number | null } | undefined;
      if (!s) throw new Error(`seedPerson: no shot ${f.shotId}`);
      const { n } = sampleIdx.get(f.shotId) as { n: number };
      const [x, y, w, h] = [f.x ?? 0.4, f.y ?? 0.3, f.w ?? 0.2, f.h ?? 0.3];
      const faceId = Number(face.run(f.shotId, n, f.timeS, x, y, w, h, '[]').lastInsertRowid);
      identity.run(faceId, s.clipId, frameInShot(f.timeS, s));
      belongs.run(faceId, personId);
    }
  })();
  return personId;
}
