import { PEOPLE_VALUES } from '../../../src-shared/contract/search';
import { PEOPLE_LABELS } from '../../../src-main/core/search/query/tag-resolution-store';
import { PEOPLE_VOCABULARY, TAG_VOCABULARY, type QueryUse, type VocabularyEntry } from '../../../src-main/core/tags/tag-vocabulary';

const FIELD_NAMES = { shotSize: 'Shot size', cameraMovement: 'Camera movement', shootingAngle: 'Shooting angle' } as const;
const USE_NAMES: Record<QueryUse, string> = {
  abbreviation: 'abbreviation',
  label: 'label, with a cue',
  cued: 'with a cue',
  modifier: 'not before a noun',
  motion: 'as a movement',
  device: 'as a carrier',
  negatedField: 'negation',
  collective: 'not "of" things',
};

/** How a search query reads an entry's spellings beyond jargon: its query-only phrasings, then each use with its spellings. */
function inQueries(e: Pick<VocabularyEntry, 'queryPhrases' | 'queryUse'>): string {
  const parts = e.queryPhrases?.length ? [`also ${e.queryPhrases.join(', ')}`] : [];
  const byUse = new Map<QueryUse, string[]>();
  for (const [spelling, use] of Object.entries(e.queryUse ?? {})) byUse.set(use, [...(byUse.get(use) ?? []), spelling]);
  for (const [use, spellings] of byUse) parts.push(`${USE_NAMES[use]}: ${spellings.join(', ')}`);
  return parts.join('; ');
}

/** The README's tag vocabulary table, as the code declares it (one row per canonical value, then the people values). */
export function vocabularyTable(): string {
  const rows = [
    '| Field | Id | Label | Also read from (after lower-casing, dropping separators and words like "shot") | In search queries (spellings not listed are read wherever they stand) |',
    '|---|---|---|---|---|',
  ];
  for (const field of Object.keys(FIELD_NAMES) as (keyof typeof FIELD_NAMES)[]) {
    for (const e of TAG_VOCABULARY[field]) rows.push(`| ${FIELD_NAMES[field]} | \`${e.id}\` | ${e.label} | ${e.synonyms.join(', ')} | ${inQueries(e)} |`);
  }
  for (const v of PEOPLE_VALUES) rows.push(`| People | \`${v}\` | ${PEOPLE_LABELS[v]} | ${PEOPLE_VOCABULARY[v].synonyms.join(', ')} | ${inQueries(PEOPLE_VOCABULARY[v])} |`);
  return rows.join('\n');
}
