import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src-main/core/search/query/query-parser';
import { quotePhrase, removePhrase, searchExportTitle } from '../../../../src-renderer/src/components/search/query-text';

/** The chip of `value` in the parse of `query`. */
const chip = (query: string, value: string) => parseQuery(query).chips.find((c) => c.value === value)!;

describe('query chips back to words', () => {
  it('puts a chip’s words in quotes, and the parser then leaves them to the service', () => {
    for (const [query, value, quoted, text] of [
      ['wide river, handheld', 'handheld', 'wide river, "handheld"', 'wide river handheld'],
      ['Close-up of a face', 'close_up', '"Close-up" of a face', 'Close-up of a face'],
      ['sunset, not handheld or shaky', 'handheld', 'sunset, "not handheld or shaky"', 'sunset not handheld or shaky'],
      ['drone shots of the coast', 'aerial', '"drone shots" of the coast', 'drone shots of the coast'],
      ['two-shot in a cafe, static', 'static', 'two-shot in a cafe, "static"', 'in a cafe static'],
    ] as const) {
      const next = quotePhrase(query, chip(query, value).phrase);
      expect(next).toBe(quoted);
      const p = parseQuery(next);
      expect(p.chips.map((c) => c.value)).not.toContain(value);
      expect(p.text).toBe(text);
      // It stays words in every later search of that text, whatever is added to it.
      expect(parseQuery(`${next}, at night`).chips.map((c) => c.value)).not.toContain(value);
    }
  });

  it('finds the words as whole words outside quotes, whatever their case', () => {
    expect(quotePhrase('"static" noise, static', 'static')).toBe('"static" noise, "static"');
    expect(quotePhrase('ecstatic crowd, Static', 'static')).toBe('ecstatic crowd, "Static"');
    expect(quotePhrase('wide river', 'handheld')).toBe('wide river');
  });

  it('removes a chip’s words and the comma they leave', () => {
    expect(removePhrase('one person in a car, not handheld', 'one person')).toBe('in a car, not handheld');
    expect(removePhrase('sunset, not handheld, wide', 'not handheld')).toBe('sunset, wide');
    expect(removePhrase('"handheld" sign, handheld', 'handheld')).toBe('"handheld" sign');
  });
});

describe('the name of a search export', () => {
  it('is the text the editor typed, even when the parser made every word a filter', () => {
    // "wide static" leaves the service no words: the export must not be named plain "Search".
    expect(parseQuery('wide static').text).toBe('');
    expect(searchExportTitle('wide static')).toBe('Search wide static');
    expect(searchExportTitle('  people talking\tclose-up ')).toBe('Search people talking close-up');
    // A similarity search has no text.
    expect(searchExportTitle(null)).toBe('Search results');
  });
});
