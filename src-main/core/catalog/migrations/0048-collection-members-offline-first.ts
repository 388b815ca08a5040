import type { Migration } from '../migration';

/**
 * Collections a team library shares (docs/notes-team-library.md): a clip's place in a collection
 * can come from another seat (`added_by`, that seat's id; NULL: this catalog's own add, at
 * `attached_at`) and be removed, here or elsewhere, as a tombstone (`removed_at`/`removed_by`: the
 * row stays, so a removal made offline is still sent, and an older add arriving later cannot bring it
 * back; reads skip it). Every change the team must hear of (an add, a removal, a video id, the
 * service's verdict) lists the row in `collection_outbox`, joined or not, until a team server has it.
 * `collection_waiting`: team clips whose members arrived before this seat had the clip.
 *
 * Rows made before this migration are listed in the outbox, so they are sent when the catalog joins a team.
 */
export const m0048CollectionMembersOfflineFirst: Migration = {
  version: 48,
  name: 'collections offline first: who added, removals, outbox',
  up(db) {
    db.exec(`
      UPDATE collection_videos SET attached_at = updated_at WHERE attached_at IS NULL;
      ALTER TABLE collection_videos ADD COLUMN added_by TEXT;
      ALTER TABLE collection_videos ADD COLUMN removed_at INTEGER;
      ALTER TABLE collection_videos ADD COLUMN removed_by TEXT;

      CREATE TABLE collection_outbox (
        collection_id TEXT NOT NULL,
        region        TEXT NOT NULL,
        clip_id       INTEGER NOT NULL,
        at            INTEGER NOT NULL,   -- the change's time: a push clears the entry only if no change came since
        PRIMARY KEY (collection_id, region, clip_id)
      ) WITHOUT ROWID;
      CREATE TABLE collection_waiting (
        team_clip_id INTEGER PRIMARY KEY
      );
      INSERT INTO collection_outbox (collection_id, region, clip_id, at) SELECT collection_id, region, clip_id, updated_at FROM collection_videos;
    `);
  },
};
