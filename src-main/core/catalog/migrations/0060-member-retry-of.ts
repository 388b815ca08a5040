import type { Migration } from '../migration';

/**
 * A collection member retried after the service failed its video names that video
 * (`replaces_video_id`): the team's upload claim takes over a failed video only from a seat that
 * names it (team-collection-store.ts), so no seat's clock is compared with the server's, and the
 * failed video coming back from the team's feed does not undo the retry.
 *
 * Rows queued for such a retry before this migration do not know the video: their claim adopts the
 * team's failed video again, and the editor's next Retry names it (nothing is uploaded twice).
 */
export const m0060MemberRetryOf: Migration = {
  version: 60,
  name: 'collection members: the failed video a retry replaces',
  up(db) {
    db.exec('ALTER TABLE collection_videos ADD COLUMN replaces_video_id TEXT');
  },
};
