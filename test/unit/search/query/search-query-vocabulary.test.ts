import { describe, expect, it } from 'vitest';
import { PEOPLE_VALUES, type FacetField, type TagField } from '../../../../src-shared/contract/search';
import { parseQuery } from '../../../../src-main/core/search/query/query-parser';
import { PEOPLE_LABELS } from '../../../../src-main/core/search/query/tag-resolution-store';
import { PEOPLE_VOCABULARY, TAG_VOCABULARY, type QueryUse } from '../../../../src-main/core/tags/tag-vocabulary';

/** Every spelling the vocabulary holds for a value, with how a query reads it. */
interface Spelling {
  field: FacetField;
  value: string;
  spelling: string;
  use: QueryUse | 'term';
}
const SPELLINGS: Spelling[] = [
  ...(Object.keys(TAG_VOCABULARY) as TagField[]).flatMap((field) =>
    TAG_VOCABULARY[field].flatMap((e) => [...e.synonyms, ...(e.queryPhrases ?? [])].map((spelling) => ({ field, value: e.id, spelling, use: e.queryUse?.[spelling] ?? ('term' as const) }))),
  ),
  ...PEOPLE_VALUES.flatMap((value) => PEOPLE_VOCABULARY[value].synonyms.map((spelling) => ({ field: 'people' as const, value, spelling, use: PEOPLE_VOCABULARY[value].queryUse?.[spelling] ?? ('term' as const) }))),
];

/** A query that uses the spelling as a camera or people word, as its use says it must be written. */
function asCameraWord({ spelling, use }: Spelling): string[] {
  switch (use) {
    case 'abbreviation':
      return [spelling.toUpperCase(), spelling, `${spelling.toUpperCase()} kitchen`];
    case 'label':
      return [`${spelling.toUpperCase()} shot`];
    case 'cued':
    case 'device':
      return [`${spelling} shot`, `${spelling} shots of a garden`];
    case 'negatedField':
      return [`${spelling} camera movement`];
    case 'motion':
      return [spelling, `slow ${spelling} across a garden`, `${spelling} shot of a garden`];
    case 'collective':
      return [spelling, `${spelling} walking in a garden`];
    default:
      return [spelling, `${spelling} of a garden`];
  }
}

/** A query that uses an everyday spelling as a word: it must not become that value. */
function asWord({ spelling, use }: Spelling): string | null {
  switch (use) {
    case 'abbreviation':
      return `typing ${spelling} garden`;
    case 'label':
      return `${spelling.toUpperCase()} garden`;
    case 'negatedField':
      return `${spelling} garden`;
    case 'collective':
      return `a ${spelling} of cars`;
    case 'term':
      return null;
    default:
      return `the ${spelling} garden`;
  }
}

const named = (q: string) => parseQuery(q).chips.filter((c) => !c.negated).map((c) => `${c.field}:${c.value}`);

describe('query parser: the phrase table is the tag vocabulary', () => {
  it('reads every spelling of every value', () => {
    const missed = SPELLINGS.flatMap((s) => asCameraWord(s).filter((q) => !named(q).includes(`${s.field}:${s.value}`)).map((q) => `${q} (${s.field}:${s.value}, ${s.use})`));
    expect(missed).toEqual([]);
    expect(SPELLINGS.length).toBeGreaterThan(150);
  });

  it('reads every label and id as its value', () => {
    for (const field of Object.keys(TAG_VOCABULARY) as TagField[]) {
      for (const e of TAG_VOCABULARY[field]) {
        expect([e.label, named(`${e.label} shot`)]).toEqual([e.label, [`${field}:${e.id}`]]);
        expect([e.id, named(`${e.id.replace(/_/g, '-')} shot`)]).toEqual([e.id, [`${field}:${e.id}`]]);
      }
    }
    for (const v of PEOPLE_VALUES) expect([v, named(PEOPLE_LABELS[v])]).toEqual([v, [`people:${v}`]]);
  });

  it('leaves every everyday spelling as a word where nothing makes it a camera word', () => {
    const taken = SPELLINGS.flatMap((s) => {
      const q = asWord(s);
      return q && named(q).includes(`${s.field}:${s.value}`) ? [`${q} (${s.use})`] : [];
    });
    expect(taken).toEqual([]);
  });

  it('turns a negated spelling into an exclusion of its value', () => {
    const wrong = SPELLINGS.filter((s) => s.use !== 'negatedField' && s.field !== 'people').flatMap((s) => {
      const q = `not ${asCameraWord(s)[0]}`;
      const p = parseQuery(q);
      const has = (sel: Record<string, string[] | undefined>) => sel[s.field]?.includes(s.value) === true;
      return has(p.exclude) && !has(p.include) ? [] : [q];
    });
    expect(wrong).toEqual([]);
  });
});
