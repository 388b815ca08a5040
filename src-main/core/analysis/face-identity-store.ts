import type Database from 'better-sqlite3';
import { z } from 'zod';
import { statement } from '../catalog/statements';
import { encodePngRgb } from '../util/png';
import type { FaceIdentity } from './analysis-types';

/**
 * The owner of `face_identity`: what recognition made of each stored face (its quality and, above
 * the floors, its embedding). Rows are written with their `shot_faces` row by storeAnalysisRecords
 * (same transaction) and go with it (ON DELETE CASCADE) when the shot is analysed again. Nothing
 * here is uploaded or published to a team: a seat that adopts another seat's analysis gets the
 * boxes only, and its faces have no identity until it analyses the clip itself.
 */

/** Side of the stored thumbnails (workers/face-identity.cjs THUMB). */
const THUMB = 64;
/** Two faces of one shot closer than this are one look: only the better one keeps a thumbnail. */
const SAME_LOOK_COSINE = 0.6;

const shotRow = z.object({
  clip_id: z.number(),
  start_s: z.number(),
  end_s: z.number(),
  start_frame: z.number().nullable(),
  end_frame: z.number().nullable(),
});
export type ShotFrames = z.infer<typeof shotRow>;

/** The shot's clip and frame span, for the faces of one shot. */
export function shotFramesOf(db: Database.Database, shotId: number): ShotFrames | null {
  const row = statement(db, 'SELECT clip_id, start_s, end_s, start_frame, end_frame FROM shots WHERE id = ?').get(shotId);
  return row === undefined ? null : shotRow.parse(row);
}

/**
 * The decoded frame of a sample at `timeS` in the shot, counted on the shot's own frames as
 * migration 0052 counts segments (start + round((t - start_s) * frames / duration)), kept inside
 * the shot's half-open span; null when the shot has no frames.
 */
export function frameOfSample(shot: ShotFrames, timeS: number): number | null {
  const { start_frame: a, end_frame: b, start_s: s, end_s: e } = shot;
  if (a === null || b === null || b <= a || !(e > s)) return null;
  return Math.max(a, Math.min(b - 1, a + Math.round(((timeS - s) * (b - a)) / (e - s))));
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Which faces of one shot keep a thumbnail: the best (by quality) of each distinct look, greedily,
 * a face skipped when its cosine to one already kept is above SAME_LOOK_COSINE. A shot of one
 * person talking keeps one or two of its dozens of faces, so a catalog of 100k faces does not
 * carry 100k PNGs. Returns indices into `faces`.
 */
export function thumbsToKeep(faces: readonly FaceIdentity[]): Set<number> {
  const order = faces
    .map((f, i) => ({ f, i }))
    .filter((x) => x.f.embedding && x.f.thumb)
    .sort((x, y) => y.f.quality - x.f.quality);
  const kept: Float32Array[] = [];
  const keep = new Set<number>();
  for (const { f, i } of order) {
    if (kept.some((k) => cosine(k, f.embedding!) > SAME_LOOK_COSINE)) continue;
    kept.push(f.embedding!);
    keep.add(i);
  }
  return keep;
}

export interface FaceIdentityInsert {
  faceId: number;
  clipId: number;
  frame: number | null;
  identity: FaceIdentity;
  /** Store the face's thumbnail (thumbsToKeep chose it). */
  keepThumb: boolean;
}

/** Inserts one face's identity (its shot_faces row was just written, in the caller's transaction). */
export function insertFaceIdentity(db: Database.Database, row: FaceIdentityInsert): void {
  const id = row.identity;
  const embedding = id.assignable && id.embedding ? Buffer.from(id.embedding.buffer, id.embedding.byteOffset, id.embedding.byteLength) : null;
  const thumb = row.keepThumb && id.thumb ? encodePngRgb(THUMB, THUMB, id.thumb) : null;
  statement(
    db,
    `INSERT INTO face_identity (face_id, clip_id, frame, model, eye_px, sharpness, yaw, quality, assignable, embedding, thumb)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.faceId, row.clipId, row.frame, id.model, id.eyePx, id.sharpness, id.yaw, id.quality, id.assignable ? 1 : 0, embedding, thumb);
}

/**
 * Forgets what identifies these faces (the editor asked to forget a person): their embedding and
 * thumbnail are deleted and they are no longer assignable; the face, its box and its measures stay.
 */
export function forgetFaces(db: Database.Database, faceIds: readonly number[]): void {
  statement(db, 'UPDATE face_identity SET embedding = NULL, thumb = NULL, assignable = 0 WHERE face_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(faceIds));
}
