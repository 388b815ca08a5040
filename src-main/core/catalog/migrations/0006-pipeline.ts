import type { Migration } from '../migration';

/**
 * What the durable queue needs beyond the jobs table of 0001: run times (for the ETA), a progress
 * note, how often a job was found running after a crash (a job that keeps crashing the app is
 * failed instead of looping), the network pause that must survive a restart, and when a clip
 * finished indexing.
 */
export const m0006Pipeline: Migration = {
  version: 6,
  name: 'pipeline: job timing, queue flags, indexed clips',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN started_at INTEGER;
      ALTER TABLE jobs ADD COLUMN finished_at INTEGER;
      ALTER TABLE jobs ADD COLUMN run_ms INTEGER NOT NULL DEFAULT 0;   -- time spent running, all attempts
      ALTER TABLE jobs ADD COLUMN work_s REAL;                         -- media seconds the job covers (ETA unit)
      ALTER TABLE jobs ADD COLUMN note TEXT;                           -- short progress note for the Jobs view
      ALTER TABLE jobs ADD COLUMN recoveries INTEGER NOT NULL DEFAULT 0; -- found running at start-up
      CREATE INDEX jobs_clip ON jobs(clip_id);

      -- Queue-wide switches that outlive the process: the user's network pause, a quota pause.
      CREATE TABLE queue_flags (
        name        TEXT PRIMARY KEY,
        value_json  TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      ALTER TABLE clips ADD COLUMN indexed_at INTEGER;                 -- every segment has its embedding and tags
      ALTER TABLE clips ADD COLUMN indexed_profile TEXT;               -- tensor profile the index was made with
    `);
  },
};
