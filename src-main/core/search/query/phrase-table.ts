import type { FacetField, TagField } from '../../../../src-shared/contract/search';
import { compactWords, PEOPLE_VOCABULARY, TAG_VOCABULARY, type QueryUse } from '../../tags/tag-vocabulary';
import { CUES } from './english';

/**
 * The query parser's phrase table, generated from the one tag vocabulary and the people values: every
 * id, label, synonym and query phrase of every entry, in the vocabulary's compact form ("closeup",
 * "birdseye", "panleft"), with how a query reads it (`QueryUse`; jargon is read wherever it stands).
 * Nothing here is a second list of camera words: a spelling added to the vocabulary is understood.
 */
export interface Meaning {
  field: FacetField;
  value: string;
  use: QueryUse | 'term';
}

const TAG_FIELDS = Object.keys(TAG_VOCABULARY) as TagField[];
const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

const TABLE: ReadonlyMap<string, readonly Meaning[]> = (() => {
  const m = new Map<string, Meaning[]>();
  const add = (key: string, meaning: Meaning) => {
    const list = m.get(key) ?? [];
    if (!list.some((x) => x.field === meaning.field && x.value === meaning.value)) list.push(meaning);
    m.set(key, list);
  };
  for (const field of TAG_FIELDS) {
    for (const e of TAG_VOCABULARY[field]) {
      for (const key of [compact(e.id), compact(e.label), ...e.synonyms, ...(e.queryPhrases ?? [])]) add(key, { field, value: e.id, use: e.queryUse?.[key] ?? 'term' });
    }
  }
  for (const [value, e] of Object.entries(PEOPLE_VOCABULARY)) {
    for (const key of [compact(value), ...e.synonyms]) add(key, { field: 'people', value, use: e.queryUse?.[key] ?? 'term' });
  }
  return m;
})();

/** Every word the vocabulary is spelt with, and the cue words: a word in here is never taken for a typo or a plural of something else. */
const KNOWN: ReadonlySet<string> = (() => {
  const words = new Set<string>([...TABLE.keys(), ...CUES]);
  for (const field of TAG_FIELDS) for (const e of TAG_VOCABULARY[field]) for (const w of `${e.id} ${e.label}`.toLowerCase().split(/[^a-z0-9]+/)) if (w) words.add(w);
  for (const v of Object.keys(PEOPLE_VOCABULARY)) for (const w of v.split('_')) words.add(w);
  return words;
})();

export function isKnownWord(w: string): boolean {
  return KNOWN.has(w);
}

/** Words of five letters or more a typo may stand for: the vocabulary's spellings and the words of its ids and labels, not its abbreviations. */
export const TYPO_TARGETS: readonly string[] = [...KNOWN].filter(
  (w) => w.length >= 5 && /^[a-z]+$/.test(w) && !(TABLE.get(w) ?? []).some((m) => m.use === 'abbreviation' || m.use === 'label'),
);

/** The singular of a plural the vocabulary knows ("pans" -> "pan", "close-ups" -> "up", "dollies" -> "dolly"); any other word as it is. */
export function lemma(w: string): string {
  if (KNOWN.has(w) || w.length < 3) return w;
  const forms = [w.endsWith('ies') ? `${w.slice(0, -3)}y` : '', w.endsWith('es') ? w.slice(0, -2) : '', w.endsWith('s') ? w.slice(0, -1) : ''];
  return forms.find((f) => f && KNOWN.has(f)) ?? w;
}

/**
 * What a run of words names: first its words run together ("close up" -> "closeup", "bird's eye" ->
 * "birdseye"; the last one also in the singular: "two-shots"), then each field's own compact form
 * (`compactWords`: words naming the field dropped and movement verbs stemmed: "wide shot" -> "wide",
 * "panning to the left" -> "panleft"). Exact spellings first, then the words without cue words.
 */
export function meaningsOf(words: readonly string[]): Meaning[] {
  const out: Meaning[] = [];
  const take = (list: readonly Meaning[] | undefined, field?: FacetField) => {
    for (const m of list ?? []) if ((!field || m.field === field) && !out.includes(m)) out.push(m);
  };
  const joined = words.join('');
  take(TABLE.get(joined));
  const last = words[words.length - 1]!;
  if (last.length > 3 && last.endsWith('s')) take(TABLE.get(joined.slice(0, -1)));
  // The words without "shot", "angle"...: "tilted shot" is the dutch "tilted" before it is a tilt.
  take(TABLE.get(words.filter((w) => !CUES.has(w)).join('')));
  for (const field of TAG_FIELDS) {
    const key = compactWords(field, words);
    if (key && key !== joined) take(TABLE.get(key), field);
  }
  return out;
}
