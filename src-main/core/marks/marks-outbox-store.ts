import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import type { ClipMarkState, KeywordState, RangeState } from './marks-merge';
import type { LocalClipMarkRow } from './clip-mark-store';
import type { LocalKeywordRow } from './keyword-store';
import type { LocalRangeRow } from './range-store';
import { clipMarkToSend, heldClipMark, heldKeyword, heldRange, keywordToSend, rangeToSend } from './mark-versions';

/*
 * The owner of `marks_clock`, `marks_outbox` and `marks_waiting`. Every edit is offline first: in
 * the same transaction it marks the fields it changed pending (`*_by` NULL, their stamp kept as the
 * base the server checks, mark-versions.ts) and lists its row in marks_outbox under a tick of the
 * catalog's marks clock (so a row edited again while it was being sent stays listed), joined to a team or not;
 * team marks sync sends the outbox when a team server is reachable (docs/notes-team-library.md
 * section 5). Clips are the team's ids outside, mapped through team_clips: a clip this seat does
 * not have (yet) is not written, and its team id is kept in marks_waiting until it is linked.
 */
export type OutboxKind = 'range' | 'keyword' | 'clip';

/** The outbox's version of an edit now: later than every one this catalog made. */
export function tick(db: CatalogDb): number {
  const { last_at } = statement(db, 'SELECT last_at FROM marks_clock WHERE id = 1').get() as { last_at: number };
  const at = Math.max(Date.now(), last_at + 1);
  statement(db, 'UPDATE marks_clock SET last_at = ? WHERE id = 1').run(at);
  return at;
}

/** Lists a row edited at `at` for the team. */
export function unsent(db: CatalogDb, kind: OutboxKind, rowId: number, at: number): void {
  statement(db, 'INSERT INTO marks_outbox (kind, row_id, at) VALUES (?, ?, ?) ON CONFLICT(kind, row_id) DO UPDATE SET at = excluded.at').run(kind, rowId, at);
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
    out.ranges.push(rangeToSend(heldRange(r, seatId, r.team_clip_id)));
    out.receipts.push({ kind: 'range', rowId: r.id, at: r.o_at });
  }
  for (const k of statement(
    db,
    `SELECT k.id, k.clip_id, k.range_id, k.keyword, k.added_at, k.added_by, k.removed_at, k.removed_by, o.at AS o_at, t.team_clip_id, r.uuid AS range_uuid
       FROM marks_outbox o JOIN keywords k ON k.id = o.row_id JOIN team_clips t ON t.clip_id = k.clip_id LEFT JOIN ranges r ON r.id = k.range_id
      WHERE o.kind = 'keyword'`,
  ).all() as (LocalKeywordRow & { o_at: number; team_clip_id: number; range_uuid: string | null })[]) {
    out.keywords.push(keywordToSend(heldKeyword(k, seatId, k.team_clip_id, k.range_uuid)));
    out.receipts.push({ kind: 'keyword', rowId: k.id, at: k.o_at });
  }
  for (const m of statement(
    db,
    `SELECT m.clip_id, m.rating, m.rating_at, m.rating_by, o.at AS o_at, t.team_clip_id FROM marks_outbox o
       JOIN clip_marks m ON m.clip_id = o.row_id JOIN team_clips t ON t.clip_id = m.clip_id WHERE o.kind = 'clip'`,
  ).all() as (LocalClipMarkRow & { o_at: number; team_clip_id: number })[]) {
    out.clipMarks.push(clipMarkToSend(heldClipMark(m, seatId, m.team_clip_id)));
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

/** The local clip of a team clip; one this seat does not have (yet) is kept in marks_waiting and answers null. */
export function linkedClipOrWait(db: CatalogDb, teamClipId: number): number | null {
  const row = statement(db, 'SELECT clip_id FROM team_clips WHERE team_clip_id = ?').get(teamClipId) as { clip_id: number } | undefined;
  if (!row) statement(db, 'INSERT OR IGNORE INTO marks_waiting (team_clip_id) VALUES (?)').run(teamClipId);
  return row?.clip_id ?? null;
}

/** Team clips whose marks arrived before this seat had the clip, and that it has now. */
export function waitingClipsNowLinked(db: CatalogDb): number[] {
  return (statement(db, 'SELECT w.team_clip_id FROM marks_waiting w JOIN team_clips t ON t.team_clip_id = w.team_clip_id').all() as { team_clip_id: number }[]).map(
    (r) => r.team_clip_id,
  );
}

/** These team clips wait no more (all their marks are in). */
export function doneWaiting(db: CatalogDb, teamClipIds: readonly number[]): void {
  const unwait = statement(db, 'DELETE FROM marks_waiting WHERE team_clip_id = ?');
  for (const id of teamClipIds) unwait.run(id);
}
