import type { Migration } from '../migration';

/**
 * When each region's collection list was last read from the service. It was taken from the
 * newest cached collection, so a service with no collections yet was never "synced": the view
 * said "Up to date with the service (never)" right after reading it.
 */
export const m0035CollectionSyncs: Migration = {
  version: 35,
  name: 'collection list syncs',
  up(db) {
    db.exec(`
      CREATE TABLE collection_syncs (
        region    TEXT PRIMARY KEY,
        synced_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO collection_syncs (region, synced_at) SELECT region, MAX(synced_at) FROM collections GROUP BY region;
    `);
  },
};
