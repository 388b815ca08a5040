import type { Migration } from '../migration';

/**
 * A seat of a team library (docs/notes-team-library.md): which team clip each local clip is (the team
 * knows clips by content fingerprint; ids differ per seat), where the seat's copy of the team's change
 * feed has got to, and whether a clip's results came from another seat. Solo catalogs keep both
 * tables empty; leaving a team keeps them (joining again resumes from the cursor).
 */
export const m0046TeamReplica: Migration = {
  version: 46,
  name: 'team replica: local clip to team clip, feed cursor',
  up(db) {
    db.exec(`
      CREATE TABLE team_clips (
        clip_id       INTEGER PRIMARY KEY REFERENCES clips(id) ON DELETE CASCADE,
        team_clip_id  INTEGER NOT NULL,
        -- the seat whose published results this clip's shots and segments are (NULL: this seat's own work)
        results_from  TEXT,
        -- when this seat's own results went to the team (NULL: not yet, e.g. made while the server was away)
        published_at  INTEGER,
        linked_at     INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX team_clips_team ON team_clips(team_clip_id);

      CREATE TABLE team_state (
        name   TEXT PRIMARY KEY,           -- 'cursor:<host>/<database>': the snapshot of the seat's last pull
        value  TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
