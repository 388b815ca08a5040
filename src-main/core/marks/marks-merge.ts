import { takeField, type Held, type Stamp, type Versioned } from '../util/take-field';
import type { Rating } from '../../../src-shared/contract/marks';

/**
 * The conflict rule of marks shared by the seats of a team (docs/notes-team-library.md section 5),
 * on the seat's side, as pure functions: held state + a version from the server -> held state, field
 * by field by the team's one rule (util/take-field.ts), and:
 * - a range's delete is a tombstone: once held it stays (the server's first delete keeps its stamp);
 * - a keyword is one field, present or not, stamped by the later of its add and removal.
 */

/** In and out (exclusive) frames, of the rate the range was marked at: they change together. */
export interface RangeSpan {
  inFrame: number;
  outFrame: number;
  rateNum: number;
  rateDen: number;
}

/** A range as the server holds it and seats send it. `clipId` is whatever the holder calls the clip (a team id on the server, a local id on a seat). */
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

export interface HeldRange {
  id: string;
  clipId: number;
  span: Held<RangeSpan>;
  name: Held<string>;
  note: Held<string>;
  rating: Held<Rating>;
  created: Stamp;
  deleted: { stamp: Stamp; pending: boolean } | null;
}

/**
 * One keyword on a clip (rangeId null) or on a range, identified case aside by `norm` (keywordNorm),
 * as the server holds it: present when never removed or added after its removal.
 */
export interface KeywordState {
  clipId: number;
  rangeId: string | null;
  norm: string;
  /** As the latest add spelt it. */
  display: string;
  added: Stamp;
  removed: Stamp | null;
}

/** A keyword as a seat holds it: one field, present or not. */
export interface HeldKeyword {
  clipId: number;
  rangeId: string | null;
  norm: string;
  state: Held<{ present: boolean; display: string }>;
}

export interface ClipMarkState {
  clipId: number;
  rating: Versioned<Rating>;
}

export interface HeldClipMark {
  clipId: number;
  rating: Held<Rating>;
}

/**
 * The one spelling of a keyword that identifies it: ASCII letters in lower case, as the local catalog's
 * NOCASE collation compares them (so "Beach" and "beach" are one keyword on every seat and on the server).
 */
export function keywordNorm(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** A range held here after the server's version of it (`sent`: what this seat's push sent of it). Names the fields whose edit lost. */
export function mergeRange(held: HeldRange | null, incoming: RangeState, sent?: RangeState): { range: HeldRange; lost: string[] } {
  const lost: string[] = [];
  const field = <T>(name: 'span' | 'name' | 'note' | 'rating', h: Held<T> | null, v: Versioned<T>, s: Versioned<T> | undefined): Held<T> => {
    const r = takeField(h, v, s);
    if (r.lost) lost.push(name);
    return r.field;
  };
  const deleted = held?.deleted && !(held.deleted.pending && incoming.deleted) ? held.deleted : incoming.deleted ? { stamp: incoming.deleted, pending: false } : null;
  return {
    range: {
      id: incoming.id,
      clipId: held?.clipId ?? incoming.clipId,
      span: field('span', held?.span ?? null, incoming.span, sent?.span),
      name: field('name', held?.name ?? null, incoming.name, sent?.name),
      note: field('note', held?.note ?? null, incoming.note, sent?.note),
      rating: field('rating', held?.rating ?? null, incoming.rating, sent?.rating),
      created: incoming.created,
      deleted,
    },
    lost,
  };
}

/** The server's keyword as one field: present or not, stamped by the later of its add and removal. */
export function keywordField(k: KeywordState): Versioned<{ present: boolean; display: string }> {
  const present = k.removed === null || k.added.at > k.removed.at;
  return { value: { present, display: k.display }, stamp: present ? k.added : k.removed! };
}

export function mergeKeyword(held: HeldKeyword | null, incoming: KeywordState, sent?: KeywordState): { keyword: HeldKeyword; lost: boolean } {
  // the spelling is not a conflict: the server keeps the one that made the keyword present
  const r = takeField(held?.state ?? null, keywordField(incoming), sent && keywordField(sent), (a, b) => a.present === b.present);
  return { keyword: { clipId: held?.clipId ?? incoming.clipId, rangeId: incoming.rangeId, norm: incoming.norm, state: r.field }, lost: r.lost };
}

export function mergeClipMark(held: HeldClipMark | null, incoming: ClipMarkState, sent?: ClipMarkState): { mark: HeldClipMark; lost: boolean } {
  const r = takeField(held?.rating ?? null, incoming.rating, sent?.rating);
  return { mark: { clipId: held?.clipId ?? incoming.clipId, rating: r.field }, lost: r.lost };
}
