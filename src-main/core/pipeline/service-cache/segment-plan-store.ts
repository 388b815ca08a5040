import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import { partOfShot, shotsById, type ShotRow } from '../../library/shot-store';
import type { TensorService } from '../../tensors/chunk-upload';
import { SERVICES, type PlannedSegment, type SegmentRow } from './segment-rows';

/** A segment as written: its times, and where they fall on its shot's frames. */
export interface NewSegment {
  clipId: number;
  shotId: number;
  chunkIdx: number;
  part: string;
  startS: number;
  endS: number;
  profileId: string;
  frames: number | null;
  budget: number | null;
  contentSha: string | null;
}

/**
 * The one INSERT of `segments`: every writer (a plan, a 413's halves, results that arrive whole)
 * places the segment on its shot's frames (shot-store.ts partOfShot), so a result exports the
 * frames of its shot, never seconds rounded to a neighbouring frame.
 */
export function segmentWriter(db: CatalogDb): (s: NewSegment) => number {
  const ins = statement(
    db,
    'INSERT INTO segments (clip_id, shot_id, chunk_idx, part, start_s, end_s, start_frame, end_frame, profile_id, frames, budget, content_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // A plan writes several segments of one shot: its row is read once per writer, not per segment.
  const shots = new Map<number, ShotRow | undefined>();
  const shotOf = (id: number) => {
    if (!shots.has(id)) shots.set(id, shotsById(db, [id])[0]);
    return shots.get(id);
  };
  return (s) => {
    const shot = shotOf(s.shotId);
    const at = shot ? partOfShot(shot, s.startS, s.endS) : { startS: s.startS, endS: s.endS, startFrame: null, endFrame: null };
    return Number(ins.run(s.clipId, s.shotId, s.chunkIdx, s.part, at.startS, at.endS, at.startFrame, at.endFrame, s.profileId, s.frames, s.budget, s.contentSha).lastInsertRowid);
  };
}

/**
 * The owner of `segments` as the analysis plans them: a shot's chunks, each written with one
 * tensor_uploads row per service in the same transaction (the upload rows are born with their plan).
 */
export function createSegmentPlanStore(db: CatalogDb) {
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
      const insSeg = segmentWriter(db);
      const insUp = insertUpload();
      db.transaction(() => {
        statement(db, 'DELETE FROM segments WHERE shot_id = ? AND profile_id = ?').run(shotId, profileId);
        for (const p of plan) {
          const id = insSeg({ clipId, shotId, chunkIdx: p.chunkIdx, part: p.part, startS: p.startS, endS: p.endS, profileId, frames: p.frames, budget, contentSha: p.contentSha });
          for (const s of SERVICES) insUp.run(id, s, p.requestIds[s], region);
        }
      })();
    },

    /**
     * After a 413: the segment is replaced by its two halves (new segments, new request ids). Its
     * upload rows, tasks and any result go with it; the halves start from scratch.
     */
    splitSegment(seg: SegmentRow, halves: readonly PlannedSegment[], region: string): number[] {
      const insSeg = segmentWriter(db);
      const insUp = insertUpload();
      return db.transaction(() => {
        statement(db, 'DELETE FROM segments WHERE id = ?').run(seg.id);
        return halves.map((p) => {
          const id = insSeg({ clipId: seg.clip_id, shotId: seg.shot_id, chunkIdx: p.chunkIdx, part: p.part, startS: p.startS, endS: p.endS, profileId: seg.profile_id, frames: p.frames, budget: seg.budget, contentSha: p.contentSha });
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
