import type { Migration } from '../migration';

/**
 * A collection member's presence as the team's server stamps it (team migration 0016): one field,
 * present or not, whose `presence_at` is the server's stamp of the version this catalog last saw (0:
 * none) and `presence_by` that version's seat, NULL while this catalog's add or removal waits for the
 * team's answer (it is sent with `presence_at` as its base; collections/collection-member-merge.ts).
 * `attached_at` stays the add's time here, which the upload's claim and the views use.
 *
 * Rows another seat's version made carry that version's stamp (the later of its add and removal);
 * this catalog's own rows are pending over no version, as they were unsent until answered.
 */
export const m0058MemberPresenceBase: Migration = {
  version: 58,
  name: 'collection members: the server stamp of the presence last seen',
  up(db) {
    db.exec(`
      ALTER TABLE collection_videos ADD COLUMN presence_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE collection_videos ADD COLUMN presence_by TEXT;
      UPDATE collection_videos SET presence_at = removed_at, presence_by = removed_by WHERE removed_by IS NOT NULL;
      UPDATE collection_videos SET presence_at = attached_at, presence_by = added_by WHERE removed_at IS NULL AND added_by IS NOT NULL;
    `);
  },
};
