import { randomUUID } from 'node:crypto';
import { AppError } from '../../../src-shared/errors';
import type { Range, Rating } from '../../../src-shared/contract/marks';
import type { FrameRate } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { keywordsOfRanges } from './keyword-store';

/**
 * The owner of `ranges`: named spans of a clip in frames. A deleted range stays as a tombstone (to
 * be sent, and so no edit made elsewhere brings it back); reads skip tombstones unless they say so.
 * Writers take the time of the edit (marks-outbox-store.ts's `tick`).
 */

interface RangeRow {
  id: number;
  clip_id: number;
  clip_name: string;
  in_frame: number;
  out_frame: number;
  rate_num: number;
  rate_den: number;
  name: string;
  note: string;
  rating: Rating;
  created_at: number;
}

/** Live ranges (not deleted); callers add `AND ...`. */
const RANGE_SELECT = `SELECT r.id, r.clip_id, c.file_name AS clip_name, r.in_frame, r.out_frame, r.rate_num, r.rate_den,
  r.name, r.note, r.rating, r.created_at FROM ranges r JOIN clips c ON c.id = r.clip_id WHERE r.deleted_at IS NULL`;

/** Stored ranges as the contract gives them, with their keywords. */
function toRanges(db: CatalogDb, rows: readonly RangeRow[]): Range[] {
  const keywords = keywordsOfRanges(db, rows);
  return rows.map((r) => ({
    id: r.id,
    clipId: r.clip_id,
    clipName: r.clip_name,
    inFrame: r.in_frame,
    outFrame: r.out_frame,
    rate: { num: r.rate_num, den: r.rate_den },
    name: r.name,
    note: r.note,
    rating: r.rating,
    keywords: keywords.get(r.id) ?? [],
    createdAt: r.created_at,
  }));
}

export function getRange(db: CatalogDb, rangeId: number): Range {
  const row = statement(db, `${RANGE_SELECT} AND r.id = ?`).get(rangeId) as RangeRow | undefined;
  if (!row) throw new AppError('not_found', `range ${rangeId} is not in the catalog`);
  return toRanges(db, [row])[0]!;
}

export function rangesForClips(db: CatalogDb, clipIds: readonly number[]): Range[] {
  const rows = statement(db, `${RANGE_SELECT} AND r.clip_id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`).all(JSON.stringify(clipIds)) as RangeRow[];
  return toRanges(db, rows);
}

/** Every live range of the library, by clip then In (the Selects view). */
export function allRanges(db: CatalogDb): Range[] {
  return toRanges(db, statement(db, `${RANGE_SELECT} ORDER BY c.file_name COLLATE NOCASE, r.clip_id, r.in_frame, r.id`).all() as RangeRow[]);
}

export function rangesById(db: CatalogDb, rangeIds: readonly number[]): Range[] {
  const rows = statement(db, `${RANGE_SELECT} AND r.id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`).all(JSON.stringify(rangeIds)) as RangeRow[];
  return toRanges(db, rows);
}

/** Ranges saved in a catalog, deleted ones (tombstones) not counted: what a backup is said to hold. */
export function rangeCount(db: CatalogDb): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM ranges WHERE deleted_at IS NULL').get() as { n: number }).n;
}

/** Live ranges per clip among these clips (for cards and list rows); read for every Library page. */
export function rangeCountsOfClips(db: CatalogDb, clipIds: readonly number[]): { clip_id: number; n: number }[] {
  return statement(db, 'SELECT clip_id, COUNT(*) AS n FROM ranges WHERE deleted_at IS NULL AND clip_id IN (SELECT value FROM json_each(?)) GROUP BY clip_id').all(
    JSON.stringify(clipIds),
  ) as { clip_id: number; n: number }[];
}

