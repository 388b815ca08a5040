import type { Migration } from '../migration';

/**
 * Who started an import: the editor (a drop, a typed path) or the team library, whose other seats'
 * clips found on this seat's drives arrive through the same import (library/team-clip-arrivals.ts).
 * The Library's summary names it, so 300 clips added after a drop of one file are not a puzzle.
 */
export const m0049ImportOrigin: Migration = {
  version: 49,
  name: 'imports: editor or team',
  up(db) {
    db.exec(`ALTER TABLE imports ADD COLUMN origin TEXT NOT NULL DEFAULT 'editor' CHECK (origin IN ('editor', 'team'))`);
  },
};
