import type { CatalogDb } from '../../catalog/open-catalog';
import { mergeClipMark, mergeKeyword, mergeRange, type ClipMarkState, type KeywordState, type RangeState } from '../../marks/marks-merge';
import { clipMarkRow, writeTeamClipMark } from '../../marks/clip-mark-store';
import { dropRangeKeywords, keywordRow, writeTeamKeyword } from '../../marks/keyword-store';
import { clipMarkRowOf, heldClipMark, heldKeyword, heldRange, keywordRowOf, rangeFields } from '../../marks/mark-versions';
import { doneWaiting, linkedClipOrWait } from '../../marks/marks-outbox-store';
import { rangeOfUuid, rangeRowByUuid, writeTeamRange } from '../../marks/range-store';

/** The server's marks, as read from it (stamps are the server's). */
export interface ServerMarks {
  ranges: readonly RangeState[];
  keywords: readonly KeywordState[];
  clipMarks: readonly ClipMarkState[];
}

/** A local edit that gave way to a newer server version (the editor is told once, by the sync's log). */
export interface LostEdit {
  kind: 'range' | 'keyword' | 'clip';
  /** The range's uuid, the keyword, or the team clip id. */
  key: string;
  fields: string[];
}

/** What the views show of a held mark: its values, not the stamps or whether an edit is pending. */
const shown = (x: unknown): string =>
  JSON.stringify(x, (k, v: unknown) => (k === 'stamp' || k === 'pending' || k === 'created' ? undefined : k === 'deleted' ? v !== null : v));

const keywordKey = (k: { clipId: number; rangeId: string | null; norm: string }) => `${k.clipId}/${k.rangeId ?? ''}/${k.norm}`;

/**
 * Merges the server's versions into this catalog by the seat's rule (marks-merge.ts), in one
 * transaction: rows of clips not linked here are skipped and their team clip kept in marks_waiting;
 * keywords of a range this catalog has not got (or has deleted) are skipped. A version that leaves
 * what is held as it is writes nothing. `sent`: what this seat's push sent, when these versions are
 * its answer. `caughtUp`: waiting team clips these versions are all the marks of (they wait no more).
 * Returns the local clips whose marks the views show differently now, and the local edits that lost.
 */
export function applyTeamMarks(db: CatalogDb, seatId: string, marks: ServerMarks, caughtUp: readonly number[] = [], sent?: ServerMarks): { clipIds: number[]; lost: LostEdit[] } {
  const sentRanges = new Map(sent?.ranges.map((r) => [r.id, r]));
  const sentKeywords = new Map(sent?.keywords.map((k) => [keywordKey(k), k]));
  const sentClips = new Map(sent?.clipMarks.map((m) => [m.clipId, m]));
  return db.transaction(() => {
    const changed = new Set<number>();
    const lost: LostEdit[] = [];

    for (const incoming of marks.ranges) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      const row = rangeRowByUuid(db, incoming.id);
      const held = row ? heldRange(row, seatId, row.clip_id) : null;
      const merged = mergeRange(held, { ...incoming, clipId }, sentRanges.get(incoming.id));
      if (merged.lost.length > 0) lost.push({ kind: 'range', key: incoming.id, fields: merged.lost });
      if (held && JSON.stringify(merged.range) === JSON.stringify(held)) continue;
      writeTeamRange(db, row?.id ?? null, merged.range.id, merged.range.clipId, rangeFields(merged.range));
      if (merged.range.deleted && row) dropRangeKeywords(db, row.id);
      if (!held || shown(merged.range) !== shown(held)) changed.add(merged.range.clipId);
    }

    for (const incoming of marks.keywords) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      let rangeId: number | null = null;
      if (incoming.rangeId !== null) {
        const range = rangeOfUuid(db, incoming.rangeId);
        if (!range || range.deleted_at !== null) continue;
        rangeId = range.id;
      }
      const row = keywordRow(db, clipId, rangeId, incoming.norm);
      const held = row ? heldKeyword(row, seatId, clipId, incoming.rangeId) : null;
      const merged = mergeKeyword(held, { ...incoming, clipId }, sentKeywords.get(keywordKey(incoming)));
      if (merged.lost) lost.push({ kind: 'keyword', key: incoming.display, fields: ['present'] });
      if (held && JSON.stringify(merged.keyword) === JSON.stringify(held)) continue;
      writeTeamKeyword(db, keywordRowOf(merged.keyword, clipId, rangeId));
      if (!held || shown(merged.keyword) !== shown(held)) changed.add(clipId);
    }

    for (const incoming of marks.clipMarks) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      const row = clipMarkRow(db, clipId);
      const held = row ? heldClipMark(row, seatId, clipId) : null;
      const merged = mergeClipMark(held, { ...incoming, clipId }, sentClips.get(incoming.clipId));
      if (merged.lost) lost.push({ kind: 'clip', key: String(incoming.clipId), fields: ['rating'] });
      if (held && JSON.stringify(merged.mark) === JSON.stringify(held)) continue;
      writeTeamClipMark(db, clipMarkRowOf(merged.mark, clipId));
      if (!held || shown(merged.mark) !== shown(held)) changed.add(clipId);
    }

    doneWaiting(db, caughtUp);
    return { clipIds: [...changed], lost };
  })();
}
