import type { Migration } from '../migration';

/**
 * What the service forgot. tensor_uploads.losses: how often a segment's storage keys or task
 * answered 404 (the service restarted, keys expired); one loss is recovered by one new upload and one
 * new submission, a second fails the clip (docs/notes-pipeline.md, "A service that forgets").
 * collections.gone_at: the service's list no longer has a collection clips here are attached to.
 */
export const m0008ServiceLosses: Migration = {
  version: 8,
  name: 'what the service forgot: segment losses, collections gone',
  up(db) {
    db.exec(`
      ALTER TABLE tensor_uploads ADD COLUMN losses INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE collections ADD COLUMN gone_at INTEGER;
    `);
  },
};
