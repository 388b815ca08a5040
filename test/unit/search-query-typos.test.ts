import { describe, expect, it } from 'vitest';
import { osaDistance, typoOf } from '../../src-main/core/search/query/typos';

describe('query typos', () => {
  it('counts one edit for an insertion, a deletion, a substitution or a swap of neighbours', () => {
    expect(osaDistance('closup', 'closeup')).toBe(1);
    expect(osaDistance('arial', 'aerial')).toBe(1);
    expect(osaDistance('handhled', 'handheld')).toBe(1);
    expect(osaDistance('statik', 'static')).toBe(1);
    expect(osaDistance('static', 'static')).toBe(0);
    // Optimal string alignment never edits a swapped pair again: "ca" -> "abc" is 3, not Damerau's 2.
    expect(osaDistance('ca', 'abc', 5)).toBe(3);
    expect(osaDistance('steadicam', 'handheld')).toBe(2);
  });

  it('reads a word as the one vocabulary word of five letters or more it is one edit from', () => {
    expect(typoOf('closup')).toBe('closeup');
    expect(typoOf('stedicam')).toBe('steadicam');
    expect(typoOf('establising')).toBe('establishing');
    // English words sit one edit from camera words: the parser asks for a cue word beside these.
    expect(typoOf('wanted')).toBe('canted');
    expect(typoOf('serial')).toBe('aerial');
  });

  it('leaves known words, plurals, short words and words near two vocabulary words alone', () => {
    expect(typoOf('pans')).toBeUndefined();
    expect(typoOf('aerials')).toBeUndefined();
    expect(typoOf('zom')).toBeUndefined();
    expect(typoOf('across')).toBeUndefined();
    // "night" is one edit from "right" and from "tight".
    expect(typoOf('night')).toBeUndefined();
  });
});
