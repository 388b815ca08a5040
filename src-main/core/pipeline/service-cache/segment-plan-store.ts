import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import type { TensorService } from '../../tensors/chunk-upload';
import { SERVICES, type PlannedSegment, type SegmentRow } from './segment-rows';

/**
 * The owner of `segments` as the analysis plans them: a shot's chunks, each written with one
 * tensor_uploads row per service in the same transaction (the upload rows are born with their plan).
 */
export function createSegmentPlanStore(db: CatalogDb) {
  const insertSegment = () =>
    statement(db, 'INSERT INTO segments (clip_id, shot_id, chunk_idx, part, start_s, end_s, profile_id, frames, budget, content_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertUpload = () => statement(db, 'INSERT INTO tensor_uploads (segment_id, service, request_id, region) VALUES (?, ?, ?, ?)');

  return {
    segmentsOf(clipId: number, profileId: string): SegmentRow[] {
      return statement(db, 'SELECT * FROM segments WHERE clip_id = ? AND profile_id = ? ORDER BY shot_id, chunk_idx, part').all(clipId, profileId) as SegmentRow[];
    },

    segment(id: number): SegmentRow | undefined {
      return statement(db, 'SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow | undefined;
    },

    shotHasPlan(shotId: number, profileId: string): boolean {
      return statement(db, 'SELECT 1 FROM segments WHERE shot_id = ? AND profile_id = ? AND content_sha IS NOT NULL LIMIT 1').get(shotId, profileId) !== undefined;
    },

    /** Segments whose shot no longer exists are removed by cascade; these are segments of another profile. */
    dropOtherProfiles(clipId: number, profileId: string): number {
      return statement(db, 'DELETE FROM segments WHERE clip_id = ? AND profile_id <> ?').run(clipId, profileId).changes;
    },

    /** Writes a shot's plan (segments + one upload row per service) in one transaction. */
    insertPlan(clipId: number, shotId: number, profileId: string, budget: number, region: string, plan: readonly PlannedSegment[]): void {
      const insSeg = insertSegment();
      const insUp = insertUpload();
      db.transaction(() => {
        statement(db, 'DELETE FROM segments WHERE shot_id = ? AND profile_id = ?').run(shotId, profileId);
        for (const p of plan) {
          const id = Number(insSeg.run(clipId, shotId, p.chunkIdx, p.part, p.startS, p.endS, profileId, p.frames, budget, p.contentSha).lastInsertRowid);
          for (const s of SERVICES) insUp.run(id, s, p.requestIds[s], region);
        }
      })();
    },

    /**
     * After a 413: the segment is replaced by its two halves (new segments, new request ids). Its
     * upload rows, tasks and any result go with it; the halves start from scratch.
     */
    splitSegment(seg: SegmentRow, halves: readonly PlannedSegment[], region: string): number[] {
      const insSeg = insertSegment();
      const insUp = insertUpload();
      return db.transaction(() => {
        statement(db, 'DELETE FROM segments WHERE id = ?').run(seg.id);
        return halves.map((p) => {
          const id = Number(insSeg.run(seg.clip_id, seg.shot_id, p.chunkIdx, p.part, p.startS, p.endS, seg.profile_id, p.frames, seg.budget, p.contentSha).lastInsertRowid);
          for (const s of SERVICES) insUp.run(id, s, p.requestIds[s], region);
          return id;
        });
      })();
    },

    /** A rebuilt chunk differs from the plan (another ffmpeg build decodes differently): not yet uploaded, so adopt it. */
    updateContent(seg: SegmentRow, contentSha: string, requestIds: Record<TensorService, string>, region: string): void {
      db.transaction(() => {
        statement(db, 'UPDATE segments SET content_sha = ? WHERE id = ?').run(contentSha, seg.id);
        const upd = statement(db, 'UPDATE tensor_uploads SET request_id = ? WHERE segment_id = ? AND service = ? AND region = ? AND storage_keys_json IS NULL');
        for (const s of SERVICES) upd.run(requestIds[s], seg.id, s, region);
      })();
    },
  };
}
