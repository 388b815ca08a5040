import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import { float32ToBlob } from '../../catalog/vector-blob';
import type { TaskStatus } from './segment-rows';
import { segmentWriter } from './segment-plan-store';

type ServiceTags = Record<'shotSize' | 'cameraMovement' | 'shootingAngle', { id: string; confidence: number | null } | null>;
type ResultMeta = { model: string; region: string; profileId: string };

/**
 * A segment with its results as published: the columns of `team.segments` in a team library
 * (team/server/clip-results-store.ts), named as this owner's own rows are: a seat reads them here and
 * writes another seat's back in this shape, unchanged.
 */
export interface PublishedSegment {
  shot_idx: number;
  chunk_idx: number;
  part: string;
  start_s: number;
  end_s: number;
  frames: number | null;
  budget: number | null;
  content_sha: string | null;
  /** float32 little-endian, as the catalog stores it. */
  vector: Buffer;
  /** The service's tags as received. */
  tags_raw: string;
  shot_size: string | null;
  camera_movement: string | null;
  shooting_angle: string | null;
  shot_size_conf: number | null;
  camera_movement_conf: number | null;
  shooting_angle_conf: number | null;
}

/**
 * The owner of `embeddings` and `service_tags`: what the polls store for a task's segments, and
 * segments that arrive with their results at once (Add by URL, another seat's published clip).
 */
