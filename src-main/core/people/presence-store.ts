import { z } from 'zod';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { foldedKey, nameKey } from './person-names';
import type { NamedPerson, PersonPresence, PersonSpan } from './person-presence';
import { spansFromSamples, type PersonSample } from './person-spans';

const personRow = z.object({ id: z.number(), uuid: z.string(), name: z.string(), hidden: z.number() });
// One row per face of the person; two faces of one sample (a mirror) make one sample in spansFromSamples.
// The rows are read as the catalog's own columns (no per-row parse): a person of 20,000 faces is read
// whole for every `@Name`, and parsing each row was most of that search's time (bench:people).
const SAMPLES = `
  SELECT p.name AS name, fp.person_id AS personId, sh.clip_id AS clipId, sh.id AS shotId, f.time_s AS timeS,
         sh.start_s AS shotStartS, sh.end_s AS shotEndS, sh.start_frame AS shotStartFrame, sh.end_frame AS shotEndFrame
    FROM face_people fp
    JOIN shot_faces f ON f.id = fp.face_id
    JOIN shots sh ON sh.id = f.shot_id
    JOIN people p ON p.id = fp.person_id`;

/**
 * The presence read model over `people`, `face_people`, `shot_faces` and `shots` (it writes
 * nothing). `stepS` is the face sampling interval (1 / the tensor profile's fps).
 */
export function createPresenceStore(db: CatalogDb, stepS: number): PersonPresence {
  const toPerson = (r: unknown): NamedPerson => {
    const p = personRow.parse(r);
    return { id: p.id, uuid: p.uuid, name: p.name, hidden: p.hidden === 1 };
  };
  return {
    personByName(name) {
      const exact = statement(db, 'SELECT id, uuid, name, hidden FROM people WHERE name_key = ?').get(nameKey(name));
      if (exact) return toPerson(exact);
      const folded = foldedKey(name);
      const all = statement(db, 'SELECT id, uuid, name, hidden FROM people WHERE name_key IS NOT NULL').all().map(toPerson);
      const matches = all.filter((p) => foldedKey(p.name) === folded);
      // "@Ana Maria" with both an "Ana María" and an "Ána Maria" known means neither for sure.
      return matches.length === 1 ? matches[0]! : null;
    },
    spansOf(personId) {
      const rows = statement(db, `${SAMPLES} WHERE fp.person_id = ? ORDER BY sh.clip_id, sh.id, f.time_s`).all(personId);
      return spansFromSamples(rows as PersonSample[], stepS);
    },
    namedSpansInClip(clipId) {
      // The people's names come with their samples: one read of the clip, not a second for the names.
      // A hidden person ("not a person of interest") is left out, as the cards and the viewer leave them out.
      const rows = statement(db, `${SAMPLES} WHERE sh.clip_id = ? AND p.name IS NOT NULL AND p.hidden = 0 ORDER BY fp.person_id, sh.id, f.time_s`).all(clipId) as (PersonSample & { name: string })[];
      const names = new Map(rows.map((r) => [r.personId, r.name]));
      const spans: PersonSpan[] = spansFromSamples(rows, stepS);
      return spans.map((s) => ({ ...s, name: names.get(s.personId)! })).sort((a, b) => a.startS - b.startS || a.name.localeCompare(b.name));
    },
  };
}
