import type { Migration } from '../migration';

/**
 * The outcome of each import, with the files it skipped and why, so the Library view can show the
 * last summary after a restart and an editor can see what was left out.
 */
export const m0002ImportLog: Migration = {
  version: 2,
  name: 'library: import log',
  up(db) {
    db.exec(`
      CREATE TABLE imports (
        id           INTEGER PRIMARY KEY,
        roots_json   TEXT NOT NULL,           -- the paths the user dropped or typed
        state        TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
        added        INTEGER NOT NULL DEFAULT 0,
        updated      INTEGER NOT NULL DEFAULT 0,
        unchanged    INTEGER NOT NULL DEFAULT 0,
        relocated    INTEGER NOT NULL DEFAULT 0,
        missing      INTEGER NOT NULL DEFAULT 0,
        failed       INTEGER NOT NULL DEFAULT 0,   -- catalogued, but probing found a problem
        skipped      INTEGER NOT NULL DEFAULT 0,   -- not catalogued (hidden, unreadable, loop...)
        ignored      INTEGER NOT NULL DEFAULT 0,   -- not a video extension
        error        TEXT,
        started_at   INTEGER NOT NULL,
        finished_at  INTEGER
      );

      CREATE TABLE import_issues (
        id         INTEGER PRIMARY KEY,
        import_id  INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        path       TEXT NOT NULL,
        reason     TEXT NOT NULL,
        code       TEXT NOT NULL              -- hidden | system | symlink_loop | broken_symlink | unreadable | not_regular | vanished | error
      );
      CREATE INDEX import_issues_import ON import_issues(import_id);
    `);
  },
};
