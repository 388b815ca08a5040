import type { Migration } from '../migration';

/**
 * What the collection uploads need beyond 0004: the error kind (so the UI can tell a quota pause
 * from a rejected file), whether the original or a proxy is sent, and how many uploads were started
 * (above 1 only when a crash or cancel cut an upload before the service answered).
 */
export const m0007CollectionUploads: Migration = {
  version: 7,
  name: 'collections: upload bookkeeping',
  up(db) {
    db.exec(`
      ALTER TABLE collection_videos ADD COLUMN error_kind TEXT;
      ALTER TABLE collection_videos ADD COLUMN source TEXT;           -- original | proxy
      ALTER TABLE collection_videos ADD COLUMN uploads INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE collection_videos ADD COLUMN attached_at INTEGER;
      CREATE INDEX collection_videos_clip ON collection_videos(clip_id);
      CREATE INDEX collection_videos_status ON collection_videos(status);
    `);
  },
};
