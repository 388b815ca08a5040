import { randomUUID } from 'node:crypto';
import type { CatalogDb } from '../../src-main/core/catalog/open-catalog';
import { nameKey } from '../../src-main/core/people/person-names';

/** A face the analysis stored (shot_faces), with where it is. */
export interface StoredFace {
  faceId: number;
  clipId: number;
  shotId: number;
  timeS: number;
}

/** Every face the local analysis found, by clip and time. */
export function storedFaces(db: CatalogDb): StoredFace[] {
  return db
    .prepare('SELECT f.id AS faceId, sh.clip_id AS clipId, sh.id AS shotId, f.time_s AS timeS FROM shot_faces f JOIN shots sh ON sh.id = f.shot_id ORDER BY sh.clip_id, f.time_s, f.id')
    .all() as StoredFace[];
}

/**
 * A named person owning `faces`, written with plain SQL into the tables of catalog migration 0053
 * (face_identity, people, face_people) as the people module would leave them once the editor named
 * a group: what `@Name` reads, without the grouping. Returns the person's id.
 */
export function seedPerson(db: CatalogDb, name: string, faces: readonly StoredFace[], o: { hidden?: boolean } = {}): number {
  const person = Number(
    db.prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), name, nameKey(name), o.hidden ? 1 : 0, 1, 1).lastInsertRowid,
  );
  const identity = db.prepare(
    `INSERT OR IGNORE INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable, embedding, thumb)
     VALUES (?, ?, NULL, 'seed', 40, 100, 0, 0.9, 1, NULL, NULL)`,
  );
  const belongs = db.prepare("INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, 'confirmed', 1)");
  db.transaction(() => {
    for (const f of faces) {
      identity.run(f.faceId, f.clipId);
      belongs.run(f.faceId, person);
    }
  })();
  return person;
}
