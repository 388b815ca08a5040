import type { Migration } from '../migration';

/**
 * `clips.decoded_s`: where the picture ends when a file decodes short of its duration (an
 * interrupted copy: "plays 1.3 s of 9.6 s"), NULL when it decodes whole. Such a clip is a Problem
 * (the Library's filter reads this column, not the reason's words) and stays searchable for what
 * was read. Catalogued clips get it from the note shot detection wrote then ("file ends early: only
 * 1.3 s of 9.6 s decode"), read here as frozen text.
 */
export const m0051DecodedPart: Migration = {
  version: 51,
  name: 'decoded part of a short file',
  up(db) {
    db.exec('ALTER TABLE clips ADD COLUMN decoded_s REAL');
    const rows = db.prepare("SELECT id, status_reason FROM clips WHERE status_reason LIKE '%file ends early: only %'").all() as { id: number; status_reason: string }[];
    const set = db.prepare('UPDATE clips SET decoded_s = ? WHERE id = ?');
    for (const r of rows) {
      const m = /file ends early: only ([\d.]+) s of/.exec(r.status_reason);
      if (m) set.run(Number(m[1]), r.id);
    }
  },
};