/** The live ranges among these ids (a deleted range is a tombstone: not a target any more). */
export function knownRanges(db: CatalogDb, ids: readonly number[]): { id: number; clip_id: number }[] {
  return db.prepare('SELECT id, clip_id FROM ranges WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; clip_id: number }[];
}

/** The clips these ranges are marked on (a change to a range changes its clip's card); unknown ids are skipped. */
export function clipsOfRanges(db: CatalogDb, rangeIds: readonly number[]): number[] {
  return knownRanges(db, rangeIds).map((r) => r.clip_id);
}

export interface NewRange {
  clipId: number;
  inFrame: number;
  outFrame: number;
  rate: FrameRate;
  name: string;
  note: string;
  rating: Rating;
  keywords: readonly string[];
}

/** A new range, its fields this catalog's edits with no server version yet (stamp 0), made at `at`; returns its id. */
export function insertRange(db: CatalogDb, r: NewRange, at: number): number {
  const insert = db
    .prepare(
      `INSERT INTO ranges (uuid, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, name, name_at, note, note_at, rating, rating_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0, ?, 0, ?, 0, ?)`,
    )
    .run(randomUUID(), r.clipId, r.inFrame, r.outFrame, r.rate.num, r.rate.den, r.name, r.note, r.rating, at);
  return Number(insert.lastInsertRowid);
}

/* An edit keeps the field's stamp (the server's version it was made over: its base) and marks it pending (`*_by` NULL). */
export function rateRanges(db: CatalogDb, rangeIds: readonly number[], rating: Rating): void {
  const rateRange = db.prepare('UPDATE ranges SET rating = ?, rating_by = NULL WHERE id = ?');
  for (const id of rangeIds) rateRange.run(rating, id);
}

export function patchRange(db: CatalogDb, rangeId: number, patch: { name?: string; note?: string }): void {
  if (patch.name !== undefined) db.prepare('UPDATE ranges SET name = ?, name_by = NULL WHERE id = ?').run(patch.name, rangeId);
  if (patch.note !== undefined) db.prepare('UPDATE ranges SET note = ?, note_by = NULL WHERE id = ?').run(patch.note, rangeId);
}

export function tombstoneRange(db: CatalogDb, rangeId: number, at: number): void {
  db.prepare('UPDATE ranges SET deleted_at = ?, deleted_by = NULL WHERE id = ?').run(at, rangeId);
}

/** A relink's merge: the other clip's ranges move over. */
export function moveRanges(db: CatalogDb, fromClipId: number, toClipId: number): void {
  db.prepare('UPDATE ranges SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
}

/** A range row with its per-field server stamps and seats (NULL: a local edit waiting to be sent), as team marks sync reads it. */
export interface LocalRangeRow {
  id: number;
  uuid: string;
  clip_id: number;
  in_frame: number;
  out_frame: number;
  rate_num: number;
  rate_den: number;
  span_at: number;
  span_by: string | null;
  name: string;
  name_at: number;
  name_by: string | null;
  note: string;
  note_at: number;
  note_by: string | null;
  rating: Rating;
  rating_at: number;
  rating_by: string | null;
  created_at: number;
  created_by: string | null;
  deleted_at: number | null;
  deleted_by: string | null;
}

export function rangeRowByUuid(db: CatalogDb, uuid: string): LocalRangeRow | undefined {
  return statement(db, `SELECT r.id, r.uuid, r.clip_id, r.in_frame, r.out_frame, r.rate_num, r.rate_den, r.span_at, r.span_by, r.name, r.name_at, r.name_by,
  r.note, r.note_at, r.note_by, r.rating, r.rating_at, r.rating_by, r.created_at, r.created_by, r.deleted_at, r.deleted_by FROM ranges r WHERE r.uuid = ?`).get(uuid) as LocalRangeRow | undefined;
}

/** Which of these range uuids this catalog holds (live or deleted). */
export function knownRangeUuids(db: CatalogDb, uuids: readonly string[]): Set<string> {
  return new Set(
    (statement(db, 'SELECT uuid FROM ranges WHERE uuid IN (SELECT value FROM json_each(?))').all(JSON.stringify(uuids)) as { uuid: string }[]).map((r) => r.uuid),
  );
}

/** The local id of a range by its uuid, and whether it is deleted. */
export function rangeOfUuid(db: CatalogDb, uuid: string): { id: number; deleted_at: number | null } | undefined {
  return statement(db, 'SELECT id, deleted_at FROM ranges WHERE uuid = ?').get(uuid) as { id: number; deleted_at: number | null } | undefined;
}

/** Writes a range as merged with the server's version: a new row (`localId` null) or over the one held. Fields in LocalRangeRow's order from in_frame. */
export function writeTeamRange(db: CatalogDb, localId: number | null, uuid: string, clipId: number, fields: readonly unknown[]): void {
  if (localId === null) {
    statement(
      db,
      `INSERT INTO ranges (uuid, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by,
         rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(uuid, clipId, ...fields);
  } else {
    statement(
      db,
      `UPDATE ranges SET in_frame = ?, out_frame = ?, rate_num = ?, rate_den = ?, span_at = ?, span_by = ?, name = ?, name_at = ?, name_by = ?,
         note = ?, note_at = ?, note_by = ?, rating = ?, rating_at = ?, rating_by = ?, created_at = ?, created_by = ?, deleted_at = ?, deleted_by = ? WHERE id = ?`,
    ).run(...fields, localId);
  }
}
