import type { Migration } from '../migration';

/**
 * Clips that live at a URL ("Add by URL"): the service fetches and analyses them itself, nothing
 * is downloaded. They hang off one volume of their own (key 'url', never offline) so every
 * query that joins volumes keeps working; `source_url` tells the pipeline and the file hand-off
 * to leave them alone.
 */
export const m0017RemoteClips: Migration = {
  version: 17,
  name: 'clips that live at a URL',
  up(db) {
    db.exec(`
      ALTER TABLE clips ADD COLUMN source_url TEXT;
      CREATE UNIQUE INDEX clips_source_url ON clips(source_url) WHERE source_url IS NOT NULL;
    `);
  },
};
