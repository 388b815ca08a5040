import { randomUUID } from 'node:crypto';
import type { Migration } from '../migration';

/**
 * Marks that a team library can share, offline first (docs/notes-team-library.md section 5): each
 * mergeable field of a range and a clip's rating keeps the time and the seat of its last change
 * (`*_by` NULL: this catalog's own edit), ranges get a uuid that is theirs on every seat, a deleted
 * range stays as a tombstone (deleted_at) and a removed keyword as a removal (removed_at), so a
 * change made elsewhere earlier cannot bring them back. Every edit, joined or not, lists its row in
 * `marks_outbox` until a team server has it. `marks_clock` makes each edit's time later than the
 * last one this catalog made or saw. `marks_waiting`: team clips whose marks arrived before this
 * seat had the clip (taken again once it is linked).
 *
 * Marks made before this migration are stamped with their last change (keywords, which had no time,
 * with the migration's) and listed in the outbox, so they are sent when the catalog joins a team.
 */
export const m0047MarksOfflineFirst: Migration = {
  version: 47,
  name: 'marks offline first: per-field times, uuids, tombstones, outbox',
  up(db) {
    const now = Date.now();
    db.exec(`
      ALTER TABLE ranges ADD COLUMN uuid TEXT;
      ALTER TABLE ranges ADD COLUMN span_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ranges ADD COLUMN span_by TEXT;
      ALTER TABLE ranges ADD COLUMN name_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ranges ADD COLUMN name_by TEXT;
      ALTER TABLE ranges ADD COLUMN note_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ranges ADD COLUMN note_by TEXT;
      ALTER TABLE ranges ADD COLUMN rating_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ranges ADD COLUMN rating_by TEXT;
      ALTER TABLE ranges ADD COLUMN created_by TEXT;
      ALTER TABLE ranges ADD COLUMN deleted_at INTEGER;
      ALTER TABLE ranges ADD COLUMN deleted_by TEXT;
      UPDATE ranges SET span_at = updated_at, name_at = updated_at, note_at = updated_at, rating_at = updated_at;
      ALTER TABLE ranges DROP COLUMN updated_at;

      ALTER TABLE keywords ADD COLUMN added_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE keywords ADD COLUMN added_by TEXT;
      ALTER TABLE keywords ADD COLUMN removed_at INTEGER;
      ALTER TABLE keywords ADD COLUMN removed_by TEXT;

      ALTER TABLE clip_marks RENAME COLUMN updated_at TO rating_at;
      ALTER TABLE clip_marks ADD COLUMN rating_by TEXT;

      CREATE TABLE marks_outbox (
        kind   TEXT NOT NULL CHECK (kind IN ('range', 'keyword', 'clip')),
        row_id INTEGER NOT NULL,        -- ranges.id, keywords.id, clip_marks.clip_id
        at     INTEGER NOT NULL,        -- the edit's time: a push clears the entry only if no edit came since
        PRIMARY KEY (kind, row_id)
      ) WITHOUT ROWID;
      CREATE TABLE marks_clock (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        last_at INTEGER NOT NULL
      );
      CREATE TABLE marks_waiting (
        team_clip_id INTEGER PRIMARY KEY
      );
    `);
    db.prepare('UPDATE keywords SET added_at = ?').run(now);
    const setUuid = db.prepare('UPDATE ranges SET uuid = ? WHERE id = ?');
    for (const { id } of db.prepare('SELECT id FROM ranges').all() as { id: number }[]) setUuid.run(randomUUID(), id);
    db.exec(`
      CREATE UNIQUE INDEX ranges_uuid ON ranges(uuid);
      INSERT INTO marks_outbox (kind, row_id, at) SELECT 'range', id, span_at FROM ranges;
      INSERT INTO marks_outbox (kind, row_id, at) SELECT 'keyword', id, added_at FROM keywords;
      INSERT INTO marks_outbox (kind, row_id, at) SELECT 'clip', clip_id, rating_at FROM clip_marks;
    `);
    db.prepare('INSERT INTO marks_clock (id, last_at) VALUES (1, MAX(?, (SELECT IFNULL(MAX(at), 0) FROM marks_outbox)))').run(now);
  },
};
