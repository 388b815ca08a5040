import type { Migration } from '../migration';

/**
 * What an editor marks: a rating per clip, named ranges (subclips) with a note and a rating, and
 * free keywords on clips and ranges. Ranges are stored in frames of the rate they were marked at
 * (rate_num/rate_den), so they stay frame-exact in exports whatever float the probe reports. They
 * hang off the clip id, which survives re-import (unchanged/updated files keep their row) and
 * relink (the row moves); a relink onto an already catalogued file merges the two (marks-repository).
 */
export const m0016Marks: Migration = {
  version: 16,
  name: 'ratings, ranges and keywords',
  up(db) {
    db.exec(`
      CREATE TABLE clip_marks (
        clip_id    INTEGER PRIMARY KEY REFERENCES clips(id) ON DELETE CASCADE,
        rating     TEXT CHECK (rating IN ('favorite', 'reject')),
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE ranges (
        id         INTEGER PRIMARY KEY,
        clip_id    INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        in_frame   INTEGER NOT NULL CHECK (in_frame >= 0),
        out_frame  INTEGER NOT NULL,          -- exclusive
        rate_num   INTEGER NOT NULL,
        rate_den   INTEGER NOT NULL,
        name       TEXT NOT NULL,
        note       TEXT NOT NULL DEFAULT '',
        rating     TEXT CHECK (rating IN ('favorite', 'reject')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        CHECK (out_frame > in_frame)
      );
      CREATE INDEX ranges_clip ON ranges(clip_id);
      CREATE TABLE keywords (
        id       INTEGER PRIMARY KEY,
        clip_id  INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        range_id INTEGER REFERENCES ranges(id) ON DELETE CASCADE,
        keyword  TEXT NOT NULL COLLATE NOCASE
      );
      CREATE UNIQUE INDEX keywords_one ON keywords(clip_id, IFNULL(range_id, 0), keyword);
      CREATE INDEX keywords_word ON keywords(keyword);
    `);
  },
};
