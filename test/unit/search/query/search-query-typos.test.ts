import { describe, expect, it } from 'vitest';
import { typoOf, withinOneEdit } from '../../../../src-main/core/search/query/typos';

describe('query typos', () => {
  it('counts one edit for an insertion, a deletion, a substitution or a swap of neighbours', () => {
    expect(withinOneEdit('closup', 'closeup')).toBe(true);
    expect(withinOneEdit('closeup', 'closup')).toBe(true);
    expect(withinOneEdit('arial', 'aerial')).toBe(true);
    expect(withinOneEdit('handhled', 'handheld')).toBe(true);
    expect(withinOneEdit('statik', 'static')).toBe(true);
    expect(withinOneEdit('static', 'static')).toBe(true);
    expect(withinOneEdit('staticx', 'static')).toBe(true);
    expect(withinOneEdit('xstatic', 'static')).toBe(true);
    // Two edits: two substitutions, a swap and a substitution, a swap of letters further apart.
    expect(withinOneEdit('stotik', 'static')).toBe(false);
    expect(withinOneEdit('hnadhelt', 'handheld')).toBe(false);
    expect(withinOneEdit('dnahheld', 'handheld')).toBe(false);
    expect(withinOneEdit('closeupxx', 'closeup')).toBe(false);
    expect(withinOneEdit('steadicam', 'handheld')).toBe(false);
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
