import { describe, expect, it } from 'vitest';
import {
  compareStamps,
  keywordNorm,
  keywordPresent,
  mergeClipMark,
  mergeKeyword,
  mergeRange,
  type KeywordState,
  type RangeState,
  type Stamp,
} from '../../src-main/core/marks/marks-merge';

/** The conflict rule of shared marks, rule by rule: state + incoming version -> state. */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const at = (t: number, by = A): Stamp => ({ at: t, by });

function range(t: number, by = A, over: Partial<RangeState> = {}): RangeState {
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

describe('marks merge: ranges', () => {
  it('a range not held yet is taken as it comes', () => {
    const r = range(10);
    expect(mergeRange(null, r)).toBe(r);
  });

  it('last writer wins per field: a later name replaces, an older one does not', () => {
    const held = range(10);
    const renamed = mergeRange(held, { ...range(10), name: { value: 'hero', stamp: at(20, B) } });
    expect(renamed.name).toEqual({ value: 'hero', stamp: at(20, B) });
    expect(mergeRange(renamed, { ...range(10), name: { value: 'stale', stamp: at(15, A) } }).name.value).toBe('hero');
  });

  it('two seats changing different fields of one range both keep their change, whichever arrives first', () => {
    const base = range(10);
    const onA = { ...base, name: { value: 'hero', stamp: at(20, A) } };
    const onB = { ...base, note: { value: 'soft focus', stamp: at(21, B) }, rating: { value: 'favorite' as const, stamp: at(21, B) } };
    const ab = mergeRange(mergeRange(base, onA), onB);
    const ba = mergeRange(mergeRange(base, onB), onA);
    expect(ab).toEqual(ba);
    expect([ab.name.value, ab.note.value, ab.rating.value]).toEqual(['hero', 'soft focus', 'favorite']);
  });

  it('the same field changed at the same millisecond: the greater seat id wins on every seat', () => {
    const base = range(10);
    const onA = { ...base, name: { value: 'from A', stamp: at(20, A) } };
    const onB = { ...base, name: { value: 'from B', stamp: at(20, B) } };
    expect(mergeRange(mergeRange(base, onA), onB).name.value).toBe('from B');
    expect(mergeRange(mergeRange(base, onB), onA).name.value).toBe('from B');
  });

  it('in, out and rate change together (the span): a later span replaces all three', () => {
    const held = range(10);
    const moved = mergeRange(held, { ...range(10), span: { value: { inFrame: 5, outFrame: 60, rateNum: 30000, rateDen: 1001 }, stamp: at(30, B) } });
    expect(moved.span.value).toEqual({ inFrame: 5, outFrame: 60, rateNum: 30000, rateDen: 1001 });
  });

  it('a delete wins over any field change older than it', () => {
    const deleted = mergeRange(range(10), { ...range(10), deleted: at(30, B) });
    const withOlderEdit = mergeRange(deleted, { ...range(10), name: { value: 'renamed', stamp: at(20, A) } });
    expect(withOlderEdit.deleted).toEqual(at(30, B));
  });

  it('an edit made after the delete by a seat that had not seen it does not resurrect the range', () => {
    const deleted = mergeRange(range(10), { ...range(10), deleted: at(30, B) });
    // A edits later than the delete, from its own copy that has no tombstone.
    const lateEdit = { ...range(10), name: { value: 'renamed offline', stamp: at(40, A) } };
    const onServer = mergeRange(deleted, lateEdit);
    expect(onServer.deleted).toEqual(at(30, B));
    // ...and in the other order (the late edit reached the server first, the delete after).
    expect(mergeRange(mergeRange(range(10), lateEdit), { ...range(10), deleted: at(30, B) }).deleted).toEqual(at(30, B));
  });

  it('two deletes: the first one is kept, in either order', () => {
    const d1 = { ...range(10), deleted: at(30, A) };
    const d2 = { ...range(10), deleted: at(35, B) };
    expect(mergeRange(d1, d2).deleted).toEqual(at(30, A));
    expect(mergeRange(d2, d1).deleted).toEqual(at(30, A));
  });

  it('the clip a range is on and its id never change with a merge', () => {
    const m = mergeRange(range(10), { ...range(50), id: 'other', clipId: 99 });
    expect([m.id, m.clipId]).toEqual(['r1', 7]);
  });

  it('merging a version already held changes nothing (an echo)', () => {
    const r = mergeRange(range(10), { ...range(10), name: { value: 'hero', stamp: at(20, B) } });
    expect(mergeRange(r, r)).toEqual(r);
  });
});

function keyword(over: Partial<KeywordState>): KeywordState {
  return { clipId: 7, rangeId: null, norm: 'beach', display: 'beach', added: at(10), removed: null, ...over };
}

describe('marks merge: keywords as a set', () => {
  it('present when the last add is later than the last removal', () => {
    expect(keywordPresent(keyword({}))).toBe(true);
    expect(keywordPresent(keyword({ added: at(10), removed: at(20) }))).toBe(false);
    expect(keywordPresent(keyword({ added: at(30), removed: at(20) }))).toBe(true);
    // a removal at the same stamp as the add is later than nothing: absent (the same seat cannot do both at one stamp)
    expect(keywordPresent(keyword({ added: at(20), removed: at(20) }))).toBe(false);
  });

  it('an offline add and another seat\'s add are one keyword (spelt as the later add)', () => {
    const onA = keyword({ display: 'Beach', added: at(10, A) });
    const onB = keyword({ display: 'BEACH', added: at(12, B) });
    const m = mergeKeyword(onA, onB);
    expect(m).toEqual({ ...onA, display: 'BEACH', added: at(12, B) });
    expect(mergeKeyword(onB, onA)).toEqual(m);
  });

  it('a removal later than every add removes; an add later than the removal brings it back', () => {
    const removed = mergeKeyword(keyword({}), keyword({ removed: at(20, B) }));
    expect(keywordPresent(removed)).toBe(false);
    const back = mergeKeyword(removed, keyword({ added: at(25, A) }));
    expect(keywordPresent(back)).toBe(true);
    expect(back.removed).toEqual(at(20, B));
    // an older add arriving late does not undo the removal
    expect(keywordPresent(mergeKeyword(removed, keyword({ added: at(15, A) })))).toBe(false);
  });

  it('the latest removal is kept, in either order', () => {
    const r1 = keyword({ removed: at(20, A) });
    const r2 = keyword({ removed: at(22, B) });
    expect(mergeKeyword(r1, r2).removed).toEqual(at(22, B));
    expect(mergeKeyword(r2, r1).removed).toEqual(at(22, B));
  });

  it('case aside in ASCII letters, as the catalog compares keywords', () => {
    expect(keywordNorm('Day 1 BEACH')).toBe('day 1 beach');
    expect(keywordNorm('École')).toBe('École');
  });
});

describe('marks merge: clip ratings and stamps', () => {
  it("a clip's rating: the later wins, a cleared rating is a value too", () => {
    const fav = { clipId: 7, rating: { value: 'favorite' as const, stamp: at(10, A) } };
    const cleared = { clipId: 7, rating: { value: null, stamp: at(20, B) } };
    expect(mergeClipMark(fav, cleared).rating.value).toBeNull();
    expect(mergeClipMark(cleared, fav).rating.value).toBeNull();
    expect(mergeClipMark(null, fav)).toBe(fav);
  });

  it('stamps order by time, then by seat id', () => {
    expect(compareStamps(at(1, B), at(2, A))).toBeLessThan(0);
    expect(compareStamps(at(2, A), at(2, B))).toBeLessThan(0);
    expect(compareStamps(at(2, B), at(2, B))).toBe(0);
  });
});
