import { describe, expect, it } from 'vitest';
import { parseQuery, type ParsedQuery } from '../../../../src-main/core/search/query/query-parser';
import { AMBIGUOUS, PHRASINGS, type Row, type Selection } from './search-query-phrasings';

const pairs = (sel: Selection) =>
  Object.entries(sel)
    .flatMap(([f, vs]) => (vs ?? []).map((v) => `${f}:${v}`))
    .sort();
const chipPairs = (p: ParsedQuery, negated: boolean) => [...new Set(p.chips.filter((c) => c.negated === negated).map((c) => `${c.field}:${c.value}`))].sort();

/** How a parse differs from its row ('' when it is exact): the words, the filters, and the chips that must name exactly the filters. */
function difference([query, text, include, exclude = {}]: Row): string {
  const p = parseQuery(query);
  const got = { text: p.text, include: pairs(p.include), exclude: pairs(p.exclude), chipsIn: chipPairs(p, false), chipsOut: chipPairs(p, true) };
  const want = { text, include: pairs(include), exclude: pairs(exclude), chipsIn: pairs(include), chipsOut: pairs(exclude) };
  return JSON.stringify(got) === JSON.stringify(want) ? '' : `${JSON.stringify(query)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
}

describe('query parser: editors’ phrasings', () => {
  it('has at least 150 phrasings, none twice', () => {
    expect(PHRASINGS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(PHRASINGS.map((r) => r[0])).size).toBe(PHRASINGS.length);
  });

  it('reads at least 95% of them exactly (words and filters), and lists those it does not', () => {
    const differ = PHRASINGS.map(difference).filter(Boolean);
    const rate = 1 - differ.length / PHRASINGS.length;
    if (differ.length) console.log(`query parser: ${PHRASINGS.length - differ.length}/${PHRASINGS.length} exact (${(rate * 100).toFixed(1)}%); rows that differ:\n${differ.join('\n')}`);
    expect(rate, differ.join('\n')).toBeGreaterThanOrEqual(0.95);
  });

  it('never turns an exclusion into an inclusion or the reverse', () => {
    const inverted = PHRASINGS.flatMap(([query, , include, exclude = {}]) => {
      const p = parseQuery(query);
      const inc = new Set(pairs(p.include));
      const exc = new Set(pairs(p.exclude));
      return [...pairs(exclude).filter((x) => inc.has(x)), ...pairs(include).filter((x) => exc.has(x))].map((x) => `${query}: ${x}`);
    });
    expect(inverted).toEqual([]);
  });

  it.each(AMBIGUOUS)('gives the ambiguous words of “%s” no facet', (query, allowed) => {
    const p = parseQuery(query);
    expect([...pairs(p.include), ...pairs(p.exclude)]).toEqual(pairs(allowed));
  });

  it('gives chips with labels and the phrase as typed, negations marked and their words included', () => {
    const p = parseQuery('Hand-held close up, not low-angle');
    expect(p.chips).toEqual([
      { field: 'cameraMovement', value: 'handheld', label: 'Handheld', negated: false, phrase: 'Hand-held' },
      { field: 'shotSize', value: 'close_up', label: 'Close-up', negated: false, phrase: 'close up' },
      { field: 'shootingAngle', value: 'low_angle', label: 'Low angle', negated: true, phrase: 'not low-angle' },
    ]);
    expect(parseQuery('drone shots, not a close-up').chips.map((c) => c.phrase)).toEqual(['drone shots', 'not a close-up']);
    expect(parseQuery('without any people').chips).toEqual([{ field: 'people', value: 'no_people', label: 'No people', negated: false, phrase: 'without any people' }]);
  });

  it('never reads quoted words as filters, and sends them without the quotes', () => {
    for (const q of ['"close-up"', '"not handheld"', '“drone shot”', '"CU"']) {
      const p = parseQuery(q);
      expect([q, p.chips]).toEqual([q, []]);
      expect(p.text).toBe(q.replace(/["“”]/g, ''));
    }
    // The rest of the query is read as before; an unclosed quote runs to the end.
    expect(parseQuery('"wide" shot of a river, handheld').chips.map((c) => c.value)).toEqual(['handheld']);
    expect(parseQuery('close-up "of a handheld').chips.map((c) => c.value)).toEqual(['close_up']);
  });

  it('one chip per filter: the same value named twice is one chip', () => {
    expect(parseQuery('close-up close up CU').chips).toHaveLength(1);
    expect(parseQuery('not handheld or shaky').chips).toEqual([{ field: 'cameraMovement', value: 'handheld', label: 'Handheld', negated: true, phrase: 'not handheld or shaky' }]);
  });
});
