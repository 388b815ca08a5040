import type { Migration } from '../migration';

/**
 * How often the service forgot what it had for a segment (its storage keys or its task answered
 * 404: the service restarted, keys expired). One loss is recovered by one new upload and one new
 * submission; a second fails the clip with the reason (docs/notes-pipeline.md, "A service that forgets").
 */
export const m0008ServiceLosses: Migration = {
  version: 8,
  name: 'pipeline: losses of storage keys and tasks',
  up(db) {
    db.exec('ALTER TABLE tensor_uploads ADD COLUMN losses INTEGER NOT NULL DEFAULT 0;');
  },
};
