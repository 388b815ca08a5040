import type { Migration } from '../migration';

/**
 * A collection member's presence as the team's server stamps it (team migration 0016): one field,
 * present or not, whose `presence_at` is the server's stamp of the version this catalog last saw (0:
 * none) and `presence_by` that version's seat, NULL while this catalog's add or removal waits for the
 * team's answer (it is sent with `presence_at` as its base; collections/collection-member-merge.ts).
 * `attached_at` stays the add's time here, which the upload's claim and the views use.
 *
 * Existing rows take the stamp of their presence as held (the removal's when removed, else the
 * add's) and its seat: another seat's version keeps its stamp; this catalog's own add or removal stays
 * pending with its own time as its base, so one still waiting lands when it is later than the
 * member's last change on the server, as under the old rule (team migration 0014 did so for marks).
 */
export const m0059MemberPresenceBase: Migration = {
  version: 59,
  name: 'collection members: the server stamp of the presence last seen',
  up(db) {
    db.exec(`
      ALTER TABLE collection_videos ADD COLUMN presence_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE collection_videos ADD COLUMN presence_by TEXT;
      UPDATE collection_videos SET presence_at = COALESCE(removed_at, attached_at, 0),
                                   presence_by = CASE WHEN removed_at IS NOT NULL THEN removed_by ELSE added_by END;
    `);
  },
};
