import { randomUUID } from 'node:crypto';
import { AppError } from '../../../src-shared/errors';
import type { ClipMarks, Range, Rating } from '../../../src-shared/contract/marks';
import type { FrameRate } from '../../../src-shared/timecode';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { keywordNorm, keywordPresent, mergeClipMark, mergeKeyword, mergeRange, type ClipMarkState, type KeywordState, type RangeState, type Stamp } from '../team/marks-merge';

/**
 * The owner of clip_marks, ranges and keywords: their one writer, and every read of them (the
 * Library's and search's mark filters and rating sort included, as SQL on clips `c`). Targets are
 * clip ids and range ids; unknown ids are skipped (a clip removed while the menu was open), counted
 * out of `updated`.
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

/** Live ranges (not deleted); callers add `AND ...`. */
const RANGE_SELECT = `SELECT r.id, r.clip_id, c.file_name AS clip_name, r.in_frame, r.out_frame, r.rate_num, r.rate_den,
  r.name, r.note, r.rating, r.created_at FROM ranges r JOIN clips c ON c.id = r.clip_id WHERE r.deleted_at IS NULL`;

/** A clip's own keywords (not its ranges'), case aside in alphabetical order. */
function clipKeywords(db: CatalogDb, clipId: number): string[] {
  return (statement(db, 'SELECT keyword FROM keywords WHERE clip_id = ? AND range_id IS NULL AND removed_at IS NULL ORDER BY keyword COLLATE NOCASE').all(clipId) as { keyword: string }[]).map(
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
  for (const r of statement(
    db,
    `SELECT range_id, keyword FROM keywords
     WHERE clip_id IN (SELECT value FROM json_each(?)) AND range_id IN (SELECT value FROM json_each(?)) AND removed_at IS NULL ORDER BY keyword COLLATE NOCASE`,
  ).all(clipIds, JSON.stringify(ranges.map((r) => r.id))) as { range_id: number; keyword: string }[]) {
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
  const row = statement(db, `${RANGE_SELECT} AND r.id = ?`).get(rangeId) as RangeRow | undefined;
  if (!row) throw new AppError('not_found', `range ${rangeId} is not in the catalog`);
  return toRanges(db, [row])[0]!;
}

export function rangesForClips(db: CatalogDb, clipIds: readonly number[]): Range[] {
  const rows = statement(db, `${RANGE_SELECT} AND r.clip_id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`).all(JSON.stringify(clipIds)) as RangeRow[];
  return toRanges(db, rows);
}

export function rangesById(db: CatalogDb, rangeIds: readonly number[]): Range[] {
  const rows = statement(db, `${RANGE_SELECT} AND r.id IN (SELECT value FROM json_each(?)) ORDER BY r.clip_id, r.in_frame, r.id`).all(JSON.stringify(rangeIds)) as RangeRow[];
  return toRanges(db, rows);
}

export function clipMarks(db: CatalogDb, clipId: number): ClipMarks {
  const clipRating = statement(db, 'SELECT rating FROM clip_marks WHERE clip_id = ?').get(clipId) as { rating: Rating } | undefined;
  return { clipId, rating: clipRating?.rating ?? null, keywords: clipKeywords(db, clipId), ranges: rangesForClips(db, [clipId]) };
}

/** Ranges saved in a catalog, deleted ones (tombstones) not counted: what a backup is said to hold. */
export function rangeCount(db: CatalogDb): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM ranges WHERE deleted_at IS NULL').get() as { n: number }).n;
}

/** Rating and keyword count per clip, for cards and list rows: read for every Library page, so its statements are compiled once per connection. */
export function markSummaries(db: CatalogDb, clipIds: readonly number[]): Map<number, { rating: Rating; keywords: string[]; rangeCount: number }> {
  const out = new Map<number, { rating: Rating; keywords: string[]; rangeCount: number }>();
  if (clipIds.length === 0) return out;
  const ids = JSON.stringify(clipIds);
  for (const id of clipIds) out.set(id, { rating: null, keywords: [], rangeCount: 0 });
  for (const r of statement(db, 'SELECT clip_id, rating FROM clip_marks WHERE clip_id IN (SELECT value FROM json_each(?))').all(ids) as { clip_id: number; rating: Rating }[]) {
    out.get(r.clip_id)!.rating = r.rating;
  }
  for (const r of statement(db, 'SELECT clip_id, keyword FROM keywords WHERE range_id IS NULL AND removed_at IS NULL AND clip_id IN (SELECT value FROM json_each(?)) ORDER BY keyword COLLATE NOCASE').all(ids) as { clip_id: number; keyword: string }[]) {
    out.get(r.clip_id)!.keywords.push(r.keyword);
  }
  for (const r of statement(db, 'SELECT clip_id, COUNT(*) AS n FROM ranges WHERE deleted_at IS NULL AND clip_id IN (SELECT value FROM json_each(?)) GROUP BY clip_id').all(ids) as { clip_id: number; n: number }[]) {
    out.get(r.clip_id)!.rangeCount = r.n;
  }
  return out;
}

function knownClips(db: CatalogDb, ids: readonly number[]): number[] {
  return (db.prepare('SELECT id FROM clips WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number }[]).map((r) => r.id);
}

/** The live ranges among these ids (a deleted range is a tombstone: not a target any more). */
function knownRanges(db: CatalogDb, ids: readonly number[]): { id: number; clip_id: number }[] {
  return db.prepare('SELECT id, clip_id FROM ranges WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; clip_id: number }[];
}

/** The clips these ranges are marked on (a change to a range changes its clip's card); unknown ids are skipped. */
export function clipsOfRanges(db: CatalogDb, rangeIds: readonly number[]): number[] {
  return knownRanges(db, rangeIds).map((r) => r.clip_id);
}

/*
 * Every edit is offline first: in the same transaction it stamps the fields it changed with a time
 * from the catalog's marks clock (later than any edit this catalog made or saw, so two edits in one
 * millisecond keep their order) and `*_by` NULL (this catalog's own), and lists its row in
 * marks_outbox, joined to a team or not; team marks sync sends the outbox when a team server is
 * reachable (docs/notes-team-library.md section 5).
 */
type OutboxKind = 'range' | 'keyword' | 'clip';

function tick(db: CatalogDb): number {
  const { last_at } = statement(db, 'SELECT last_at FROM marks_clock WHERE id = 1').get() as { last_at: number };
  const at = Math.max(Date.now(), last_at + 1);
  statement(db, 'UPDATE marks_clock SET last_at = ? WHERE id = 1').run(at);
  return at;
}

function unsent(db: CatalogDb, kind: OutboxKind, rowId: number, at: number): void {
  statement(db, 'INSERT INTO marks_outbox (kind, row_id, at) VALUES (?, ?, ?) ON CONFLICT(kind, row_id) DO UPDATE SET at = excluded.at').run(kind, rowId, at);
}

export function rate(db: CatalogDb, targets: MarkTargets, rating: Rating): number {
  return db.transaction(() => {
    const at = tick(db);
    const clips = knownClips(db, targets.clipIds);
    const rateClip = db.prepare(
      `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) VALUES (?, ?, ?, NULL)
       ON CONFLICT(clip_id) DO UPDATE SET rating = excluded.rating, rating_at = excluded.rating_at, rating_by = NULL`,
    );
    for (const id of clips) {
      rateClip.run(id, rating, at);
      unsent(db, 'clip', id, at);
    }
    const ranges = knownRanges(db, targets.rangeIds);
    const rateRange = db.prepare('UPDATE ranges SET rating = ?, rating_at = ?, rating_by = NULL WHERE id = ?');
    for (const r of ranges) {
      rateRange.run(rating, at, r.id);
      unsent(db, 'range', r.id, at);
    }
    return clips.length + ranges.length;
  })();
}

/**
 * Adds a keyword to a clip or a range: one present, it stays spelt as it was (and its add is newer);
 * one removed earlier comes back spelt as now.
 */
function addKeyword(db: CatalogDb, clipId: number, rangeId: number | null, keyword: string, at: number): void {
  const { id } = statement(
    db,
    `INSERT INTO keywords (clip_id, range_id, keyword, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(clip_id, IFNULL(range_id, 0), keyword) DO UPDATE SET
       keyword = CASE WHEN keywords.removed_at IS NULL THEN keywords.keyword ELSE excluded.keyword END,
       added_at = excluded.added_at, added_by = NULL, removed_at = NULL, removed_by = NULL
     RETURNING id`,
  ).get(clipId, rangeId, keyword, at) as { id: number };
  unsent(db, 'keyword', id, at);
}

export function addKeywords(db: CatalogDb, targets: MarkTargets, keywords: readonly string[]): number {
  return db.transaction(() => {
    const at = tick(db);
    const clips = knownClips(db, targets.clipIds);
    const ranges = knownRanges(db, targets.rangeIds);
    for (const k of keywords) {
      for (const id of clips) addKeyword(db, id, null, k, at);
      for (const r of ranges) addKeyword(db, r.clip_id, r.id, k, at);
    }
    return clips.length + ranges.length;
  })();
}

/** A removed keyword keeps its row as a removal (removed_at), so an older add made elsewhere cannot bring it back. */
export function removeKeyword(db: CatalogDb, targets: MarkTargets, keyword: string): number {
  return db.transaction(() => {
    const at = tick(db);
    const removeClipKeyword = db.prepare('UPDATE keywords SET removed_at = ?, removed_by = NULL WHERE clip_id = ? AND range_id IS NULL AND keyword = ? AND removed_at IS NULL RETURNING id');
    const removeRangeKeyword = db.prepare('UPDATE keywords SET removed_at = ?, removed_by = NULL WHERE range_id = ? AND keyword = ? AND removed_at IS NULL RETURNING id');
    const removed = [
      ...targets.clipIds.flatMap((id) => removeClipKeyword.all(at, id, keyword) as { id: number }[]),
      ...targets.rangeIds.flatMap((id) => removeRangeKeyword.all(at, id, keyword) as { id: number }[]),
    ];
    for (const r of removed) unsent(db, 'keyword', r.id, at);
    return removed.length;
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
    const at = tick(db);
    const insertRange = db
      .prepare(
        `INSERT INTO ranges (uuid, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, name, name_at, note, note_at, rating, rating_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(randomUUID(), r.clipId, r.inFrame, r.outFrame, r.rate.num, r.rate.den, at, r.name, at, r.note, at, r.rating, at, at);
    const rangeId = Number(insertRange.lastInsertRowid);
    unsent(db, 'range', rangeId, at);
    for (const k of r.keywords) addKeyword(db, r.clipId, rangeId, k, at);
    return rangeId;
  })();
  return getRange(db, id);
}

export function updateRange(db: CatalogDb, rangeId: number, patch: { name?: string; note?: string }): Range {
  getRange(db, rangeId);
  db.transaction(() => {
    const at = tick(db);
    if (patch.name !== undefined) db.prepare('UPDATE ranges SET name = ?, name_at = ?, name_by = NULL WHERE id = ?').run(patch.name, at, rangeId);
    if (patch.note !== undefined) db.prepare('UPDATE ranges SET note = ?, note_at = ?, note_by = NULL WHERE id = ?').run(patch.note, at, rangeId);
    unsent(db, 'range', rangeId, at);
  })();
  return getRange(db, rangeId);
}

/** A deleted range stays as a tombstone (to be sent, and so no edit made elsewhere brings it back); its keywords go. */
export function deleteRange(db: CatalogDb, rangeId: number): void {
  getRange(db, rangeId);
  db.transaction(() => {
    const at = tick(db);
    db.prepare('UPDATE ranges SET deleted_at = ?, deleted_by = NULL WHERE id = ?').run(at, rangeId);
    db.prepare('DELETE FROM keywords WHERE range_id = ?').run(rangeId);
    unsent(db, 'range', rangeId, at);
  })();
}

export function keywordCounts(db: CatalogDb): { keyword: string; count: number }[] {
  return db
    .prepare('SELECT MIN(keyword) AS keyword, COUNT(*) AS count FROM keywords WHERE removed_at IS NULL GROUP BY keyword COLLATE NOCASE ORDER BY keyword COLLATE NOCASE')
    .all() as { keyword: string; count: number }[];
}

/**
 * A relink that lands on a file already catalogued as another clip keeps one row: the other's
 * marks move over first (its rating only where this clip has none), so nothing marked is lost.
 */
export function mergeMarks(db: CatalogDb, fromClipId: number, toClipId: number): void {
  db.prepare(
    `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) SELECT ?, rating, rating_at, rating_by FROM clip_marks WHERE clip_id = ?
     ON CONFLICT(clip_id) DO UPDATE SET rating = COALESCE(clip_marks.rating, excluded.rating)`,
  ).run(toClipId, fromClipId);
  db.prepare('UPDATE ranges SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
  db.prepare('UPDATE OR IGNORE keywords SET clip_id = ? WHERE clip_id = ?').run(toClipId, fromClipId);
}

/** A clip's own rating, as SQL on clips aliased `c` (NULL: unrated). */
const CLIP_RATING_SQL = '(SELECT rating FROM clip_marks m WHERE m.clip_id = c.id)';

/** The Library's sort by rating, on clips aliased `c`: favourites, then unrated, then rejects. */
export const RATING_ORDER_SQL = `CASE ${CLIP_RATING_SQL} WHEN 'favorite' THEN 0 WHEN 'reject' THEN 2 ELSE 1 END`;

/**
 * SQL conditions (on clips aliased `c`) for the Library's and search's mark filters: a clip
 * matches when it, or one of its ranges, carries the rating or keyword.
 */
export function markFilterSql(filter: { rating?: string; keyword?: string }): { sql: string[]; params: unknown[] } {
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
  return { sql, params };
}

/*
 * The team library's side of marks (team marks sync, docs/notes-team-library.md section 5). Rows go
 * out and come in as whole versions with a time and a seat per field (marks-merge.ts); here a local
 * `*_by` NULL is this catalog's own edit, named `seatId` outside. Clips are the team's ids outside,
 * mapped through team_clips: a clip this seat does not have (yet) is not written, and its team id is
 * kept in marks_waiting until it is linked.
 */

interface LocalRangeRow {
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

interface LocalKeywordRow {
  id: number;
  clip_id: number;
  range_id: number | null;
  keyword: string;
  added_at: number;
  added_by: string | null;
  removed_at: number | null;
  removed_by: string | null;
}

interface LocalClipMarkRow {
  clip_id: number;
  rating: Rating;
  rating_at: number;
  rating_by: string | null;
}

function rangeState(r: LocalRangeRow, seatId: string, clipId: number): RangeState {
  const s = (at: number, by: string | null): Stamp => ({ at, by: by ?? seatId });
  return {
    id: r.uuid,
    clipId,
    span: { value: { inFrame: r.in_frame, outFrame: r.out_frame, rateNum: r.rate_num, rateDen: r.rate_den }, stamp: s(r.span_at, r.span_by) },
    name: { value: r.name, stamp: s(r.name_at, r.name_by) },
    note: { value: r.note, stamp: s(r.note_at, r.note_by) },
    rating: { value: r.rating, stamp: s(r.rating_at, r.rating_by) },
    created: s(r.created_at, r.created_by),
    deleted: r.deleted_at === null ? null : s(r.deleted_at, r.deleted_by),
  };
}

function keywordState(k: LocalKeywordRow, seatId: string, clipId: number, rangeUuid: string | null): KeywordState {
  return {
    clipId,
    rangeId: rangeUuid,
    norm: keywordNorm(k.keyword),
    display: k.keyword,
    added: { at: k.added_at, by: k.added_by ?? seatId },
    removed: k.removed_at === null ? null : { at: k.removed_at, by: k.removed_by ?? seatId },
  };
}

function clipMarkState(m: LocalClipMarkRow, seatId: string, clipId: number): ClipMarkState {
  return { clipId, rating: { value: m.rating, stamp: { at: m.rating_at, by: m.rating_by ?? seatId } } };
}

export interface OutboxReceipt {
  kind: OutboxKind;
  rowId: number;
  at: number;
}

/** The marks to send, on the team's clip ids, and the outbox entries they clear once the server has them. */
export interface UnsentMarks {
  ranges: RangeState[];
  keywords: KeywordState[];
  clipMarks: ClipMarkState[];
  receipts: OutboxReceipt[];
}

/**
 * Everything edited here that the team server may not have yet, on linked clips only (the rest stays
 * listed until its clip is linked). Entries whose row is gone (its clip was removed from the catalog,
 * a deleted range's keywords) come back as receipts with nothing to send.
 */
export function unsentMarks(db: CatalogDb, seatId: string): UnsentMarks {
  const out: UnsentMarks = { ranges: [], keywords: [], clipMarks: [], receipts: [] };
  for (const r of statement(
    db,
    `SELECT r.id, r.uuid, r.clip_id, r.in_frame, r.out_frame, r.rate_num, r.rate_den, r.span_at, r.span_by, r.name, r.name_at, r.name_by,
  r.note, r.note_at, r.note_by, r.rating, r.rating_at, r.rating_by, r.created_at, r.created_by, r.deleted_at, r.deleted_by, o.at AS o_at, t.team_clip_id FROM marks_outbox o
       JOIN ranges r ON r.id = o.row_id JOIN team_clips t ON t.clip_id = r.clip_id WHERE o.kind = 'range'`,
  ).all() as (LocalRangeRow & { o_at: number; team_clip_id: number })[]) {
    out.ranges.push(rangeState(r, seatId, r.team_clip_id));
    out.receipts.push({ kind: 'range', rowId: r.id, at: r.o_at });
  }
  for (const k of statement(
    db,
    `SELECT k.id, k.clip_id, k.range_id, k.keyword, k.added_at, k.added_by, k.removed_at, k.removed_by, o.at AS o_at, t.team_clip_id, r.uuid AS range_uuid
       FROM marks_outbox o JOIN keywords k ON k.id = o.row_id JOIN team_clips t ON t.clip_id = k.clip_id LEFT JOIN ranges r ON r.id = k.range_id
      WHERE o.kind = 'keyword'`,
  ).all() as (LocalKeywordRow & { o_at: number; team_clip_id: number; range_uuid: string | null })[]) {
    out.keywords.push(keywordState(k, seatId, k.team_clip_id, k.range_uuid));
    out.receipts.push({ kind: 'keyword', rowId: k.id, at: k.o_at });
  }
  for (const m of statement(
    db,
    `SELECT m.clip_id, m.rating, m.rating_at, m.rating_by, o.at AS o_at, t.team_clip_id FROM marks_outbox o
       JOIN clip_marks m ON m.clip_id = o.row_id JOIN team_clips t ON t.clip_id = m.clip_id WHERE o.kind = 'clip'`,
  ).all() as (LocalClipMarkRow & { o_at: number; team_clip_id: number })[]) {
    out.clipMarks.push(clipMarkState(m, seatId, m.team_clip_id));
    out.receipts.push({ kind: 'clip', rowId: m.clip_id, at: m.o_at });
  }
  for (const o of statement(
    db,
    `SELECT kind, row_id, at FROM marks_outbox o
      WHERE (kind = 'range' AND NOT EXISTS (SELECT 1 FROM ranges WHERE id = o.row_id))
         OR (kind = 'keyword' AND NOT EXISTS (SELECT 1 FROM keywords WHERE id = o.row_id))
         OR (kind = 'clip' AND NOT EXISTS (SELECT 1 FROM clip_marks WHERE clip_id = o.row_id))`,
  ).all() as { kind: OutboxKind; row_id: number; at: number }[]) {
    out.receipts.push({ kind: o.kind, rowId: o.row_id, at: o.at });
  }
  return out;
}

/** The server has these: each entry is cleared unless an edit listed its row again since it was read. */
export function marksSent(db: CatalogDb, receipts: readonly OutboxReceipt[]): void {
  db.transaction(() => {
    const clear = statement(db, 'DELETE FROM marks_outbox WHERE kind = ? AND row_id = ? AND at = ?');
    for (const r of receipts) clear.run(r.kind, r.rowId, r.at);
  })();
}

/** How many edits wait to be sent (linked clips or not). */
export function unsentCount(db: CatalogDb): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM marks_outbox').get() as { n: number }).n;
}

/** Which of these range uuids this catalog holds (live or deleted). */
export function knownRangeUuids(db: CatalogDb, uuids: readonly string[]): Set<string> {
  return new Set(
    (statement(db, 'SELECT uuid FROM ranges WHERE uuid IN (SELECT value FROM json_each(?))').all(JSON.stringify(uuids)) as { uuid: string }[]).map((r) => r.uuid),
  );
}

/** Team clips whose marks arrived before this seat had the clip, and that it has now. */
export function waitingClipsNowLinked(db: CatalogDb): number[] {
  return (statement(db, 'SELECT w.team_clip_id FROM marks_waiting w JOIN team_clips t ON t.team_clip_id = w.team_clip_id').all() as { team_clip_id: number }[]).map(
    (r) => r.team_clip_id,
  );
}

const mine = (by: string, seatId: string): string | null => (by === seatId ? null : by);

function writeRange(db: CatalogDb, localId: number | null, m: RangeState, seatId: string): void {
  const v = [
    m.span.value.inFrame,
    m.span.value.outFrame,
    m.span.value.rateNum,
    m.span.value.rateDen,
    m.span.stamp.at,
    mine(m.span.stamp.by, seatId),
    m.name.value,
    m.name.stamp.at,
    mine(m.name.stamp.by, seatId),
    m.note.value,
    m.note.stamp.at,
    mine(m.note.stamp.by, seatId),
    m.rating.value,
    m.rating.stamp.at,
    mine(m.rating.stamp.by, seatId),
    m.created.at,
    mine(m.created.by, seatId),
    m.deleted?.at ?? null,
    m.deleted ? mine(m.deleted.by, seatId) : null,
  ];
  if (localId === null) {
    statement(
      db,
      `INSERT INTO ranges (uuid, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by,
         rating, rating_at, rating_by, created_at, created_by, deleted_at, deleted_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(m.id, m.clipId, ...v);
  } else {
    statement(
      db,
      `UPDATE ranges SET in_frame = ?, out_frame = ?, rate_num = ?, rate_den = ?, span_at = ?, span_by = ?, name = ?, name_at = ?, name_by = ?,
         note = ?, note_at = ?, note_by = ?, rating = ?, rating_at = ?, rating_by = ?, created_at = ?, created_by = ?, deleted_at = ?, deleted_by = ? WHERE id = ?`,
    ).run(...v, localId);
  }
}

/**
 * Merges versions from the team server into this catalog by the shared rule (marks-merge.ts), in one
 * transaction: rows of clips not linked here are skipped and their team clip kept in marks_waiting;
 * keywords of a range this catalog has not got (or has deleted) are skipped. A version equal to what
 * is held (this seat's own, echoed back) writes nothing. `caughtUp`: waiting team clips these versions
 * are all the marks of (they wait no more). Returns the local clips whose marks changed.
 */
export function applyTeamMarks(db: CatalogDb, seatId: string, marks: { ranges: readonly RangeState[]; keywords: readonly KeywordState[]; clipMarks: readonly ClipMarkState[] }, caughtUp: readonly number[] = []): number[] {
  return db.transaction(() => {
    const changed = new Set<number>();
    const localClip = (teamClipId: number): number | null => {
      const row = statement(db, 'SELECT clip_id FROM team_clips WHERE team_clip_id = ?').get(teamClipId) as { clip_id: number } | undefined;
      if (!row) statement(db, 'INSERT OR IGNORE INTO marks_waiting (team_clip_id) VALUES (?)').run(teamClipId);
      return row?.clip_id ?? null;
    };
    let latestAt = 0;
    const seen = (...stamps: (Stamp | null)[]) => {
      for (const s of stamps) if (s && s.at > latestAt) latestAt = s.at;
    };

    for (const incoming of marks.ranges) {
      const clipId = localClip(incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.span.stamp, incoming.name.stamp, incoming.note.stamp, incoming.rating.stamp, incoming.created, incoming.deleted);
      const row = statement(db, `SELECT r.id, r.uuid, r.clip_id, r.in_frame, r.out_frame, r.rate_num, r.rate_den, r.span_at, r.span_by, r.name, r.name_at, r.name_by,
  r.note, r.note_at, r.note_by, r.rating, r.rating_at, r.rating_by, r.created_at, r.created_by, r.deleted_at, r.deleted_by FROM ranges r WHERE r.uuid = ?`).get(incoming.id) as LocalRangeRow | undefined;
      const held = row ? rangeState(row, seatId, row.clip_id) : null;
      const merged = mergeRange(held, { ...incoming, clipId });
      if (held && JSON.stringify(merged) === JSON.stringify(held)) continue;
      writeRange(db, row?.id ?? null, merged, seatId);
      if (merged.deleted && row) statement(db, 'DELETE FROM keywords WHERE range_id = ?').run(row.id);
      changed.add(merged.clipId);
    }

    for (const incoming of marks.keywords) {
      const clipId = localClip(incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.added, incoming.removed);
      let rangeId: number | null = null;
      if (incoming.rangeId !== null) {
        const range = statement(db, 'SELECT id, deleted_at FROM ranges WHERE uuid = ?').get(incoming.rangeId) as { id: number; deleted_at: number | null } | undefined;
        if (!range || range.deleted_at !== null) continue;
        rangeId = range.id;
      }
      const row = statement(
        db,
        'SELECT id, clip_id, range_id, keyword, added_at, added_by, removed_at, removed_by FROM keywords WHERE clip_id = ? AND IFNULL(range_id, 0) = ? AND keyword = ?',
      ).get(clipId, rangeId ?? 0, incoming.norm) as LocalKeywordRow | undefined;
      const held = row ? keywordState(row, seatId, clipId, incoming.rangeId) : null;
      const merged = mergeKeyword(held, { ...incoming, clipId });
      // A present keyword forgets its last removal: the add is later, and only a later removal can matter.
      const removed = keywordPresent(merged) ? null : merged.removed;
      if (held && held.display === merged.display && JSON.stringify([held.added, held.removed]) === JSON.stringify([merged.added, removed])) continue;
      statement(
        db,
        `INSERT INTO keywords (clip_id, range_id, keyword, added_at, added_by, removed_at, removed_by) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(clip_id, IFNULL(range_id, 0), keyword) DO UPDATE SET keyword = excluded.keyword, added_at = excluded.added_at,
           added_by = excluded.added_by, removed_at = excluded.removed_at, removed_by = excluded.removed_by`,
      ).run(clipId, rangeId, merged.display, merged.added.at, mine(merged.added.by, seatId), removed?.at ?? null, removed ? mine(removed.by, seatId) : null);
      changed.add(clipId);
    }

    for (const incoming of marks.clipMarks) {
      const clipId = localClip(incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.rating.stamp);
      const row = statement(db, 'SELECT clip_id, rating, rating_at, rating_by FROM clip_marks WHERE clip_id = ?').get(clipId) as LocalClipMarkRow | undefined;
      const held = row ? clipMarkState(row, seatId, clipId) : null;
      const merged = mergeClipMark(held, { ...incoming, clipId });
      if (held && JSON.stringify(merged) === JSON.stringify(held)) continue;
      statement(
        db,
        `INSERT INTO clip_marks (clip_id, rating, rating_at, rating_by) VALUES (?, ?, ?, ?)
         ON CONFLICT(clip_id) DO UPDATE SET rating = excluded.rating, rating_at = excluded.rating_at, rating_by = excluded.rating_by`,
      ).run(clipId, merged.rating.value, merged.rating.stamp.at, mine(merged.rating.stamp.by, seatId));
      changed.add(clipId);
    }

    // This catalog's next edit is later than every change it has seen, whatever its own clock says.
    statement(db, 'UPDATE marks_clock SET last_at = MAX(last_at, ?) WHERE id = 1').run(latestAt);
    const unwait = statement(db, 'DELETE FROM marks_waiting WHERE team_clip_id = ?');
    for (const id of caughtUp) unwait.run(id);
    return [...changed];
  })();
}
