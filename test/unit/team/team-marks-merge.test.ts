import { describe, expect, it } from 'vitest';
import {
  keywordField,
  keywordNorm,
  mergeClipMark,
  mergeKeyword,
  mergeRange,
  type HeldRange,
  type KeywordState,
  type RangeState,
} from '../../../src-main/core/marks/marks-merge';
import type { Held, Stamp } from '../../../src-main/core/util/take-field';

/**
 * The seat's rule for shared marks, case by case: held state + the server's version -> held state
 * (stamps are the server's, team migration 0014; a pending field is a local edit over its stamp; the
 * one-field rule itself: take-field.test.ts).
 */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const at = (t: number, by = A): Stamp => ({ at: t, by });
const field = <T>(value: T, t: number, by = A, pending = false): Held<T> => ({ value, stamp: at(t, by), pending });

function server(t: number, by = A, over: Partial<RangeState> = {}): RangeState {
  const s = at(t, by);
  return {
    id: 'r1',
    clipId: 7,
    span: { value: { inFrame: 0, outFrame: 25, rateNum: 25, rateDen: 1 }, stamp: s },
    name: { value: 'take', stamp: s },
    note: { value: '', stamp: s },
    rating: { value: null, stamp: s },
    created: s,
    deleted: null,
    ...over,
  };
}

const held = (r: RangeState, pending: Partial<Record<'span' | 'name' | 'note' | 'rating', unknown>> = {}): HeldRange => ({
  id: r.id,
  clipId: r.clipId,
  span: { ...r.span, pending: false },
  name: 'name' in pending ? { value: pending.name as string, stamp: r.name.stamp, pending: true } : { ...r.name, pending: false },
  note: 'note' in pending ? { value: pending.note as string, stamp: r.note.stamp, pending: true } : { ...r.note, pending: false },
  rating: { ...r.rating, pending: false },
  created: r.created,
  deleted: r.deleted ? { stamp: r.deleted, pending: false } : null,
});

describe('marks merge on a seat: ranges', () => {
  it('a range not held yet is taken as it comes', () => {
    expect(mergeRange(null, server(10))).toEqual({ range: held(server(10)), lost: [] });
  });

  it('field by field: a pending name survives a newer note from another seat; a pending note over an older version loses', () => {
    const base = server(10);
    const mine = held(base, { name: 'my name' });
    const onServer = server(10, A, { note: { value: 'their note', stamp: at(30, B) } });
    const m = mergeRange(mine, onServer);
    expect([m.range.name, m.range.note]).toEqual([field('my name', 10, A, true), field('their note', 30, B)]);
    expect(m.lost).toEqual([]);
    const lost = mergeRange(held(base, { note: 'my note' }), onServer);
    expect(lost.range.note).toEqual(field('their note', 30, B));
    expect(lost.lost).toEqual(['note']);
  });

  it('a day-old offline rename over a version someone has since renamed: the newer name stands, whatever the edit\'s own time', () => {
    const offline = held(server(10), { name: 'offline, yesterday' });
    const m = mergeRange(offline, server(10, A, { name: { value: 'office, today', stamp: at(50, B) } }));
    expect(m.range.name).toEqual(field('office, today', 50, B));
    expect(m.lost).toEqual(['name']);
  });

  it('a delete stays: a later version without it does not bring the range back; a pending delete takes the server\'s stamp', () => {
    const deleted = mergeRange(held(server(10)), server(10, A, { deleted: at(30, B) })).range;
    expect(deleted.deleted).toEqual({ stamp: at(30, B), pending: false });
    expect(mergeRange(deleted, server(40, A)).range.deleted).toEqual({ stamp: at(30, B), pending: false });
    const pending: HeldRange = { ...held(server(10)), deleted: { stamp: at(5), pending: true } };
    expect(mergeRange(pending, server(10)).range.deleted).toEqual({ stamp: at(5), pending: true });
    expect(mergeRange(pending, server(10, A, { deleted: at(31, A) })).range.deleted).toEqual({ stamp: at(31, A), pending: false });
  });

  it('the same version again changes nothing', () => {
    const once = mergeRange(null, server(10)).range;
    expect(mergeRange(once, server(10))).toEqual({ range: once, lost: [] });
  });

  it('the clip a range is on stays the holder\'s', () => {
    expect(mergeRange(held(server(10)), { ...server(20), clipId: 99 }).range.clipId).toBe(7);
  });
});

function keyword(over: Partial<KeywordState>): KeywordState {
  return { clipId: 7, rangeId: null, norm: 'beach', display: 'beach', added: at(10), removed: null, ...over };
}

describe('marks merge on a seat: keywords', () => {
  it('the server\'s keyword is one field: present unless removed after its last add, stamped by the later', () => {
    expect(keywordField(keyword({}))).toEqual({ value: { present: true, display: 'beach' }, stamp: at(10) });
    expect(keywordField(keyword({ removed: at(20, B) }))).toEqual({ value: { present: false, display: 'beach' }, stamp: at(20, B) });
    expect(keywordField(keyword({ added: at(30), removed: at(20, B) }))).toEqual({ value: { present: true, display: 'beach' }, stamp: at(30) });
  });

  it('a pending removal over the version held stays; over an older one, the server\'s newer state wins', () => {
    const pendingRemoval = { clipId: 7, rangeId: null, norm: 'beach', state: field({ present: false, display: 'beach' }, 10, A, true) };
    expect(mergeKeyword(pendingRemoval, keyword({})).keyword).toEqual(pendingRemoval);
    const re = mergeKeyword(pendingRemoval, keyword({ added: at(30, B), removed: at(20, B) }));
    expect(re.keyword.state).toEqual(field({ present: true, display: 'beach' }, 30, B));
    expect(re.lost).toBe(true);
  });

  it('the spelling is no conflict: another add of the same keyword is taken as the server spells it', () => {
    const mine = { clipId: 7, rangeId: null, norm: 'beach', state: field({ present: true, display: 'Beach' }, 0, A, true) };
    const m = mergeKeyword(mine, keyword({ display: 'BEACH', added: at(12, B) }));
    expect(m).toEqual({ keyword: { ...mine, state: field({ present: true, display: 'BEACH' }, 12, B) }, lost: false });
  });

  it('case aside in ASCII letters, as the catalog compares keywords', () => {
    expect(keywordNorm('Day 1 BEACH')).toBe('day 1 beach');
    expect(keywordNorm('École')).toBe('École');
  });
});

describe('marks merge on a seat: clip ratings', () => {
  it("a clip's rating: a cleared rating is a value too", () => {
    const fav = { clipId: 7, rating: field<'favorite' | null>('favorite', 10) };
    expect(mergeClipMark(fav, { clipId: 7, rating: { value: null, stamp: at(20, B) } })).toEqual({ mark: { clipId: 7, rating: field(null, 20, B) }, lost: false });
    expect(mergeClipMark({ clipId: 7, rating: field<'favorite' | null>('favorite', 10, A, true) }, { clipId: 7, rating: { value: null, stamp: at(20, B) } }).lost).toBe(true);
  });
});
