import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import type { TensorService } from '../../tensors/chunk-upload';
import type { SegmentRow, UploadRow } from './segment-rows';

/**
 * The owner of `tensor_uploads` once planned (segment-plan-store.ts writes the rows with their
 * segments): the sends, the storage keys the service answered and their losses.
 */
export function createTensorUploadStore(db: CatalogDb, segmentsOf: (clipId: number, profileId: string) => SegmentRow[]) {
  return {
    uploadsOf(clipId: number, profileId: string, region: string): (UploadRow & { seg: SegmentRow })[] {
      const rows = statement(
          db,
          `SELECT tu.*, s.id AS s_id FROM tensor_uploads tu JOIN segments s ON s.id = tu.segment_id
           WHERE s.clip_id = ? AND s.profile_id = ? AND tu.region = ? ORDER BY s.shot_id, s.chunk_idx, s.part, tu.service`,
        )
        .all(clipId, profileId, region) as (UploadRow & { s_id: number })[];
      const segs = new Map(segmentsOf(clipId, profileId).map((s) => [s.id, s]));
      return rows.map((r) => ({ ...r, seg: segs.get(r.s_id)! }));
    },

    upload(segmentId: number, service: TensorService, region: string): UploadRow | undefined {
      return statement(db, 'SELECT * FROM tensor_uploads WHERE segment_id = ? AND service = ? AND region = ?').get(segmentId, service, region) as UploadRow | undefined;
    },

    /** Keys an identical upload (same request id) already got: reused instead of uploading again. */
    knownKeys(requestId: string, region: string): string | null {
      const r = statement(db, 'SELECT storage_keys_json FROM tensor_uploads WHERE request_id = ? AND region = ? AND storage_keys_json IS NOT NULL LIMIT 1')
        .get(requestId, region) as { storage_keys_json: string } | undefined;
      return r?.storage_keys_json ?? null;
    },

    /** Written before the call: `sends` above 1 later shows a request id that had to be sent again. */
    noteUploadSend(uploadId: number): void {
      statement(db, 'UPDATE tensor_uploads SET sends = sends + 1 WHERE id = ?').run(uploadId);
    },

    recordKeys(uploadId: number, keysJson: string): void {
      statement(db, 'UPDATE tensor_uploads SET storage_keys_json = ?, uploaded_at = ? WHERE id = ?').run(keysJson, Date.now(), uploadId);
    },

    /**
     * The service no longer knows this segment's storage keys or its task (404): its upload must be
     * sent again and its task submitted again. Returns how many times that has now happened.
     */
    noteLoss(segmentId: number, kind: TensorService, region: string): number {
      return db.transaction(() => {
        statement(db, "UPDATE service_tasks SET task_id = NULL, status = 'pending' WHERE segment_id = ? AND kind = ? AND region = ?").run(segmentId, kind, region);
        const row = statement(db, 'UPDATE tensor_uploads SET storage_keys_json = NULL, uploaded_at = NULL, losses = losses + 1 WHERE segment_id = ? AND service = ? AND region = ? RETURNING losses')
          .get(segmentId, kind, region) as { losses: number } | undefined;
        return row?.losses ?? 1;
      })();
    },

    /** After a failed task: a new request id (suffix .rN) for a fresh upload and a fresh task. */
    renameForResubmit(uploadId: number, requestId: string): void {
      statement(db, 'UPDATE tensor_uploads SET request_id = ?, storage_keys_json = NULL, uploaded_at = NULL WHERE id = ?').run(requestId, uploadId);
    },
  };
}
