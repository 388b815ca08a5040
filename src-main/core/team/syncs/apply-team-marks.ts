import type { CatalogDb } from '../../catalog/open-catalog';
import { keywordPresent, mergeClipMark, mergeKeyword, mergeRange, type ClipMarkState, type KeywordState, type RangeState, type Stamp } from '../../marks/marks-merge';
import { clipMarkRow, writeTeamClipMark } from '../../marks/clip-mark-store';
import { dropRangeKeywords, keywordRow, writeTeamKeyword } from '../../marks/keyword-store';
import { clipMarkState, keywordState, mine, rangeFields, rangeState } from '../../marks/mark-versions';
import { doneWaiting, linkedClipOrWait, sawMarksUntil } from '../../marks/marks-outbox-store';
import { rangeOfUuid, rangeRowByUuid, writeTeamRange } from '../../marks/range-store';

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
    let latestAt = 0;
    const seen = (...stamps: (Stamp | null)[]) => {
      for (const s of stamps) if (s && s.at > latestAt) latestAt = s.at;
    };

    for (const incoming of marks.ranges) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.span.stamp, incoming.name.stamp, incoming.note.stamp, incoming.rating.stamp, incoming.created, incoming.deleted);
      const row = rangeRowByUuid(db, incoming.id);
      const held = row ? rangeState(row, seatId, row.clip_id) : null;
      const merged = mergeRange(held, { ...incoming, clipId });
      if (held && JSON.stringify(merged) === JSON.stringify(held)) continue;
      writeTeamRange(db, row?.id ?? null, merged.id, merged.clipId, rangeFields(merged, seatId));
      if (merged.deleted && row) dropRangeKeywords(db, row.id);
      changed.add(merged.clipId);
    }

    for (const incoming of marks.keywords) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.added, incoming.removed);
      let rangeId: number | null = null;
      if (incoming.rangeId !== null) {
        const range = rangeOfUuid(db, incoming.rangeId);
        if (!range || range.deleted_at !== null) continue;
        rangeId = range.id;
      }
      const row = keywordRow(db, clipId, rangeId, incoming.norm);
      const held = row ? keywordState(row, seatId, clipId, incoming.rangeId) : null;
      const merged = mergeKeyword(held, { ...incoming, clipId });
      // A present keyword forgets its last removal: the add is later, and only a later removal can matter.
      const removed = keywordPresent(merged) ? null : merged.removed;
      if (held && held.display === merged.display && JSON.stringify([held.added, held.removed]) === JSON.stringify([merged.added, removed])) continue;
      writeTeamKeyword(db, {
        clipId,
        rangeId,
        keyword: merged.display,
        addedAt: merged.added.at,
        addedBy: mine(merged.added.by, seatId),
        removedAt: removed?.at ?? null,
        removedBy: removed ? mine(removed.by, seatId) : null,
      });
      changed.add(clipId);
    }

    for (const incoming of marks.clipMarks) {
      const clipId = linkedClipOrWait(db, incoming.clipId);
      if (clipId === null) continue;
      seen(incoming.rating.stamp);
      const row = clipMarkRow(db, clipId);
      const held = row ? clipMarkState(row, seatId, clipId) : null;
      const merged = mergeClipMark(held, { ...incoming, clipId });
      if (held && JSON.stringify(merged) === JSON.stringify(held)) continue;
      writeTeamClipMark(db, { clip_id: clipId, rating: merged.rating.value, rating_at: merged.rating.stamp.at, rating_by: mine(merged.rating.stamp.by, seatId) });
      changed.add(clipId);
    }

    sawMarksUntil(db, latestAt);
    doneWaiting(db, caughtUp);
    return [...changed];
  })();
}
