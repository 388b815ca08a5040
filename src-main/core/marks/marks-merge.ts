import type { Rating } from '../../../src-shared/contract/marks';

/**
 * The conflict rule of marks shared by the seats of a team (docs/notes-team-library.md section 5),
 * as pure functions: state + incoming version -> state. Every seat and the server apply the same rule
 * (the server in one upsert, team-marks-store.ts), so the order versions arrive in does not matter:
 * each merge is commutative, associative and idempotent.
 * - Each field (a range's span, name, note, rating; a clip's rating) keeps the value of its latest
 *   change by (time, seat): last writer wins per field, and two seats changing different fields
 *   both keep their change.
 * - A deleted range stays deleted: the first delete is kept, and no later edit clears it (an edit made
 *   after the delete by a seat that had not seen it does not resurrect the range).
 * - Keywords are a set: the latest add and the latest removal are kept; the keyword is present when
 *   the add is later. An offline add and another seat's add of the same keyword are one keyword.
 */

/** When and by which seat a change was made: ms since the epoch on the writer's marks clock, seat uuid (lower case). */
export interface Stamp {
  at: number;
  by: string;
}

/** Orders changes: by time, then by seat id, so two seats' changes at the same millisecond still have one winner. */
export function compareStamps(a: Stamp, b: Stamp): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.by < b.by ? -1 : a.by > b.by ? 1 : 0;
}

export interface Versioned<T> {
  value: T;
  stamp: Stamp;
}

/** The later of two versions of a field; the one held wins a tie (a tie is the same change seen twice). */
function later<T>(held: Versioned<T>, incoming: Versioned<T>): Versioned<T> {
  return compareStamps(incoming.stamp, held.stamp) > 0 ? incoming : held;
}

function earlier(held: Stamp | null, incoming: Stamp | null): Stamp | null {
  if (!held) return incoming;
  if (!incoming) return held;
  return compareStamps(incoming, held) < 0 ? incoming : held;
}

function latest(held: Stamp | null, incoming: Stamp | null): Stamp | null {
  if (!held) return incoming;
  if (!incoming) return held;
  return compareStamps(incoming, held) > 0 ? incoming : held;
}

/** In and out (exclusive) frames, of the rate the range was marked at: they change together. */
export interface RangeSpan {
  inFrame: number;
  outFrame: number;
  rateNum: number;
  rateDen: number;
}

/** A range as seats exchange it. `clipId` is whatever the holder calls the clip (a team id on the server, a local id on a seat). */
export interface RangeState {
  id: string;
  clipId: number;
  span: Versioned<RangeSpan>;
  name: Versioned<string>;
  note: Versioned<string>;
  rating: Versioned<Rating>;
  created: Stamp;
  deleted: Stamp | null;
}

/** A range's state after another version of it arrives (the clip a range is on never changes). */
export function mergeRange(state: RangeState | null, incoming: RangeState): RangeState {
  if (!state) return incoming;
  return {
    id: state.id,
    clipId: state.clipId,
    span: later(state.span, incoming.span),
    name: later(state.name, incoming.name),
    note: later(state.note, incoming.note),
    rating: later(state.rating, incoming.rating),
    created: earlier(state.created, incoming.created)!,
    deleted: earlier(state.deleted, incoming.deleted),
  };
}

/** One keyword on a clip (rangeId null) or on a range, identified case aside by `norm` (keywordNorm). */
export interface KeywordState {
  clipId: number;
  rangeId: string | null;
  norm: string;
  /** As the latest add spelt it. */
  display: string;
  added: Stamp;
  removed: Stamp | null;
}

/**
 * The one spelling of a keyword that identifies it: ASCII letters in lower case, as the local catalog's
 * NOCASE collation compares them (so "Beach" and "beach" are one keyword on every seat and on the server).
 */
export function keywordNorm(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export function keywordPresent(k: Pick<KeywordState, 'added' | 'removed'>): boolean {
  return k.removed === null || compareStamps(k.added, k.removed) > 0;
}

export function mergeKeyword(state: KeywordState | null, incoming: KeywordState): KeywordState {
  if (!state) return incoming;
  const addedLater = compareStamps(incoming.added, state.added) > 0;
  return {
    ...state,
    display: addedLater ? incoming.display : state.display,
    added: addedLater ? incoming.added : state.added,
    removed: latest(state.removed, incoming.removed),
  };
}

export interface ClipMarkState {
  clipId: number;
  rating: Versioned<Rating>;
}

export function mergeClipMark(state: ClipMarkState | null, incoming: ClipMarkState): ClipMarkState {
  if (!state) return incoming;
  return { clipId: state.clipId, rating: later(state.rating, incoming.rating) };
}
