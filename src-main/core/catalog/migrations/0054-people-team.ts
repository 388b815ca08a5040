import type { Migration } from '../migration';

/**
 * People shared by a team library, offline first (issue 39 part 5; docs/notes-team-library.md). The
 * editor's naming is what a team shares, never a face: a person's name and hidden flag each keep the
 * time and seat of their last change (`*_by` NULL: this catalog's own editor; `named_at` is the
 * name's time already), so another seat's older change does not undo a newer one here.
 *
 * - `people_gone` (people/people-outbox-store.ts): people merged into another (`merged_into`) or
 *   forgotten (NULL), kept after their `people` row is deleted so that facts about them arriving
 *   later are read as the other person's, or dropped.
 * - `people_outbox`: every change to send, listed in the transaction that makes it, joined or not:
 *   a person (`key` their uuid: name, hidden, merge, forget) or a fact (`key` its row id).
 * - `people_waiting`: team clips whose facts arrived before this seat had the clip linked.
 *
 * Names, hidden flags and the editor's facts made before this migration are listed, so they are sent
 * when the catalog joins a team.
 */
export const m0054PeopleTeam: Migration = {
  version: 54,
  name: 'people shared by a team: times of names and hidden flags, merges and forgets kept, outbox',
  up(db) {
    db.exec(`
      ALTER TABLE people ADD COLUMN name_by TEXT;
      ALTER TABLE people ADD COLUMN hidden_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE people ADD COLUMN hidden_by TEXT;
      UPDATE people SET hidden_at = created_at WHERE hidden = 1;

      CREATE TABLE people_gone (
        uuid        TEXT PRIMARY KEY,
        merged_into TEXT,                 -- NULL: forgotten
        at          INTEGER NOT NULL,
        by_seat     TEXT                  -- NULL: this catalog's editor
      );

      CREATE TABLE people_outbox (
        kind TEXT NOT NULL CHECK (kind IN ('person', 'fact')),
        key  TEXT NOT NULL,
        at   INTEGER NOT NULL,
        PRIMARY KEY (kind, key)
      );

      CREATE TABLE people_waiting (team_clip_id INTEGER PRIMARY KEY);

      INSERT INTO people_outbox (kind, key, at) SELECT 'person', uuid, COALESCE(named_at, created_at) FROM people WHERE name IS NOT NULL OR hidden = 1;
      INSERT INTO people_outbox (kind, key, at) SELECT 'fact', CAST(id AS TEXT), at FROM people_facts WHERE by_seat IS NULL AND kind <> 'forget';
    `);
  },
};
