import { describe, expect, it } from 'vitest';
import { acceptName, atName, atTermAt } from '../../../../src-renderer/src/components/search/person-completion';
import { parseQuery } from '../../../../src-main/core/search/query/query-parser';

/** The `@` completion's reading of the box, and the text once a name is taken (what the parser then reads). */
describe('search box: @ completion', () => {
  it('finds the @ term the caret is in, with what is typed so far', () => {
    expect(atTermAt('@Ma', 3)).toEqual({ at: 0, end: 3, prefix: 'Ma' });
    expect(atTermAt('close-up @Ma', 12)).toEqual({ at: 9, end: 12, prefix: 'Ma' });
    expect(atTermAt('-@To', 4)).toEqual({ at: 1, end: 4, prefix: 'To' });
    expect(atTermAt('@', 1)).toEqual({ at: 0, end: 1, prefix: '' });
    expect(atTermAt('@"Ana Ma', 8)).toEqual({ at: 0, end: 8, prefix: 'Ana Ma' });
    // The caret in the middle of a word: the whole word is replaced.
    expect(atTermAt('@Mar interview', 2)).toEqual({ at: 0, end: 4, prefix: 'M' });
  });

  it('offers nothing outside a term: an email, a finished name, a closed quote, a quoted phrase', () => {
    expect(atTermAt('a@b', 3)).toBeNull();
    expect(atTermAt('@Maria close', 12)).toBeNull();
    expect(atTermAt('@"Ana María" x', 14)).toBeNull();
    expect(atTermAt('sunset', 6)).toBeNull();
  });

  it('writes a name bare when the parser reads it whole, quoted otherwise', () => {
    expect(atName('Maria')).toBe('@Maria');
    expect(atName('Jean-Luc')).toBe('@Jean-Luc');
    expect(atName('Ana María')).toBe('@"Ana María"');
    expect(atName('Dr. Who')).toBe('@"Dr. Who"');
  });

  it('puts the chosen name in place of the term, the caret after it, and the parser reads that name', () => {
    const text = 'interview @an close-up';
    const term = atTermAt(text, 13)!;
    const r = acceptName(text, term, 'Ana María');
    expect(r.text).toBe('interview @"Ana María" close-up');
    expect(r.text.slice(0, r.caret)).toBe('interview @"Ana María" ');
    expect(parseQuery(r.text).people.include).toEqual(['Ana María']);
    const neg = acceptName('-@to', atTermAt('-@to', 4)!, 'Tom');
    expect(neg).toEqual({ text: '-@Tom ', caret: 6 });
    expect(parseQuery(neg.text).people.exclude).toEqual(['Tom']);
  });
});
