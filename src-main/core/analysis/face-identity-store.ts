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
/** Two faces of one shot closer than this are one look (one person, as far as one shot can tell). */
const SAME_LOOK_COSINE = 0.6;
/**
 * Most thumbnails kept per look and clip beyond each shot's best: the People view's strip (8 crops)
 * shows several real faces of a person even when a clip is one shot. Bounded per clip, not per shot,
 * so a clip of many short shots keeps what it kept before (one a look and shot) plus at most this many
 * a person; a PNG is about 10 kB (intel_asl_sister's crops).
 */
export const THUMBS_PER_LOOK = 4;
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
 * Which of `faces` (in time order) keep a thumbnail. Faces are put in looks greedily, best first (a
 * face joins the first look whose best face it is closer to than SAME_LOOK_COSINE). Each look keeps
 * its best face and up to `perLook` faces spread over its time: the look's faces in time order are cut
 * into that many runs and the best of each run is kept (different moments: another expression, turn
 * or light, so the strip shows distinct faces rather than one). Returns indices into `faces`.
 */
export function thumbsToKeep(faces: readonly FaceIdentity[], perLook = THUMBS_PER_LOOK): Set<number> {
  const order = faces
    .map((f, i) => ({ f, i }))
    .filter((x) => x.f.embedding && x.f.thumb)
    .sort((x, y) => y.f.quality - x.f.quality || x.i - y.i);
  const looks: Array<{ best: Float32Array; members: number[] }> = [];
  for (const { f, i } of order) {
    const look = looks.find((l) => cosine(l.best, f.embedding!) > SAME_LOOK_COSINE);
    if (look) look.members.push(i);
    else looks.push({ best: f.embedding!, members: [i] });
  }
  const keep = new Set<number>();
  for (const { members } of looks) {
    keep.add(members[0]!);
    const inTime = [...members].sort((a, b) => a - b);
    const runs = Math.min(perLook, inTime.length);
    for (let r = 0; r < runs; r++) {
      const run = inTime.slice(Math.floor((r * inTime.length) / runs), Math.floor(((r + 1) * inTime.length) / runs));
      // The best of the run, unless a face of it is kept already (the look's best).
      if (run.some((i) => keep.has(i))) continue;
      keep.add(run.reduce((a, b) => (faces[b]!.quality > faces[a]!.quality ? b : a)));
    }
  }
  return keep;
}

/**
 * The thumbnails of a clip's analysis, per shot (`shots`: each shot's faces in time order, shots in
 * order): each shot's best face of each look, and over the whole clip up to THUMBS_PER_LOOK faces of
 * each look spread over its time. Returns, per shot, the indices into its faces.
 */
export function thumbsOfClip(shots: ReadonlyArray<readonly FaceIdentity[]>): Set<number>[] {
  const starts = shots.map((_, k) => shots.slice(0, k).reduce((n, s) => n + s.length, 0));
  const spread = thumbsToKeep(shots.flat());
  return shots.map((faces, k) => {
    const keep = thumbsToKeep(faces, 1);
    faces.forEach((_, i) => spread.has(starts[k]! + i) && keep.add(i));
    return keep;
  });
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
 * Clips with a face stored without an identity of `model` (`onlyClip`: that one alone): analysed while
 * face recognition was off, their analysis adopted from another seat (boxes only), or embedded by
 * another model (an update of the app that changed it: faces of another model are never compared, so
 * they are embedded again). A forgotten face keeps its row (no embedding, not assignable), so it is not
 * one of these, whichever model measured it.
 */
export function clipsMissingIdentities(db: Database.Database, model: string, onlyClip: number | null = null): number[] {
  return statement(
    db,
    `SELECT DISTINCT sh.clip_id FROM shot_faces f JOIN shots sh ON sh.id = f.shot_id
       LEFT JOIN face_identity fi ON fi.face_id = f.id
      WHERE (? IS NULL OR sh.clip_id = ?) AND (fi.face_id IS NULL OR (fi.embedding IS NOT NULL AND fi.model <> ?))
      ORDER BY sh.clip_id`,
  )
    .pluck()
    .all(onlyClip, onlyClip, model) as number[];
}

/**
 * Forgets what identifies these faces (the editor asked to forget a person): their embedding and
 * thumbnail are deleted and they are no longer assignable; the face, its box and its measures stay.
 */
export function forgetFaces(db: Database.Database, faceIds: readonly number[]): void {
  statement(db, 'UPDATE face_identity SET embedding = NULL, thumb = NULL, assignable = 0 WHERE face_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(faceIds));
}
