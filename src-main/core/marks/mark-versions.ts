import { keywordNorm, type ClipMarkState, type HeldClipMark, type HeldKeyword, type HeldRange, type KeywordState, type RangeState } from './marks-merge';
import type { Held, Stamp } from '../util/take-field';
import type { LocalClipMarkRow } from './clip-mark-store';
import type { LocalKeywordRow } from './keyword-store';
import type { LocalRangeRow } from './range-store';

/**
 * Local mark rows as held fields (marks-merge.ts) and back, and as what a seat sends. A field's
 * `*_at` is the server's stamp of the version this catalog last saw (0: none yet), its `*_by` the
 * seat that made that version, NULL while a local edit of it waits to be sent (pending). A keyword's
 * base is its `added_at`, its pending mark `added_by` NULL, and it is absent when `removed_at` is set.
 * Clips are the team's ids outside.
 */

const held = <T>(value: T, at: number, by: string | null, seatId: string): Held<T> => ({ value, stamp: { at, by: by ?? seatId }, pending: by === null });
const sent = <T>(f: Held<T>) => ({ value: f.value, stamp: f.stamp });
/** A held field's seat as stored: NULL while its edit is pending. */
const storedBy = (f: { stamp: Stamp; pending: boolean }): string | null => (f.pending ? null : f.stamp.by);

export function heldRange(r: LocalRangeRow, seatId: string, clipId: number): HeldRange {
  return {
    id: r.uuid,
    clipId,
    span: held({ inFrame: r.in_frame, outFrame: r.out_frame, rateNum: r.rate_num, rateDen: r.rate_den }, r.span_at, r.span_by, seatId),
    name: held(r.name, r.name_at, r.name_by, seatId),
    note: held(r.note, r.note_at, r.note_by, seatId),
    rating: held(r.rating, r.rating_at, r.rating_by, seatId),
    created: { at: r.created_at, by: r.created_by ?? seatId },
    deleted: r.deleted_at === null ? null : { stamp: { at: r.deleted_at, by: r.deleted_by ?? seatId }, pending: r.deleted_by === null },
  };
}

/** What the seat sends of a range: every field with its base. */
export function rangeToSend(r: HeldRange): RangeState {
  return { id: r.id, clipId: r.clipId, span: sent(r.span), name: sent(r.name), note: sent(r.note), rating: sent(r.rating), created: r.created, deleted: r.deleted?.stamp ?? null };
}

/** A held range's fields in the order range-store's writeTeamRange takes them. */
export function rangeFields(m: HeldRange): unknown[] {
  return [
    m.span.value.inFrame,
    m.span.value.outFrame,
    m.span.value.rateNum,
    m.span.value.rateDen,
    m.span.stamp.at,
    storedBy(m.span),
    m.name.value,
    m.name.stamp.at,
    storedBy(m.name),
    m.note.value,
    m.note.stamp.at,
    storedBy(m.note),
    m.rating.value,
    m.rating.stamp.at,
    storedBy(m.rating),
    m.created.at,
    m.created.by,
    m.deleted?.stamp.at ?? null,
    m.deleted ? storedBy(m.deleted) : null,
  ];
}

export function heldKeyword(k: LocalKeywordRow, seatId: string, clipId: number, rangeUuid: string | null): HeldKeyword {
  return { clipId, rangeId: rangeUuid, norm: keywordNorm(k.keyword), state: held({ present: k.removed_at === null, display: k.keyword }, k.added_at, k.added_by, seatId) };
}

/** What the seat sends of a keyword: its base as `added`, and a removal when it holds it absent. */
export function keywordToSend(k: HeldKeyword): KeywordState {
  const s = k.state.stamp;
  return { clipId: k.clipId, rangeId: k.rangeId, norm: k.norm, display: k.state.value.display, added: s, removed: k.state.value.present ? null : s };
}

/** A held keyword as keyword-store's writeTeamKeyword takes it (on the local clip and range). */
export function keywordRowOf(k: HeldKeyword, clipId: number, rangeId: number | null) {
  const by = storedBy(k.state);
  const absent = !k.state.value.present;
  return { clipId, rangeId, keyword: k.state.value.display, addedAt: k.state.stamp.at, addedBy: by, removedAt: absent ? k.state.stamp.at : null, removedBy: absent ? by : null };
}

export function heldClipMark(m: LocalClipMarkRow, seatId: string, clipId: number): HeldClipMark {
  return { clipId, rating: held(m.rating, m.rating_at, m.rating_by, seatId) };
}

export function clipMarkToSend(m: HeldClipMark): ClipMarkState {
  return { clipId: m.clipId, rating: sent(m.rating) };
}

export function clipMarkRowOf(m: HeldClipMark, clipId: number): LocalClipMarkRow {
  return { clip_id: clipId, rating: m.rating.value, rating_at: m.rating.stamp.at, rating_by: storedBy(m.rating) };
}
