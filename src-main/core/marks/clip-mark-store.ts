import type { Rating } from '../../../src-shared/contract/marks';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/** The owner of `clip_marks`: a clip's own rating, with the server's stamp of its version and its seat (NULL: a local edit waiting to be sent). */

export interface LocalClipMarkRow {
  clip_id: number;
  rating: Rating;
  rating_at: number;
  rating_by: string | null;
}

export function clipRating(db: CatalogDb, clipId: number): Rating {
  return (statement(db, 'SELECT rating FROM clip_marks WHERE clip_id = ?').get(clipId) as { rating: Rating } | undefined)?.rating ?? null;
}

/** The ratings of these clips that have one; read for every Library page. */
export function ratingsOfClips(db: CatalogDb, clipIds: readonly number[]): { clip_id: number; rating: Rating }[] {
  return statement(db, 'SELECT clip_id, rating FROM clip_marks WHERE clip_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(clipIds)) as { clip_id: number; rating: Rating }[];
}

/** This catalog's rating of these clips: pending over the version held (its stamp kept as the base; 0: none). */
export function rateClips(db: CatalogDb, clipIds: readonly number[], rating: Rating): void {
  const rateClip = db.prepare(
    `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) VALUES (?, ?, 0, NULL)
     ON CONFLICT(clip_id) DO UPDATE SET rating = excluded.rating, rating_by = NULL`,
  );
  for (const id of clipIds) rateClip.run(id, rating);
}

/** A relink's merge: the other clip's rating moves over only where this clip has none. */
export function moveClipMark(db: CatalogDb, fromClipId: number, toClipId: number): void {
  db.prepare(
    `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) SELECT ?, rating, rating_at, rating_by FROM clip_marks WHERE clip_id = ?
     ON CONFLICT(clip_id) DO UPDATE SET rating = COALESCE(clip_marks.rating, excluded.rating)`,
  ).run(toClipId, fromClipId);
}

export function clipMarkRow(db: CatalogDb, clipId: number): LocalClipMarkRow | undefined {
  return statement(db, 'SELECT clip_id, rating, rating_at, rating_by FROM clip_marks WHERE clip_id = ?').get(clipId) as LocalClipMarkRow | undefined;
}

/** Writes a clip's rating as merged with the server's version. */
export function writeTeamClipMark(db: CatalogDb, m: LocalClipMarkRow): void {
  statement(
    db,
    `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) VALUES (?, ?, ?, ?)
     ON CONFLICT(clip_id) DO UPDATE SET rating = excluded.rating, rating_at = excluded.rating_at, rating_by = excluded.rating_by`,
  ).run(m.clip_id, m.rating, m.rating_at, m.rating_by);
}
