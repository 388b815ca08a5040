import { randomUUID } from 'node:crypto';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { nameKey } from '../../../src-main/core/people/person-names';
import { seedFace } from './seed-faces';

/**
 * People written straight into a real catalog (migration 0053's tables), for tests of what reads
 * where they are (search's `@Name`, the hand-off files) without the face model or the grouping:
 * each face is a `shot_faces` row on a real shot with its assignable `face_identity` (seed-faces.ts),
 * and a confirmed `face_people` row to one `people` row.
 */
export interface SeedPersonFace {
  shotId: number;
  /** Seconds from the clip's start, as the analysis stores a sample's time. */
  timeS: number;
  box?: { x: number; y: number; w: number; h: number };
}

export interface SeedPerson {
  /** null: a group the grouping proposed and nobody named yet. */
  name: string | null;
  faces: SeedPersonFace[];
  hidden?: boolean;
}

/** Any unit vector: a face below the floor (no embedding) is never a person's, so a seeded one has one. */
const ASSIGNABLE = Float32Array.from({ length: 128 }, (_, i) => (i === 0 ? 1 : 0));

/** Inserts one person and their faces; returns the person's id. */
export function seedPerson(db: CatalogDb, p: SeedPerson): number {
  const now = Date.now();
  const personId = Number(
    db
      .prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), p.name, p.name === null ? null : nameKey(p.name), p.hidden ? 1 : 0, p.name === null ? null : now, now).lastInsertRowid,
  );
  const clipOf = db.prepare('SELECT clip_id AS clipId FROM shots WHERE id = ?');
  const belongs = db.prepare("INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, 'confirmed', 1)");
  for (const f of p.faces) {
    const shot = clipOf.get(f.shotId) as { clipId: number } | undefined;
    if (!shot) throw new Error(`seedPerson: no shot ${f.shotId}`);
    belongs.run(seedFace(db, { shotId: f.shotId, clipId: shot.clipId, timeS: f.timeS, box: f.box, embedding: ASSIGNABLE }), personId);
  }
  return personId;
}

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
 * a group: what `@Name` reads, without the grouping, over faces the real analysis found. Returns the person's id.
 */
export function seedPersonOnFaces(db: CatalogDb, name: string, faces: readonly StoredFace[], o: { hidden?: boolean } = {}): number {
  const person = Number(
    db.prepare('INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), name, nameKey(name), o.hidden ? 1 : 0, 1, 1).lastInsertRowid,
  );
  const identity = db.prepare(
    `INSERT OR IGNORE INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable, embedding, thumb)
     VALUES (?, ?, NULL, 'seed', 40, 100, 0, 0.9, 1, NULL, NULL)`,
  );
  // The people module may have grouped these faces already (the pipeline tells it of every analysed clip): the seeded person takes them.
  const belongs = db.prepare(
    "INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, 'confirmed', 1) ON CONFLICT (face_id) DO UPDATE SET person_id = excluded.person_id, how = 'confirmed', similarity = 1",
  );
  db.transaction(() => {
    for (const f of faces) {
      identity.run(f.faceId, f.clipId);
      belongs.run(f.faceId, person);
    }
  })();
  return person;
}
