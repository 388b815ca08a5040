import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import type { TensorService } from '../../tensors/chunk-upload';
import type { TaskRow, TaskStatus } from './segment-rows';

/**
 * The owner of `service_tasks`: one task per segment, service and region, from the intent written
 * before the submit to the status the polls read.
 */
export function createServiceTaskStore(db: CatalogDb) {
  return {
    tasksOf(clipId: number, profileId: string, region: string): (TaskRow & { clip_id: number })[] {
      return statement(
          db,
          `SELECT st.*, s.clip_id FROM service_tasks st JOIN segments s ON s.id = st.segment_id
           WHERE s.clip_id = ? AND s.profile_id = ? AND st.region = ? ORDER BY st.segment_id, st.kind`,
        )
        .all(clipId, profileId, region) as (TaskRow & { clip_id: number })[];
    },

    task(segmentId: number, kind: TensorService, region: string): TaskRow | undefined {
      return statement(db, 'SELECT * FROM service_tasks WHERE segment_id = ? AND kind = ? AND region = ?').get(segmentId, kind, region) as TaskRow | undefined;
    },

    /** A live task for the same uploaded tensors (another segment with identical content): adopted, not resubmitted. */
    liveTaskFor(uploadRequestId: string, kind: TensorService, region: string): TaskRow | undefined {
      return statement(
          db,
          `SELECT * FROM service_tasks WHERE upload_request_id = ? AND kind = ? AND region = ? AND task_id IS NOT NULL
           AND status IN ('pending', 'processing', 'done', 'unknown') ORDER BY status = 'done' DESC LIMIT 1`,
        )
        .get(uploadRequestId, kind, region) as TaskRow | undefined;
    },

    /** The intent, written before the call: a crash after this leaves 'submitting', which the next run must resolve. */
    beginSubmit(segmentId: number, kind: TensorService, region: string, uploadRequestId: string): void {
      statement(
          db,
          `INSERT INTO service_tasks (segment_id, kind, region, upload_request_id, status, sends) VALUES (?, ?, ?, ?, 'submitting', 1)
           ON CONFLICT (segment_id, kind, region) DO UPDATE SET status = 'submitting', upload_request_id = excluded.upload_request_id,
             task_id = NULL, error_message = NULL, sends = sends + 1, finished_at = NULL`,
        )
        .run(segmentId, kind, region, uploadRequestId);
    },

    recordSubmitted(segmentId: number, kind: TensorService, region: string, taskId: string): void {
      statement(db, "UPDATE service_tasks SET task_id = ?, status = 'pending', submitted_at = ? WHERE segment_id = ? AND kind = ? AND region = ?")
        .run(taskId, Date.now(), segmentId, kind, region);
    },

    /** A task another seat of the team submitted for this segment's upload (team journal): polled, never sent from here. */
    recordTeamTask(segmentId: number, kind: TensorService, region: string, uploadRequestId: string, taskId: string): void {
      statement(
        db,
        `INSERT INTO service_tasks (segment_id, kind, region, upload_request_id, task_id, status, sends, submitted_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?)
         ON CONFLICT (segment_id, kind, region) DO UPDATE SET task_id = excluded.task_id, upload_request_id = excluded.upload_request_id, status = 'pending',
           error_message = NULL, submitted_at = excluded.submitted_at, finished_at = NULL`,
      ).run(segmentId, kind, region, uploadRequestId, taskId, Date.now());
    },

    adoptTask(segmentId: number, kind: TensorService, region: string, from: TaskRow): void {
      statement(
          db,
          `INSERT INTO service_tasks (segment_id, kind, region, task_id, upload_request_id, status, submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (segment_id, kind, region) DO UPDATE SET task_id = excluded.task_id, upload_request_id = excluded.upload_request_id,
             status = excluded.status, submitted_at = excluded.submitted_at, error_message = NULL`,
        )
        .run(segmentId, kind, region, from.task_id, from.upload_request_id, from.status === 'done' ? 'pending' : from.status, from.submitted_at ?? Date.now());
    },

    setTaskStatus(taskId: string, region: string, status: TaskStatus, errorMessage: string | null = null): void {
      const finished = status === 'done' || status === 'failed' ? Date.now() : null;
      statement(db, 'UPDATE service_tasks SET status = ?, error_message = ?, polled_at = ?, finished_at = COALESCE(?, finished_at) WHERE task_id = ? AND region = ?')
        .run(status, errorMessage, Date.now(), finished, taskId, region);
    },

    /** Segments waiting on a task id (several when identical content shares one task). */
    segmentsForTask(taskId: string, region: string): number[] {
      return (statement(db, 'SELECT segment_id FROM service_tasks WHERE task_id = ? AND region = ?').all(taskId, region) as { segment_id: number }[]).map(
        (r) => r.segment_id,
      );
    },

    noteResubmit(segmentId: number, kind: TensorService, region: string): void {
      statement(db, "UPDATE service_tasks SET resubmits = resubmits + 1, status = 'failed', task_id = NULL WHERE segment_id = ? AND kind = ? AND region = ?")
        .run(segmentId, kind, region);
    },

    /** A task the service failed for good is submitted afresh on the next run (a retry of its clip). */
    rearmFailedTasks(clipId: number, profileId: string, region: string): number {
      return statement(
          db,
          `UPDATE service_tasks SET task_id = NULL, resubmits = 0 WHERE status = 'failed' AND task_id IS NOT NULL AND region = ?
           AND segment_id IN (SELECT id FROM segments WHERE clip_id = ? AND profile_id = ?)`,
        )
        .run(region, clipId, profileId).changes;
    },
  };
}
