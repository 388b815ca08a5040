import { AppError } from '../../../src-shared/errors';
import type { ClipMarks, Range, Rating } from '../../../src-shared/contract/marks';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipRating, moveClipMark, rateClips, ratingsOfClips } from './clip-mark-store';
import { addKeyword, clipKeywords, keywordsOfClips, moveKeywords, dropRangeKeywords, removeKeywordFrom } from './keyword-store';
import { tick, unsent } from './marks-outbox-store';
import { getRange, insertRange, knownRanges, moveRanges, patchRange, rangeCountsOfClips, rangesForClips, rateRanges, tombstoneRange, type NewRange } from './range-store';

/**
 * The editor's marks: each edit on clips and ranges in one transaction over the owners of its tables
 * (clip-mark-store.ts, range-store.ts, keyword-store.ts), its fields marked pending over the server's
 * version they were made on, and listed in the outbox (marks-outbox-store.ts); the reads that gather
 * a clip's marks; and the Library's and search's mark filters and rating sort, as SQL on clips `c`. Targets are clip ids and range ids;
 * unknown ids are skipped (a clip removed while the menu was open), counted out of `updated`.
 */
export interface MarkTargets {
  clipIds: readonly number[];
  rangeIds: readonly number[];
}

export function clipMarks(db: CatalogDb, clipId: number): ClipMarks {
  return { clipId, rating: clipRating(db, clipId), keywords: clipKeywords(db, clipId), ranges: rangesForClips(db, [clipId]) };
}

/** Rating and keyword count per clip, for cards and list rows: read for every Library page, so its statements are compiled once per connection. */
export function markSummaries(db: CatalogDb, clipIds: readonly number[]): Map<number, { rating: Rating; keywords: string[]; rangeCount: number }> {
  const out = new Map<number, { rating: Rating; keywords: string[]; rangeCount: number }>();
  if (clipIds.length === 0) return out;
  for (const id of clipIds) out.set(id, { rating: null, keywords: [], rangeCount: 0 });
  for (const r of ratingsOfClips(db, clipIds)) out.get(r.clip_id)!.rating = r.rating;
  for (const r of keywordsOfClips(db, clipIds)) out.get(r.clip_id)!.keywords.push(r.keyword);
  for (const r of rangeCountsOfClips(db, clipIds)) out.get(r.clip_id)!.rangeCount = r.n;
  return out;
}

