import { z } from 'zod';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { FacePlace } from './people-facts-store';
import { HELD_SQL } from './people-store';

/**
 * The faces as people reads them (it writes none of these tables): `face_identity` with its
 * `shot_faces` box and sample time. Embeddings are read only in the current model's space.
 */
export interface FaceRecord extends FacePlace {
  faceId: number;
  shotId: number;
  quality: number;
  embedding: Float32Array;
}

const row = z.object({
  faceId: z.number(),
  shotId: z.number(),
  clipId: z.number(),
  frame: z.number().nullable(),
  timeS: z.number(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  quality: z.number(),
  embedding: z.instanceof(Buffer),
});

const SELECT = `SELECT fi.face_id AS faceId, f.shot_id AS shotId, fi.clip_id AS clipId, fi.frame, f.time_s AS timeS, f.x, f.y, f.w, f.h, fi.quality, fi.embedding
  FROM face_identity fi JOIN shot_faces f ON f.id = fi.face_id`;

/** float32 little-endian, copied: a BLOB's bytes need not be aligned for a Float32Array view. */
function toVector(b: Buffer): Float32Array {
  const out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = b.readFloatLE(i * 4);
  return out;
}

const toRecord = (r: unknown): FaceRecord => {
  const p = row.parse(r);
  return { ...p, embedding: toVector(p.embedding) };
};

/** Assignable faces of one clip with their embeddings. */
export function assignableFacesOfClip(db: CatalogDb, clipId: number, model: string): FaceRecord[] {
  return statement(db, `${SELECT} WHERE fi.clip_id = ? AND fi.assignable = 1 AND fi.embedding IS NOT NULL AND fi.model = ? ORDER BY fi.face_id`).all(clipId, model).map(toRecord);
}

/** Assignable faces nobody has (the grouping's pool), newest first, at most `limit`. */
export function unassignedFaces(db: CatalogDb, model: string, limit: number): FaceRecord[] {
  return statement(
    db,
    `${SELECT} WHERE fi.assignable = 1 AND fi.embedding IS NOT NULL AND fi.model = ? AND NOT EXISTS (SELECT 1 FROM face_people fp WHERE fp.face_id = fi.face_id) ORDER BY fi.face_id DESC LIMIT ?`,
  )
    .all(model, limit)
    .map(toRecord);
}

/**
 * The grouping's pool: assignable faces nobody holds (unassigned, or in a proposed group the editor
 * has not named, hidden or confirmed a face of), with the group each is in now. Ordered by the faces
 * themselves (quality, then the embedding's bytes), never by when they arrived, so the same faces
 * make the same pool and the same groups whatever order their clips were analysed in; the best
 * `limit` when there are more.
 */
export function poolFaces(db: CatalogDb, model: string, limit: number): Array<FaceRecord & { personId: number | null }> {
  return statement(
    db,
    `${SELECT.replace('SELECT ', 'SELECT fp.person_id AS personId, ')} LEFT JOIN face_people fp ON fp.face_id = fi.face_id LEFT JOIN people p ON p.id = fp.person_id
      WHERE fi.assignable = 1 AND fi.embedding IS NOT NULL AND fi.model = ?
        AND (fp.face_id IS NULL OR NOT ${HELD_SQL})
      ORDER BY fi.quality DESC, fi.embedding LIMIT ?`,
  )
    .all(model, limit)
    .map((r) => ({ ...toRecord(r), personId: (r as { personId: number | null }).personId }));
}

/** A person's faces with embeddings: confirmed only, or all. */
export function facesOfPerson(db: CatalogDb, personId: number, model: string, confirmedOnly: boolean): FaceRecord[] {
  return statement(
    db,
    `${SELECT} JOIN face_people fp ON fp.face_id = fi.face_id WHERE fp.person_id = ? AND fi.model = ? AND fi.embedding IS NOT NULL AND (? = 0 OR fp.how = 'confirmed') ORDER BY fi.quality DESC`,
  )
    .all(personId, model, confirmedOnly ? 1 : 0)
    .map(toRecord);
}

/** Every face of a clip, assignable or not, with its place (facts are re-attached to these). */
export function placesOfClip(db: CatalogDb, clipId: number): Array<FacePlace & { faceId: number; assignable: boolean }> {
  return (
    statement(db, 'SELECT fi.face_id AS faceId, fi.clip_id AS clipId, fi.frame, f.time_s AS timeS, f.x, f.y, f.w, f.h, fi.assignable FROM face_identity fi JOIN shot_faces f ON f.id = fi.face_id WHERE fi.clip_id = ?').all(clipId) as Array<
      FacePlace & { faceId: number; assignable: number }
    >
  ).map((r) => ({ ...r, assignable: r.assignable === 1 }));
}

/** The places of some faces (to record facts about them). */
export function placesOf(db: CatalogDb, faceIds: readonly number[]): Map<number, FacePlace> {
  const q = statement(db, 'SELECT fi.clip_id AS clipId, fi.frame, f.time_s AS timeS, f.x, f.y, f.w, f.h FROM face_identity fi JOIN shot_faces f ON f.id = fi.face_id WHERE fi.face_id = ?');
  const out = new Map<number, FacePlace>();
  for (const id of faceIds) {
    const r = q.get(id) as FacePlace | undefined;
    if (r) out.set(id, r);
  }
  return out;
}

/** Clips that have assignable faces in this model (a regroup goes through them). */
export function clipsWithFaces(db: CatalogDb, model: string): number[] {
  return (statement(db, 'SELECT DISTINCT clip_id FROM face_identity WHERE assignable = 1 AND model = ? ORDER BY clip_id').all(model) as { clip_id: number }[]).map((r) => r.clip_id);
}

export interface FaceView {
  faceId: number;
  clipId: number;
  clipName: string;
  frame: number | null;
  timeS: number;
  quality: number;
  thumb: Buffer | null;
  how: 'confirmed' | 'grouped' | 'matched' | null;
  similarity: number | null;
}

const viewRow = z.object({
  faceId: z.number(),
  clipId: z.number(),
  clipName: z.string(),
  frame: z.number().nullable(),
  timeS: z.number(),
  quality: z.number(),
  thumb: z.instanceof(Buffer).nullable(),
  how: z.enum(['confirmed', 'grouped', 'matched']).nullable(),
  similarity: z.number().nullable(),
});

/** A person's faces for the view: confirmed first, then by quality; those with a crop first within each. */
export function faceViews(db: CatalogDb, personId: number, offset: number, limit: number): { faces: FaceView[]; total: number } {
  const total = (statement(db, 'SELECT COUNT(*) AS n FROM face_people WHERE person_id = ?').get(personId) as { n: number }).n;
  const faces = statement(
    db,
    `SELECT fi.face_id AS faceId, fi.clip_id AS clipId, c.file_name AS clipName, fi.frame, f.time_s AS timeS, fi.quality, fi.thumb, fp.how, fp.similarity
       FROM face_people fp JOIN face_identity fi ON fi.face_id = fp.face_id JOIN shot_faces f ON f.id = fi.face_id JOIN clips c ON c.id = fi.clip_id
      WHERE fp.person_id = ? ORDER BY fp.how = 'confirmed' DESC, fi.thumb IS NOT NULL DESC, fi.quality DESC, fi.face_id LIMIT ? OFFSET ?`,
  )
    .all(personId, limit, offset)
    .map((r) => viewRow.parse(r));
  return { faces, total };
}

/** Some faces for the view, whoever's they are (suggestions come from the pool), in the order given. */
export function faceViewsByIds(db: CatalogDb, faceIds: readonly number[]): FaceView[] {
  const q = statement(
    db,
    `SELECT fi.face_id AS faceId, fi.clip_id AS clipId, c.file_name AS clipName, fi.frame, f.time_s AS timeS, fi.quality, fi.thumb, fp.how, fp.similarity
       FROM face_identity fi JOIN shot_faces f ON f.id = fi.face_id JOIN clips c ON c.id = fi.clip_id LEFT JOIN face_people fp ON fp.face_id = fi.face_id
      WHERE fi.face_id = ?`,
  );
  return faceIds.flatMap((id) => {
    const r = q.get(id);
    return r ? [viewRow.parse(r)] : [];
  });
}

/** Named faces of a clip for the viewer's boxes (every face of the clip; name null when nobody's). */
export function clipFaceNames(db: CatalogDb, clipId: number): Array<{ faceId: number; timeS: number; frame: number | null; x: number; y: number; w: number; h: number; name: string | null }> {
  return statement(
    db,
    `SELECT f.id AS faceId, f.time_s AS timeS, fi.frame, f.x, f.y, f.w, f.h, p.name
       FROM shot_faces f JOIN shots sh ON sh.id = f.shot_id
       LEFT JOIN face_identity fi ON fi.face_id = f.id LEFT JOIN face_people fp ON fp.face_id = f.id LEFT JOIN people p ON p.id = fp.person_id AND p.hidden = 0
      WHERE sh.clip_id = ? ORDER BY f.time_s`,
  ).all(clipId) as Array<{ faceId: number; timeS: number; frame: number | null; x: number; y: number; w: number; h: number; name: string | null }>;
}
