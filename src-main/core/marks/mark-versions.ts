import { keywordNorm, type ClipMarkState, type KeywordState, type RangeState, type Stamp } from './marks-merge';
import type { LocalClipMarkRow } from './clip-mark-store';
import type { LocalKeywordRow } from './keyword-store';
import type { LocalRangeRow } from './range-store';

/**
 * Local mark rows as the team's versions (marks-merge.ts) and back: a local `*_by` NULL is this
 * catalog's own edit, named `seatId` outside; clips are the team's ids outside.
 */

export function rangeState(r: LocalRangeRow, seatId: string, clipId: number): RangeState {
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

export function keywordState(k: LocalKeywordRow, seatId: string, clipId: number, rangeUuid: string | null): KeywordState {
  return {
    clipId,
    rangeId: rangeUuid,
    norm: keywordNorm(k.keyword),
    display: k.keyword,
    added: { at: k.added_at, by: k.added_by ?? seatId },
    removed: k.removed_at === null ? null : { at: k.removed_at, by: k.removed_by ?? seatId },
  };
}

export function clipMarkState(m: LocalClipMarkRow, seatId: string, clipId: number): ClipMarkState {
  return { clipId, rating: { value: m.rating, stamp: { at: m.rating_at, by: m.rating_by ?? seatId } } };
}

/** A seat as stored: NULL for this catalog's own. */
export const mine = (by: string, seatId: string): string | null => (by === seatId ? null : by);

/** A merged range's fields in the order range-store's writeTeamRange takes them. */
export function rangeFields(m: RangeState, seatId: string): unknown[] {
  return [
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
}
