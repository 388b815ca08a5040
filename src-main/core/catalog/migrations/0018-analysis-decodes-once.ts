import type { Migration } from '../migration';

/**
 * The thumbnails and tensors stages were merged into analysis (one decode per clip after shot
 * detection makes the posters, the filmstrip, faces, motion and the tensors). A clip with an
 * unfinished job of either old stage gets an analysis job in that state instead (running ones
 * are queued again); the merged stage redoes only what the catalog lacks.
 */
export const m0018AnalysisDecodesOnce: Migration = {
  version: 18,
  name: 'thumbnails and tensors merged into analysis',
  up(db) {
    db.exec(`
      CREATE TEMP TABLE merged_jobs AS
        SELECT clip_id, CASE WHEN state = 'running' THEN 'queued' ELSE state END AS state,
               priority, last_error_kind, last_error_message, work_s
        FROM jobs j
        WHERE stage IN ('thumbnails', 'tensors') AND state NOT IN ('succeeded', 'cancelled')
          AND id = (SELECT MAX(id) FROM jobs k WHERE k.clip_id = j.clip_id AND k.stage IN ('thumbnails', 'tensors')
                    AND k.state NOT IN ('succeeded', 'cancelled'));
      UPDATE jobs SET
          state = (SELECT m.state FROM merged_jobs m WHERE m.clip_id = jobs.clip_id),
          last_error_kind = (SELECT m.last_error_kind FROM merged_jobs m WHERE m.clip_id = jobs.clip_id),
          last_error_message = (SELECT m.last_error_message FROM merged_jobs m WHERE m.clip_id = jobs.clip_id),
          attempts = 0, progress = 0, finished_at = NULL, updated_at = CAST(strftime('%s','now') AS INTEGER) * 1000
        WHERE stage = 'analysis' AND clip_id IN (SELECT clip_id FROM merged_jobs);
      INSERT INTO jobs (clip_id, stage, state, resource, priority, attempts, progress, last_error_kind, last_error_message, created_at, updated_at, work_s)
        SELECT m.clip_id, 'analysis', m.state, 'cpu', m.priority, 0, 0, m.last_error_kind, m.last_error_message,
               CAST(strftime('%s','now') AS INTEGER) * 1000, CAST(strftime('%s','now') AS INTEGER) * 1000, m.work_s
        FROM merged_jobs m
        WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.clip_id = m.clip_id AND j.stage = 'analysis');
      DELETE FROM jobs WHERE stage IN ('thumbnails', 'tensors');
      DROP TABLE merged_jobs;
    `);
  },
};
