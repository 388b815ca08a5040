import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/**
 * The owner of `keywords`: a clip's own keywords and its ranges'. A removed keyword keeps its row as
 * a removal (removed_at), to be sent. An edit keeps the row's base (`added_at`, the server's stamp of
 * the version it was made over, 0 for none) and marks it pending (`added_by` NULL); writers return
 * the rows they touched, for the outbox (marks-outbox-store.ts).
 */

/** A clip's own keywords (not its ranges'), case aside in alphabetical order. */
export function clipKeywords(db: CatalogDb, clipId: number): string[] {
  return (statement(db, 'SELECT keyword FROM keywords WHERE clip_id = ? AND range_id IS NULL AND removed_at IS NULL ORDER BY keyword COLLATE NOCASE').all(clipId) as { keyword: string }[]).map(
    (r) => r.keyword,
  );
}

/**
 * The keywords of these ranges, each list in the order clipKeywords gives a clip's: one read for a
 * page of ranges, not one per range (found through their clips: keywords are indexed by clip).
 */
export function keywordsOfRanges(db: CatalogDb, ranges: readonly { id: number; clip_id: number }[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (ranges.length === 0) return out;
  const clipIds = JSON.stringify([...new Set(ranges.map((r) => r.clip_id))]);
  for (const r of statement(
    db,
    `SELECT range_id, keyword FROM keywords
     WHERE clip_id IN (SELECT value FROM json_each(?)) AND range_id IN (SELECT value FROM json_each(?)) AND removed_at IS NULL ORDER BY keyword COLLATE NOCASE`,
  ).all(clipIds, JSON.stringify(ranges.map((r) => r.id))) as { range_id: number; keyword: string }[]) {
    (out.get(r.range_id) ?? out.set(r.range_id, []).get(r.range_id)!).push(r.keyword);
  }
  return out;
}

/** The own keywords of these clips (for cards and list rows), each list in clipKeywords' order; read for every Library page. */
export function keywordsOfClips(db: CatalogDb, clipIds: readonly number[]): { clip_id: number; keyword: string }[] {
  return statement(db, 'SELECT clip_id, keyword FROM keywords WHERE range_id IS NULL AND removed_at IS NULL AND clip_id IN (SELECT value FROM json_each(?)) ORDER BY keyword COLLATE NOCASE').all(
    JSON.stringify(clipIds),
  ) as { clip_id: number; keyword: string }[];
}

/**
 * Adds a keyword to a clip or a range: one present, it stays spelt as it was (and its add is newer);
 * one removed earlier comes back spelt as now. Returns its row.
 */
export function addKeyword(db: CatalogDb, clipId: number, rangeId: number | null, keyword: string): number {
  const { id } = statement(
    db,
    `INSERT INTO keywords (clip_id, range_id, keyword, added_at) VALUES (?, ?, ?, 0)
     ON CONFLICT(clip_id, IFNULL(range_id, 0), keyword) DO UPDATE SET
       keyword = CASE WHEN keywords.removed_at IS NULL THEN keywords.keyword ELSE excluded.keyword END,
       added_by = CASE WHEN keywords.removed_at IS NULL THEN keywords.added_by END, removed_at = NULL, removed_by = NULL
     RETURNING id`,
  ).get(clipId, rangeId, keyword) as { id: number };
  return id;
}

/** Marks the keyword removed from these clips (their own) and ranges; returns the rows removed. */
export function removeKeywordFrom(db: CatalogDb, clipIds: readonly number[], rangeIds: readonly number[], keyword: string): number[] {
  const set = 'removed_at = added_at, removed_by = NULL, added_by = NULL';
  const removeClipKeyword = db.prepare(`UPDATE keywords SET ${set} WHERE clip_id = ? AND range_id IS NULL AND keyword = ? AND removed_at IS NULL RETURNING id`);
  const removeRangeKeyword = db.prepare(`UPDATE keywords SET ${set} WHERE range_id = ? AND keyword = ? AND removed_at IS NULL RETURNING id`);
  return [
    ...clipIds.flatMap((id) => removeClipKeyword.all(id, keyword) as { id: number }[]),
    ...rangeIds.flatMap((id) => removeRangeKeyword.all(id, keyword) as { id: number }[]),
  ].map((r) => r.id);
}

/** A deleted range's keywords go with it. */
export function dropRangeKeywords(db: CatalogDb, rangeId: number): void {
  statement(db, 'DELETE FROM keywords WHERE range_id = ?').run(rangeId);
}

export function keywordCounts(db: CatalogDb): { keyword: string; count: number }[] {
  return db
    .prepare('SELECT MIN(keyword) AS keyword, COUNT(*) AS count FROM keywords WHERE removed_at IS NULL GROUP BY keyword COLLATE NOCASE ORDER BY keyword COLLATE NOCASE')
    .all() as { keyword: string; count: number }[];
}

/** A relink's merge: the other clip's keywords move over (one this clip has already stays as it is). */
export function moveKeywords(db: CatalogDb, fromClipId: number, toClipId: number): void {
  db.prepare('UPDATE OR IGNORE keywords SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
}

/** A keyword row with its base and seat (NULL: a local edit waiting to be sent), as team marks sync reads it. */
export interface LocalKeywordRow {
  id: number;
  clip_id: number;
  range_id: number | null;
  keyword: string;
  added_at: number;
  added_by: string | null;
  removed_at: number | null;
  removed_by: string | null;
}

export function keywordRow(db: CatalogDb, clipId: number, rangeId: number | null, keyword: string): LocalKeywordRow | undefined {
  return statement(
    db,
    'SELECT id, clip_id, range_id, keyword, added_at, added_by, removed_at, removed_by FROM keywords WHERE clip_id = ? AND IFNULL(range_id, 0) = ? AND keyword = ?',
  ).get(clipId, rangeId ?? 0, keyword) as LocalKeywordRow | undefined;
}

/** Writes a keyword as merged with the server's version. */
export function writeTeamKeyword(
  db: CatalogDb,
  k: { clipId: number; rangeId: number | null; keyword: string; addedAt: number; addedBy: string | null; removedAt: number | null; removedBy: string | null },
): void {
  statement(
    db,
    `INSERT INTO keywords (clip_id, range_id, keyword, added_at, added_by, removed_at, removed_by) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(clip_id, IFNULL(range_id, 0), keyword) DO UPDATE SET keyword = excluded.keyword, added_at = excluded.added_at,
       added_by = excluded.added_by, removed_at = excluded.removed_at, removed_by = excluded.removed_by`,
  ).run(k.clipId, k.rangeId, k.keyword, k.addedAt, k.addedBy, k.removedAt, k.removedBy);
}
