import { TAG_VOCABULARY } from '../../src-main/core/tags/tag-vocabulary';

const FIELD_NAMES = { shotSize: 'Shot size', cameraMovement: 'Camera movement', shootingAngle: 'Shooting angle' } as const;

/** The README's tag vocabulary table, as the code declares it (one row per canonical value). */
export function vocabularyTable(): string {
  const rows = ['| Field | Id | Label | Also read from (after lower-casing, dropping separators and words like "shot") |', '|---|---|---|---|'];
  for (const field of Object.keys(FIELD_NAMES) as (keyof typeof FIELD_NAMES)[]) {
    for (const e of TAG_VOCABULARY[field]) rows.push(`| ${FIELD_NAMES[field]} | \`${e.id}\` | ${e.label} | ${e.synonyms.join(', ')} |`);
  }
  return rows.join('\n');
}
