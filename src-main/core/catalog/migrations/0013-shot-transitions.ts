import type { Migration } from '../migration';

/**
 * How a shot begins: transition_kind 'cut' | 'dissolve' | 'fade' (null for a clip's first shot) and,
 * for a gradual transition, its span (transition_start_s..transition_end_s); the shot's start_s is
 * the transition's middle (docs/notes-library.md, shot detection).
 */
export const m0013ShotTransitions: Migration = {
  version: 13,
  name: 'shot transitions: kind and span of the boundary that opens a shot',
  up(db) {
    db.exec(`
      ALTER TABLE shots ADD COLUMN transition_kind TEXT CHECK (transition_kind IN ('cut', 'dissolve', 'fade'));
      ALTER TABLE shots ADD COLUMN transition_start_s REAL;
      ALTER TABLE shots ADD COLUMN transition_end_s REAL;
    `);
  },
};
