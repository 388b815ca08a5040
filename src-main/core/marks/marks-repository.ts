import { AppError } from '../../../src-shared/errors';
import type { ClipMarks, Range, Rating } from '../../../src-shared/contract/marks';
import type { FrameRate } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';

/**
 * The one writer of clip_marks, ranges and keywords. Targets are clip ids and range ids; unknown
 * ids are skipped (a clip removed while the menu was open), counted out of `updated`.
 */
export interface MarkTargets {
  clipIds: readonly number[];
  rangeIds: readonly number[];
}

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

const RANGE_SELECT = `SELECT r.id, r.clip_id, c.file_name AS clip_name, r.in_frame, r.out_frame, r.rate_num, r.rate_den,
  r.name, r.note, r.rating, r.created_at FROM ranges r JOIN clips c ON c.id = r.clip_id`;

/** A clip's own keywords (not its ranges'), case aside in alphabetical order. */
function clipKeywords(db: CatalogDb, clipId: number): string[] {
  return (db.prepare('SELECT keyword FROM keywords WHERE clip_id = ? AND range_id IS NULL ORDER BY keyword COLLATE NOCASE').all(clipId) as { keyword: string }[]).map(
    (r) => r.keyword,
  );
}

/**
 * The keywords of these ranges, each list in the order clipKeywords gives a clip's: one read for a
 * page of ranges, not one per range (found through their clips: keywords are indexed by clip).
 */
function keywordsOfRanges(db: CatalogDb, ranges: readonly Pick<RangeRow, 'id' | 'clip_id'>[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (ranges.length === 0) return out;
  const clipIds = JSON.stringify([...new Set(ranges.map((r) => r.clip_id))]);
  for (const r of db
    .prepare(
      `SELECT range_id, keyword FROM keywords
       WHERE clip_id IN (SELECT value FROM json_each(?)) AND range_id IN (SELECT value FROM json_each(?)) ORDER BY keyword COLLATE NOCASE`,
    )
    .all(clipIds, JSON.stringify(ranges.map((r) => r.id))) as { range_id: number; keyword: string }[]) {
    (out.get(r.range_id) ?? out.set(r.range_id, []).get(r.range_id)!).push(r.keyword);
  }
  return out;
}

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
  const row = db.prepare(`${RANGE_SELECT} WHERE r.id = ?`).get(rangeId) as RangeRow | undefined;
  if (!row) throw new AppError('not_found', `range ${rangeId} is not in the catalog`);
  return toRanges(db, [row])[0]!;
}

export function rangesForClips(db: CatalogDb, clipIds: readonly number[]): Range[] {
  const rows = db
    .prepare(`${RANGE_SELECT} WHERE r.clip_id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`)
    .all(JSON.stringify(clipIds)) as RangeRow[];
  return toRanges(db, rows);
}

export function rangesById(db: CatalogDb, rangeIds: readonly number[]): Range[] {
  const rows = db
    .prepare(`${RANGE_SELECT} WHERE r.id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`)
    .all(JSON.stringify(rangeIds)) as RangeRow[];
  return toRanges(db, rows);
}

export function clipMarks(db: CatalogDb, clipId: number): ClipMarks {
  const clipRating = db.prepare('SELECT rating FROM clip_marks WHERE clip_id = ?').get(clipId) as { rating: Rating } | undefined;
  return { clipId, rating: clipRating?.rating ?? null, keywords: clipKeywords(db, clipId), ranges: rangesForClips(db, [clipId]) };
}

/** Rating and keyword count per clip, for cards and list rows. */
export function markSummaries(db: CatalogDb, clipIds: readonly number[]): Map<number, { rating: Rating; keywords: string[]; rangeCount: number }> {
  const out = new Map<number, { rating: Rating; keywords: string[]; rangeCount: number }>();
  if (clipIds.length === 0) return out;
  const ids = JSON.stringify(clipIds);
  for (const id of clipIds) out.set(id, { rating: null, keywords: [], rangeCount: 0 });
  for (const r of db.prepare('SELECT clip_id, rating FROM clip_marks WHERE clip_id IN (SELECT value FROM json_each(?))').all(ids) as { clip_id: number; rating: Rating }[]) {
    out.get(r.clip_id)!.rating = r.rating;
  }
  for (const r of db
    .prepare('SELECT clip_id, keyword FROM keywords WHERE range_id IS NULL AND clip_id IN (SELECT value FROM json_each(?)) ORDER BY keyword COLLATE NOCASE')
    .all(ids) as { clip_id: number; keyword: string }[]) {
    out.get(r.clip_id)!.keywords.push(r.keyword);
  }
  for (const r of db.prepare('SELECT clip_id, COUNT(*) AS n FROM ranges WHERE clip_id IN (SELECT value FROM json_each(?)) GROUP BY clip_id').all(ids) as { clip_id: number; n: number }[]) {
    out.get(r.clip_id)!.rangeCount = r.n;
  }
  return out;
}

