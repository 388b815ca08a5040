import type { Migration } from '../migration';

/**
 * Shot detection moved into the analysis decode (one full decode per clip). A clip with an
 * unfinished shots job gets its analysis job in that state instead (running ones are queued
 * again, a clip that had none gets one); the analysis stage detects shots when the clip has none.
 */
export const m0019ShotsInAnalysisDecode: Migration = {
  version: 19,
  name: 'shot detection merged into analysis',
  up(db) {
    db.exec(`
      CREATE TEMP TABLE open_shots AS
        SELECT clip_id, CASE WHEN state = 'running' THEN 'queued' ELSE state END AS state, last_error_kind, last_error_message
        FROM jobs WHERE stage = 'shots' AND state NOT IN ('succeeded', 'cancelled');
      UPDATE jobs SET
          state = (SELECT o.state FROM open_shots o WHERE o.clip_id = jobs.clip_id),
          last_error_kind = (SELECT o.last_error_kind FROM open_shots o WHERE o.clip_id = jobs.clip_id),
          last_error_message = (SELECT o.last_error_message FROM open_shots o WHERE o.clip_id = jobs.clip_id),
          attempts = 0, progress = 0, finished_at = NULL, updated_at = CAST(strftime('%s','now') AS INTEGER) * 1000
        WHERE stage = 'analysis' AND clip_id IN (SELECT clip_id FROM open_shots);
      UPDATE jobs SET stage = 'analysis', state = (SELECT o.state FROM open_shots o WHERE o.clip_id = jobs.clip_id),
          attempts = 0, progress = 0, finished_at = NULL, updated_at = CAST(strftime('%s','now') AS INTEGER) * 1000
        WHERE stage = 'shots' AND clip_id IN (SELECT clip_id FROM open_shots)
          AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.clip_id = jobs.clip_id AND a.stage = 'analysis');
      DELETE FROM jobs WHERE stage = 'shots';
      DROP TABLE open_shots;
    `);
  },
};