export function createSegmentResultsStore(db: CatalogDb, setTaskStatus: (taskId: string, region: string, status: TaskStatus) => void) {
  /**
   * Segments written with their embedding and tags at once (no uploads or tasks: nothing is sent from
   * here), replacing the clip's segments of the profile or of every profile, in one transaction.
   */
  function writeWithResults(
    clipId: number,
    rows: ReadonlyArray<Omit<PublishedSegment, 'shot_idx'> & { shot_id: number }>,
    meta: ResultMeta,
    replacing: 'this profile' | 'every profile',
  ): number[] {
    const insSeg = segmentWriter(db);
    const insEmb = statement(db, 'INSERT INTO embeddings (segment_id, dim, vector, model, region, profile_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insTag = statement(
      db,
      `INSERT INTO service_tags (segment_id, raw_json, shot_size, camera_movement, shooting_angle, shot_size_conf, camera_movement_conf, shooting_angle_conf, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    return db.transaction(() => {
      if (replacing === 'every profile') statement(db, 'DELETE FROM segments WHERE clip_id = ?').run(clipId);
      else statement(db, 'DELETE FROM segments WHERE clip_id = ? AND profile_id = ?').run(clipId, meta.profileId);
      return rows.map((r) => {
        const id = insSeg({ clipId, shotId: r.shot_id, chunkIdx: r.chunk_idx, part: r.part, startS: r.start_s, endS: r.end_s, profileId: meta.profileId, frames: r.frames, budget: r.budget, contentSha: r.content_sha });
        insEmb.run(id, r.vector.byteLength / 4, r.vector, meta.model, meta.region, meta.profileId, now);
        insTag.run(id, r.tags_raw, r.shot_size, r.camera_movement, r.shooting_angle, r.shot_size_conf, r.camera_movement_conf, r.shooting_angle_conf, now);
        return id;
      });
    })();
  }

  return {
    storeEmbedding(segmentIds: readonly number[], vector: readonly number[], meta: ResultMeta, taskId: string): void {
      const blob = float32ToBlob(vector);
      const now = Date.now();
      const ins = statement(
        db,
        `INSERT INTO embeddings (segment_id, dim, vector, model, region, profile_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (segment_id) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, model = excluded.model,
           region = excluded.region, profile_id = excluded.profile_id, created_at = excluded.created_at`,
      );
      db.transaction(() => {
        for (const id of segmentIds) ins.run(id, vector.length, blob, meta.model, meta.region, meta.profileId, now);
        setTaskStatus(taskId, meta.region, 'done');
      })();
    },

    /** Tag values are vocabulary ids; confidences as the service gave them (null when it gave none). */
    storeTags(segmentIds: readonly number[], rawJson: string, tags: ServiceTags, taskId: string, region: string): void {
      const now = Date.now();
      const ins = statement(
        db,
        `INSERT INTO service_tags (segment_id, raw_json, shot_size, camera_movement, shooting_angle, shot_size_conf, camera_movement_conf, shooting_angle_conf, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (segment_id) DO UPDATE SET raw_json = excluded.raw_json, shot_size = excluded.shot_size,
           camera_movement = excluded.camera_movement, shooting_angle = excluded.shooting_angle, shot_size_conf = excluded.shot_size_conf,
           camera_movement_conf = excluded.camera_movement_conf, shooting_angle_conf = excluded.shooting_angle_conf, created_at = excluded.created_at`,
      );
      const { shotSize: a, cameraMovement: b, shootingAngle: c } = tags;
      db.transaction(() => {
        for (const id of segmentIds) ins.run(id, rawJson, a?.id ?? null, b?.id ?? null, c?.id ?? null, a?.confidence ?? null, b?.confidence ?? null, c?.confidence ?? null, now);
        setTaskStatus(taskId, region, 'done');
      })();
    },

    /**
     * Results the service computed from a URL (Add by URL): no tensors, uploads or tasks, so the
     * segments are written with their embedding and tags at once, one per vector over the shot.
     */
    insertFetchedSegments(
      clipId: number,
      shotId: number,
      spans: readonly { startS: number; endS: number; vector: readonly number[] }[],
      tags: ServiceTags,
      rawTagsJson: string,
      meta: ResultMeta,
    ): number[] {
      const { shotSize: a, cameraMovement: b, shootingAngle: c } = tags;
      const rows = spans.map((sp, i) => ({
        shot_id: shotId,
        chunk_idx: i,
        part: '',
        start_s: sp.startS,
        end_s: sp.endS,
        frames: null,
        budget: null,
        content_sha: null,
        vector: float32ToBlob(sp.vector),
        tags_raw: rawTagsJson,
        shot_size: a?.id ?? null,
        camera_movement: b?.id ?? null,
        shooting_angle: c?.id ?? null,
        shot_size_conf: a?.confidence ?? null,
        camera_movement_conf: b?.confidence ?? null,
        shooting_angle_conf: c?.confidence ?? null,
      }));
      return writeWithResults(clipId, rows, meta, 'every profile');
    },

    /**
     * Every segment of a clip with its shot's index, embedding and tags: what a seat of a team library
     * publishes once the clip is indexed (team/syncs/clip-sharing.ts).
     */
    resultsOf(clipId: number, profileId: string): PublishedSegment[] {
      return statement(
        db,
        `SELECT sh.idx AS shot_idx, s.chunk_idx, s.part, s.start_s, s.end_s, s.frames, s.budget, s.content_sha, e.vector,
                t.raw_json AS tags_raw, t.shot_size, t.camera_movement, t.shooting_angle, t.shot_size_conf, t.camera_movement_conf, t.shooting_angle_conf
           FROM segments s JOIN shots sh ON sh.id = s.shot_id JOIN embeddings e ON e.segment_id = s.id JOIN service_tags t ON t.segment_id = s.id
          WHERE s.clip_id = ? AND s.profile_id = ?
          ORDER BY sh.idx, s.chunk_idx, s.part`,
      ).all(clipId, profileId) as PublishedSegment[];
    },

    /**
     * Another seat's published results of this clip, written as if this seat had computed them: the
     * segments (by shot index, onto this catalog's shot ids) with their embedding and tags, replacing
     * whatever segments of the profile the clip had. No upload or task rows: nothing was sent from here.
     */
    insertPublished(clipId: number, shotIdByIdx: ReadonlyMap<number, number>, rows: readonly PublishedSegment[], meta: ResultMeta): number {
      const placed = rows.flatMap((r) => {
        const shotId = shotIdByIdx.get(r.shot_idx);
        return shotId === undefined ? [] : [{ ...r, shot_id: shotId }];
      });
      return writeWithResults(clipId, placed, meta, 'this profile').length;
    },
  };
}