function knownClips(db: CatalogDb, ids: readonly number[]): number[] {
  return (db.prepare('SELECT id FROM clips WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number }[]).map((r) => r.id);
}

function knownRanges(db: CatalogDb, ids: readonly number[]): { id: number; clip_id: number }[] {
  return db.prepare('SELECT id, clip_id FROM ranges WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; clip_id: number }[];
}

/** The clips these ranges are marked on (a change to a range changes its clip's card); unknown ids are skipped. */
export function clipsOfRanges(db: CatalogDb, rangeIds: readonly number[]): number[] {
  return knownRanges(db, rangeIds).map((r) => r.clip_id);
}

export function rate(db: CatalogDb, targets: MarkTargets, rating: Rating): number {
  return db.transaction(() => {
    const now = Date.now();
    const clips = knownClips(db, targets.clipIds);
    const rateClip = db.prepare(
      'INSERT INTO clip_marks (clip_id, rating, updated_at) VALUES (?, ?, ?) ON CONFLICT(clip_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at',
    );
    for (const id of clips) rateClip.run(id, rating, now);
    const ranges = knownRanges(db, targets.rangeIds);
    const rateRange = db.prepare('UPDATE ranges SET rating = ?, updated_at = ? WHERE id = ?');
    for (const r of ranges) rateRange.run(rating, now, r.id);
    return clips.length + ranges.length;
  })();
}

export function addKeywords(db: CatalogDb, targets: MarkTargets, keywords: readonly string[]): number {
  return db.transaction(() => {
    const addKeyword = db.prepare('INSERT OR IGNORE INTO keywords (clip_id, range_id, keyword) VALUES (?, ?, ?)');
    const clips = knownClips(db, targets.clipIds);
    const ranges = knownRanges(db, targets.rangeIds);
    for (const k of keywords) {
      for (const id of clips) addKeyword.run(id, null, k);
      for (const r of ranges) addKeyword.run(r.clip_id, r.id, k);
    }
    return clips.length + ranges.length;
  })();
}

export function removeKeyword(db: CatalogDb, targets: MarkTargets, keyword: string): number {
  return db.transaction(() => {
    let n = 0;
    const removeClipKeyword = db.prepare('DELETE FROM keywords WHERE clip_id = ? AND range_id IS NULL AND keyword = ?');
    const removeRangeKeyword = db.prepare('DELETE FROM keywords WHERE range_id = ? AND keyword = ?');
    for (const id of targets.clipIds) n += removeClipKeyword.run(id, keyword).changes;
    for (const id of targets.rangeIds) n += removeRangeKeyword.run(id, keyword).changes;
    return n;
  })();
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

export function saveRange(db: CatalogDb, r: NewRange): Range {
  const id = db.transaction(() => {
    if (knownClips(db, [r.clipId]).length === 0) throw new AppError('not_found', `clip ${r.clipId} is not in the catalog`);
    const now = Date.now();
    const insertRange = db
      .prepare(
        'INSERT INTO ranges (clip_id, in_frame, out_frame, rate_num, rate_den, name, note, rating, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(r.clipId, r.inFrame, r.outFrame, r.rate.num, r.rate.den, r.name, r.note, r.rating, now, now);
    const rangeId = Number(insertRange.lastInsertRowid);
    const addKeyword = db.prepare('INSERT OR IGNORE INTO keywords (clip_id, range_id, keyword) VALUES (?, ?, ?)');
    for (const k of r.keywords) addKeyword.run(r.clipId, rangeId, k);
    return rangeId;
  })();
  return getRange(db, id);
}

export function updateRange(db: CatalogDb, rangeId: number, patch: { name?: string; note?: string }): Range {
  getRange(db, rangeId);
  db.prepare('UPDATE ranges SET name = COALESCE(?, name), note = COALESCE(?, note), updated_at = ? WHERE id = ?').run(
    patch.name ?? null,
    patch.note ?? null,
    Date.now(),
    rangeId,
  );
  return getRange(db, rangeId);
}

export function deleteRange(db: CatalogDb, rangeId: number): void {
  getRange(db, rangeId);
  db.prepare('DELETE FROM ranges WHERE id = ?').run(rangeId);
}

export function keywordCounts(db: CatalogDb): { keyword: string; count: number }[] {
  return db
    .prepare('SELECT MIN(keyword) AS keyword, COUNT(*) AS count FROM keywords GROUP BY keyword COLLATE NOCASE ORDER BY keyword COLLATE NOCASE')
    .all() as { keyword: string; count: number }[];
}

/**
 * A relink that lands on a file already catalogued as another clip keeps one row: the other's
 * marks move over first (its rating only where this clip has none), so nothing marked is lost.
 */
export function mergeMarks(db: CatalogDb, fromClipId: number, toClipId: number): void {
  db.prepare(
    `INSERT INTO clip_marks (clip_id, rating, updated_at) SELECT ?, rating, updated_at FROM clip_marks WHERE clip_id = ?
     ON CONFLICT(clip_id) DO UPDATE SET rating = COALESCE(clip_marks.rating, excluded.rating)`,
  ).run(toClipId, fromClipId);
  db.prepare('UPDATE ranges SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
  db.prepare('UPDATE OR IGNORE keywords SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
}

/**
 * SQL conditions (on clips aliased `c`) for the Library's and search's mark filters: a clip
 * matches when it, or one of its ranges, carries the rating or keyword.
 */
export function markFilterSql(filter: { rating?: string; keyword?: string }): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const clipRating = '(SELECT rating FROM clip_marks m WHERE m.clip_id = c.id)';
  switch (filter.rating) {
    case 'favorite':
    case 'reject':
      sql.push(`(${clipRating} = ? OR EXISTS (SELECT 1 FROM ranges r WHERE r.clip_id = c.id AND r.rating = ?))`);
      params.push(filter.rating, filter.rating);
      break;
    case 'unrated':
      sql.push(`(${clipRating} IS NULL AND NOT EXISTS (SELECT 1 FROM ranges r WHERE r.clip_id = c.id AND r.rating IS NOT NULL))`);
      break;
    case 'not_rejected':
      sql.push(`(${clipRating} IS NOT 'reject')`);
      break;
  }
  if (filter.keyword) {
    sql.push('EXISTS (SELECT 1 FROM keywords k WHERE k.clip_id = c.id AND k.keyword = ?)');
    params.push(filter.keyword);
  }
  return { sql, params };
}
