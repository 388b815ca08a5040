import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src-main/core/search/query/query-parser';
import { personTerms } from '../../../../src-main/core/search/query/person-terms';

/** `@Name` in the search box (issue 39): people as filters beside the camera words and the text. */
describe('query parser: @Name', () => {
  it('reads "@Maria close-up" as Maria and a close-up, with no words left for the service', () => {
    const p = parseQuery('@Maria close-up');
    expect(p.people).toEqual({ include: ['Maria'], exclude: [] });
    expect(p.include).toEqual({ shotSize: ['close_up'] });
    expect(p.text).toBe('');
    expect(p.chips).toEqual([
      { field: 'person', value: 'Maria', label: 'Maria', negated: false, phrase: '@Maria' },
      { field: 'shotSize', value: 'close_up', label: 'Close-up', negated: false, phrase: 'close-up' },
    ]);
  });

  it('reads a quoted name with a space and an accent, and leaves the other words as text', () => {
    const p = parseQuery('@"Ana María" interview');
    expect(p.people).toEqual({ include: ['Ana María'], exclude: [] });
    expect(p.text).toBe('interview');
    expect(p.chips[0]).toMatchObject({ field: 'person', value: 'Ana María', phrase: '@"Ana María"' });
    expect(parseQuery('@“Ana María”').people.include).toEqual(['Ana María']);
  });

  it('reads -@Tom as an exclusion, and two names as both in the moment', () => {
    expect(parseQuery('@Maria -@Tom').people).toEqual({ include: ['Maria'], exclude: ['Tom'] });
    expect(parseQuery('@Maria -@Tom').chips.map((c) => [c.value, c.negated, c.phrase])).toEqual([
      ['Maria', false, '@Maria'],
      ['Tom', true, '-@Tom'],
    ]);
    const both = parseQuery('@Maria @Tom');
    expect(both.people).toEqual({ include: ['Maria', 'Tom'], exclude: [] });
    expect(both.text).toBe('');
  });

  it('names each person once, whatever the case', () => {
    const p = parseQuery('@maria @Maria talking');
    expect(p.people.include).toEqual(['maria']);
    expect(p.chips.filter((c) => c.field === 'person')).toHaveLength(1);
    expect(p.text).toBe('talking');
  });

  it('keeps names with hyphens and apostrophes whole, and stops at punctuation after them', () => {
    expect(parseQuery('@Jean-Luc, @O’Brien.').people.include).toEqual(['Jean-Luc', 'O’Brien']);
  });

  it('does not read an email-like word as a person', () => {
    const p = parseQuery('a@b.c');
    expect(p.people).toEqual({ include: [], exclude: [] });
    expect(p.chips).toEqual([]);
    expect(p.text).not.toBe('');
  });

  it('does not read @ inside a quoted phrase as a person: the phrase goes to the service as words', () => {
    const p = parseQuery('"meeting @Maria" close-up');
    expect(p.people).toEqual({ include: [], exclude: [] });
    expect(p.text).toBe('meeting @Maria');
    expect(p.include).toEqual({ shotSize: ['close_up'] });
  });

  it('drops a bare @ and an empty @"" without naming anyone or sending them as words', () => {
    for (const q of ['@', '@ sunset', '@"" sunset', 'sunset @', '-@']) {
      const p = parseQuery(q);
      expect(p.people, q).toEqual({ include: [], exclude: [] });
      expect(p.chips, q).toEqual([]);
      expect(p.text, q).toBe(q.includes('sunset') ? 'sunset' : '');
    }
  });

  it('reads a 2,000-character name as one term without breaking the rest of the query', () => {
    const long = 'A'.repeat(2000);
    const p = parseQuery(`@${long} wide shot`);
    expect(p.people.include).toEqual([long]);
    expect(p.include).toEqual({ shotSize: ['wide'] });
    const quoted = parseQuery(`@"${'é '.repeat(1000)}`);
    expect(quoted.people.include[0]).toHaveLength(1999);
  });

  it('keeps offsets: the rest of the query is the query with the terms blanked', () => {
    const q = '@Maria -@"Ana M" handheld';
    const { rest, terms } = personTerms(q);
    expect(rest).toHaveLength(q.length);
    expect(rest.trim()).toBe('handheld');
    expect(terms.map((t) => q.slice(t.start, t.end))).toEqual(['@Maria', '-@"Ana M"']);
  });
});
