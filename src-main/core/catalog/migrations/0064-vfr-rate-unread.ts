import type { Migration } from '../migration';

/**
 * 0063 could move only the VFR clips whose picture times the viewer had kept, and it cannot tell
 * which it moved: every VFR clip of a file is marked here (`rate_unread`), and the background rate
 * job (pipeline/stages/rate-stage.ts) reads its first pictures' times when its file is reachable,
 * sets the rate they show and clears the mark; reading a clip 0063 already moved again changes
 * nothing. A probe clears the mark (it reads the rate the same way), so a clip probed from now on
 * never needs the job. Clips added by URL are left: they are read through a relay, and their rate
 * moves when they are added again.
 */
export const m0064VfrRateUnread: Migration = {
  version: 64,
  name: 'variable-rate clips probed before their rate was read from their pictures are marked for the background',
  up(db) {
    db.exec(`
      ALTER TABLE clips ADD COLUMN rate_unread INTEGER NOT NULL DEFAULT 0 CHECK (rate_unread IN (0, 1));
      UPDATE clips SET rate_unread = 1 WHERE vfr = 1 AND source_url IS NULL;
    `);
  },
};