function knownClips(db: CatalogDb, ids: readonly number[]): number[] {
  return (db.prepare('SELECT id FROM clips WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number }[]).map((r) => r.id);
}

export function rate(db: CatalogDb, targets: MarkTargets, rating: Rating): number {
  return db.transaction(() => {
    const at = tick(db);
    const clips = knownClips(db, targets.clipIds);
    rateClips(db, clips, rating);
    for (const id of clips) unsent(db, 'clip', id, at);
    const ranges = knownRanges(db, targets.rangeIds);
    rateRanges(db, ranges.map((r) => r.id), rating);
    for (const r of ranges) unsent(db, 'range', r.id, at);
    return clips.length + ranges.length;
  })();
}

export function addKeywords(db: CatalogDb, targets: MarkTargets, keywords: readonly string[]): number {
  return db.transaction(() => {
    const at = tick(db);
    const clips = knownClips(db, targets.clipIds);
    const ranges = knownRanges(db, targets.rangeIds);
    for (const k of keywords) {
      for (const id of clips) unsent(db, 'keyword', addKeyword(db, id, null, k), at);
      for (const r of ranges) unsent(db, 'keyword', addKeyword(db, r.clip_id, r.id, k), at);
    }
    return clips.length + ranges.length;
  })();
}

/** A removed keyword keeps its row as a removal (removed_at), so an older add made elsewhere cannot bring it back. */
export function removeKeyword(db: CatalogDb, targets: MarkTargets, keyword: string): number {
  return db.transaction(() => {
    const at = tick(db);
    const removed = removeKeywordFrom(db, targets.clipIds, targets.rangeIds, keyword);
    for (const id of removed) unsent(db, 'keyword', id, at);
    return removed.length;
  })();
}

export function saveRange(db: CatalogDb, r: NewRange): Range {
  const id = db.transaction(() => {
    if (knownClips(db, [r.clipId]).length === 0) throw new AppError('not_found', `clip ${r.clipId} is not in the catalog`);
    const at = tick(db);
    const rangeId = insertRange(db, r, at);
    unsent(db, 'range', rangeId, at);
    for (const k of r.keywords) unsent(db, 'keyword', addKeyword(db, r.clipId, rangeId, k), at);
    return rangeId;
  })();
  return getRange(db, id);
}

export function updateRange(db: CatalogDb, rangeId: number, patch: { name?: string; note?: string }): Range {
  getRange(db, rangeId);
  db.transaction(() => {
    const at = tick(db);
    patchRange(db, rangeId, patch);
    unsent(db, 'range', rangeId, at);
  })();
  return getRange(db, rangeId);
}

/** A deleted range stays as a tombstone (to be sent, and so no edit made elsewhere brings it back); its keywords go. */
export function deleteRange(db: CatalogDb, rangeId: number): void {
  getRange(db, rangeId);
  db.transaction(() => {
    const at = tick(db);
    tombstoneRange(db, rangeId, at);
    dropRangeKeywords(db, rangeId);
    unsent(db, 'range', rangeId, at);
  })();
}

/**
 * A relink that lands on a file already catalogued as another clip keeps one row: the other's
 * marks move over first (its rating only where this clip has none), so nothing marked is lost.
 */
export function mergeMarks(db: CatalogDb, fromClipId: number, toClipId: number): void {
  moveClipMark(db, fromClipId, toClipId);
  moveRanges(db, fromClipId, toClipId);
  moveKeywords(db, fromClipId, toClipId);
}

/** A clip's own rating, as SQL on clips aliased `c` (NULL: unrated). */
const CLIP_RATING_SQL = '(SELECT rating FROM clip_marks m WHERE m.clip_id = c.id)';

/** The Library's sort by rating, on clips aliased `c`: favourites, then unrated, then rejects. */
export const RATING_ORDER_SQL = `CASE ${CLIP_RATING_SQL} WHEN 'favorite' THEN 0 WHEN 'reject' THEN 2 ELSE 1 END`;

/**
 * SQL conditions (on clips aliased `c`) for the Library's and search's mark filters: a clip
 * matches when it, or one of its ranges, carries the rating or keyword; `hasRanges`: it has a
 * saved range.
 */
export function markFilterSql(filter: { rating?: string; keyword?: string; hasRanges?: boolean }): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  switch (filter.rating) {
    case 'favorite':
    case 'reject':
      sql.push(`(${CLIP_RATING_SQL} = ? OR EXISTS (SELECT 1 FROM ranges r WHERE r.clip_id = c.id AND r.deleted_at IS NULL AND r.rating = ?))`);
      params.push(filter.rating, filter.rating);
      break;
    case 'unrated':
      sql.push(`(${CLIP_RATING_SQL} IS NULL AND NOT EXISTS (SELECT 1 FROM ranges r WHERE r.clip_id = c.id AND r.deleted_at IS NULL AND r.rating IS NOT NULL))`);
      break;
    case 'not_rejected':
      sql.push(`(${CLIP_RATING_SQL} IS NOT 'reject')`);
      break;
  }
  if (filter.keyword) {
    sql.push('EXISTS (SELECT 1 FROM keywords k WHERE k.clip_id = c.id AND k.keyword = ? AND k.removed_at IS NULL)');
    params.push(filter.keyword);
  }
  if (filter.hasRanges) sql.push('EXISTS (SELECT 1 FROM ranges r WHERE r.clip_id = c.id AND r.deleted_at IS NULL)');
  return { sql, params };
}
