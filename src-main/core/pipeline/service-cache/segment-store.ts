import type { CatalogDb } from '../../catalog/open-catalog';
import { statement } from '../../catalog/statements';
import { partOfShot, shotCounts, shotsById, type PartOfShot } from '../../library/shot-store';
import { float32ToBlob } from '../../catalog/vector-blob';
import type { StorageKeys } from '../../service/responses/storage-keys';
import type { TensorService } from '../../tensors/chunk-upload';
import { applyClipEvent } from '../../library/clips-repository';
import type { PublishedSegment } from '../../team/server/clip-results-store';

/** Rows of the service cache (migration 0004) as the pipeline reads them. */
export interface SegmentRow {
  id: number;
  clip_id: number;
  shot_id: number;
  chunk_idx: number;
  part: string;
  /** Presentation times of its first frame and of the end of its last. */
  start_s: number;
  end_s: number;
  /** Decoded frame numbers, [start_frame, end_frame): Out exclusive, as `shots` (migration 0052); null for a shot without frames. */
  start_frame: number | null;
  end_frame: number | null;
  profile_id: string;
  frames: number | null;
  budget: number | null;
  content_sha: string | null;
}

export interface UploadRow {
  id: number;
  segment_id: number;
  service: TensorService;
  request_id: string;
  region: string;
  storage_keys_json: string | null;
  uploaded_at: number | null;
  sends: number;
}

/**
 * A task as stored: the service's own statuses (pending, processing, unknown, failed) as the client
 * parsed them, plus the pipeline's `submitting` (intent written before the call) and `done` (the
 * result is stored: the app's one word for finished; the service says `completed`).
 */
export type TaskStatus = 'submitting' | 'pending' | 'processing' | 'done' | 'failed' | 'unknown';

export interface TaskRow {
  id: number;
  segment_id: number;
  kind: TensorService;
  region: string;
  task_id: string | null;
  upload_request_id: string | null;
  status: TaskStatus;
  error_message: string | null;
  sends: number;
  resubmits: number;
  polled_at: number | null;
  submitted_at: number | null;
  finished_at: number | null;
}

/** The keys a submit needs, as recorded after an upload answered. */
export interface StoredKeys {
  video_input_key?: string;
  audio_input_key?: string;
  video_kwargs_key?: string;
}

export function storedKeysOf(k: StorageKeys): StoredKeys {
  const out: StoredKeys = {};
  if (k.videoInputKey) out.video_input_key = k.videoInputKey;
  if (k.audioInputKey) out.audio_input_key = k.audioInputKey;
  if (k.videoKwargsKey) out.video_kwargs_key = k.videoKwargsKey;
  return out;
}

export function parseStoredKeys(json: string | null): StoredKeys | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as StoredKeys;
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

/** A chunk as planned, ready to be written as a segment with its two upload rows. */
export interface PlannedSegment {
  chunkIdx: number;
  part: string;
  startS: number;
  endS: number;
  frames: number;
  contentSha: string;
  requestIds: Record<TensorService, string>;
}

export const SERVICES: readonly TensorService[] = ['embedding', 'tagging'];

/**
 * The owner of the service cache: segments, tensor_uploads (with the losses count), service_tasks,
 * embeddings and service_tags. Every read and write of them the stages make, nothing else writes
 * them; statements are compiled once per connection (catalog/statements.ts): the upload, submit and
 * poll stages run them per segment and per poll.
 */
export class SegmentStore {
  constructor(private readonly db: CatalogDb) {}

  /** A segment's times on its shot's frames (shot-store.ts partOfShot): every writer of segments places them so. */
  private place(shotId: number, startS: number, endS: number): PartOfShot {
    const [shot] = shotsById(this.db, [shotId]);
    return shot ? partOfShot(shot, startS, endS) : { startS, endS, startFrame: null, endFrame: null };
  }

  segmentsOf(clipId: number, profileId: string): SegmentRow[] {
    return statement(this.db, 'SELECT * FROM segments WHERE clip_id = ? AND profile_id = ? ORDER BY shot_id, chunk_idx, part').all(clipId, profileId) as SegmentRow[];
  }

  segment(id: number): SegmentRow | undefined {
    return statement(this.db, 'SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow | undefined;
  }

  shotHasPlan(shotId: number, profileId: string): boolean {
    return statement(this.db, 'SELECT 1 FROM segments WHERE shot_id = ? AND profile_id = ? AND content_sha IS NOT NULL LIMIT 1').get(shotId, profileId) !== undefined;
  }

  /** Segments whose shot no longer exists are removed by cascade; these are segments of another profile. */
  dropOtherProfiles(clipId: number, profileId: string): number {
    return statement(this.db, 'DELETE FROM segments WHERE clip_id = ? AND profile_id <> ?').run(clipId, profileId).changes;
  }

  /** Writes a shot's plan (segments + one upload row per service) in one transaction. */
  insertPlan(clipId: number, shotId: number, profileId: string, budget: number, region: string, plan: readonly PlannedSegment[]): void {
    const insSeg = statement(
      this.db,
      'INSERT INTO segments (clip_id, shot_id, chunk_idx, part, start_s, end_s, start_frame, end_frame, profile_id, frames, budget, content_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insUp = statement(this.db, 'INSERT INTO tensor_uploads (segment_id, service, request_id, region) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      statement(this.db, 'DELETE FROM segments WHERE shot_id = ? AND profile_id = ?').run(shotId, profileId);
      for (const p of plan) {
        const at = this.place(shotId, p.startS, p.endS);
        const id = Number(insSeg.run(clipId, shotId, p.chunkIdx, p.part, at.startS, at.endS, at.startFrame, at.endFrame, profileId, p.frames, budget, p.contentSha).lastInsertRowid);
        for (const s of SERVICES) insUp.run(id, s, p.requestIds[s], region);
      }
    })();
  }

  /**
   * After a 413: the segment is replaced by its two halves (new segments, new request ids). Its
   * upload rows, tasks and any result go with it; the halves start from scratch.
   */
  splitSegment(seg: SegmentRow, halves: readonly PlannedSegment[], region: string): number[] {
    const insSeg = statement(
      this.db,
      'INSERT INTO segments (clip_id, shot_id, chunk_idx, part, start_s, end_s, start_frame, end_frame, profile_id, frames, budget, content_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insUp = statement(this.db, 'INSERT INTO tensor_uploads (segment_id, service, request_id, region) VALUES (?, ?, ?, ?)');
    return this.db.transaction(() => {
      statement(this.db, 'DELETE FROM segments WHERE id = ?').run(seg.id);
      return halves.map((p) => {
        const at = this.place(seg.shot_id, p.startS, p.endS);
        const id = Number(insSeg.run(seg.clip_id, seg.shot_id, p.chunkIdx, p.part, at.startS, at.endS, at.startFrame, at.endFrame, seg.profile_id, p.frames, seg.budget, p.contentSha).lastInsertRowid);
        for (const s of SERVICES) insUp.run(id, s, p.requestIds[s], region);
        return id;
      });
    })();
  }

  uploadsOf(clipId: number, profileId: string, region: string): (UploadRow & { seg: SegmentRow })[] {
    const rows = statement(
        this.db,
        `SELECT tu.*, s.id AS s_id FROM tensor_uploads tu JOIN segments s ON s.id = tu.segment_id
         WHERE s.clip_id = ? AND s.profile_id = ? AND tu.region = ? ORDER BY s.shot_id, s.chunk_idx, s.part, tu.service`,
      )
      .all(clipId, profileId, region) as (UploadRow & { s_id: number })[];
    const segs = new Map(this.segmentsOf(clipId, profileId).map((s) => [s.id, s]));
    return rows.map((r) => ({ ...r, seg: segs.get(r.s_id)! }));
  }

  upload(segmentId: number, service: TensorService, region: string): UploadRow | undefined {
    return statement(this.db, 'SELECT * FROM tensor_uploads WHERE segment_id = ? AND service = ? AND region = ?').get(segmentId, service, region) as UploadRow | undefined;
  }

  /** Keys an identical upload (same request id) already got: reused instead of uploading again. */
  knownKeys(requestId: string, region: string): string | null {
    const r = statement(this.db, 'SELECT storage_keys_json FROM tensor_uploads WHERE request_id = ? AND region = ? AND storage_keys_json IS NOT NULL LIMIT 1')
      .get(requestId, region) as { storage_keys_json: string } | undefined;
    return r?.storage_keys_json ?? null;
  }

  /** Written before the call: `sends` above 1 later shows a request id that had to be sent again. */
  noteUploadSend(uploadId: number): void {
    statement(this.db, 'UPDATE tensor_uploads SET sends = sends + 1 WHERE id = ?').run(uploadId);
  }

  recordKeys(uploadId: number, keysJson: string): void {
    statement(this.db, 'UPDATE tensor_uploads SET storage_keys_json = ?, uploaded_at = ? WHERE id = ?').run(keysJson, Date.now(), uploadId);
  }

  /** The storage keys were refused (expired on the service): the next upload stage sends the tensors again. */
  /**
   * The service no longer knows this segment's storage keys or its task (404): its upload must be
   * sent again and its task submitted again. Returns how many times that has now happened.
   */
  noteLoss(segmentId: number, kind: TensorService, region: string): number {
    return this.db.transaction(() => {
      statement(this.db, "UPDATE service_tasks SET task_id = NULL, status = 'pending' WHERE segment_id = ? AND kind = ? AND region = ?").run(segmentId, kind, region);
      const row = statement(this.db, 'UPDATE tensor_uploads SET storage_keys_json = NULL, uploaded_at = NULL, losses = losses + 1 WHERE segment_id = ? AND service = ? AND region = ? RETURNING losses')
        .get(segmentId, kind, region) as { losses: number } | undefined;
      return row?.losses ?? 1;
    })();
  }

  /** A rebuilt chunk differs from the plan (another ffmpeg build decodes differently): not yet uploaded, so adopt it. */
  updateContent(seg: SegmentRow, contentSha: string, requestIds: Record<TensorService, string>, region: string): void {
    this.db.transaction(() => {
      statement(this.db, 'UPDATE segments SET content_sha = ? WHERE id = ?').run(contentSha, seg.id);
      const upd = statement(this.db, 'UPDATE tensor_uploads SET request_id = ? WHERE segment_id = ? AND service = ? AND region = ? AND storage_keys_json IS NULL');
      for (const s of SERVICES) upd.run(requestIds[s], seg.id, s, region);
    })();
  }

  /** After a failed task: a new request id (suffix .rN) for a fresh upload and a fresh task. */
  renameForResubmit(uploadId: number, requestId: string): void {
    statement(this.db, 'UPDATE tensor_uploads SET request_id = ?, storage_keys_json = NULL, uploaded_at = NULL WHERE id = ?').run(requestId, uploadId);
  }

  // ---- tasks --------------------------------------------------------------------------

  tasksOf(clipId: number, profileId: string, region: string): (TaskRow & { clip_id: number })[] {
    return statement(
        this.db,
        `SELECT st.*, s.clip_id FROM service_tasks st JOIN segments s ON s.id = st.segment_id
         WHERE s.clip_id = ? AND s.profile_id = ? AND st.region = ? ORDER BY st.segment_id, st.kind`,
      )
      .all(clipId, profileId, region) as (TaskRow & { clip_id: number })[];
  }

  task(segmentId: number, kind: TensorService, region: string): TaskRow | undefined {
    return statement(this.db, 'SELECT * FROM service_tasks WHERE segment_id = ? AND kind = ? AND region = ?').get(segmentId, kind, region) as TaskRow | undefined;
  }

  /** A live task for the same uploaded tensors (another segment with identical content): adopted, not resubmitted. */
  liveTaskFor(uploadRequestId: string, kind: TensorService, region: string): TaskRow | undefined {
    return statement(
        this.db,
        `SELECT * FROM service_tasks WHERE upload_request_id = ? AND kind = ? AND region = ? AND task_id IS NOT NULL
         AND status IN ('pending', 'processing', 'done', 'unknown') ORDER BY status = 'done' DESC LIMIT 1`,
      )
      .get(uploadRequestId, kind, region) as TaskRow | undefined;
  }

  /** The intent, written before the call: a crash after this leaves 'submitting', which the next run must resolve. */
  beginSubmit(segmentId: number, kind: TensorService, region: string, uploadRequestId: string): void {
    statement(
        this.db,
        `INSERT INTO service_tasks (segment_id, kind, region, upload_request_id, status, sends) VALUES (?, ?, ?, ?, 'submitting', 1)
         ON CONFLICT (segment_id, kind, region) DO UPDATE SET status = 'submitting', upload_request_id = excluded.upload_request_id,
           task_id = NULL, error_message = NULL, sends = sends + 1, finished_at = NULL`,
      )
      .run(segmentId, kind, region, uploadRequestId);
  }

  recordSubmitted(segmentId: number, kind: TensorService, region: string, taskId: string): void {
    statement(this.db, "UPDATE service_tasks SET task_id = ?, status = 'pending', submitted_at = ? WHERE segment_id = ? AND kind = ? AND region = ?")
      .run(taskId, Date.now(), segmentId, kind, region);
  }

  /** A task another seat of the team submitted for this segment's upload (team journal): polled, never sent from here. */
  recordTeamTask(segmentId: number, kind: TensorService, region: string, uploadRequestId: string, taskId: string): void {
    statement(
      this.db,
      `INSERT INTO service_tasks (segment_id, kind, region, upload_request_id, task_id, status, sends, submitted_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?)
       ON CONFLICT (segment_id, kind, region) DO UPDATE SET task_id = excluded.task_id, upload_request_id = excluded.upload_request_id, status = 'pending',
         error_message = NULL, submitted_at = excluded.submitted_at, finished_at = NULL`,
    ).run(segmentId, kind, region, uploadRequestId, taskId, Date.now());
  }

  adoptTask(segmentId: number, kind: TensorService, region: string, from: TaskRow): void {
    statement(
        this.db,
        `INSERT INTO service_tasks (segment_id, kind, region, task_id, upload_request_id, status, submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (segment_id, kind, region) DO UPDATE SET task_id = excluded.task_id, upload_request_id = excluded.upload_request_id,
           status = excluded.status, submitted_at = excluded.submitted_at, error_message = NULL`,
      )
      .run(segmentId, kind, region, from.task_id, from.upload_request_id, from.status === 'done' ? 'pending' : from.status, from.submitted_at ?? Date.now());
  }

  setTaskStatus(taskId: string, region: string, status: TaskStatus, errorMessage: string | null = null): void {
    const finished = status === 'done' || status === 'failed' ? Date.now() : null;
    statement(this.db, 'UPDATE service_tasks SET status = ?, error_message = ?, polled_at = ?, finished_at = COALESCE(?, finished_at) WHERE task_id = ? AND region = ?')
      .run(status, errorMessage, Date.now(), finished, taskId, region);
  }

  /** Segments waiting on a task id (several when identical content shares one task). */
  segmentsForTask(taskId: string, region: string): number[] {
    return (statement(this.db, 'SELECT segment_id FROM service_tasks WHERE task_id = ? AND region = ?').all(taskId, region) as { segment_id: number }[]).map(
      (r) => r.segment_id,
    );
  }

  noteResubmit(segmentId: number, kind: TensorService, region: string): void {
    statement(this.db, "UPDATE service_tasks SET resubmits = resubmits + 1, status = 'failed', task_id = NULL WHERE segment_id = ? AND kind = ? AND region = ?")
      .run(segmentId, kind, region);
  }

  // ---- results ------------------------------------------------------------------------

  storeEmbedding(segmentIds: readonly number[], vector: readonly number[], meta: { model: string; region: string; profileId: string }, taskId: string): void {
    const blob = float32ToBlob(vector);
    const now = Date.now();
    const ins = statement(
      this.db,
      `INSERT INTO embeddings (segment_id, dim, vector, model, region, profile_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (segment_id) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, model = excluded.model,
         region = excluded.region, profile_id = excluded.profile_id, created_at = excluded.created_at`,
    );
    this.db.transaction(() => {
      for (const id of segmentIds) ins.run(id, vector.length, blob, meta.model, meta.region, meta.profileId, now);
      this.setTaskStatus(taskId, meta.region, 'done');
    })();
  }

  /** Tag values are vocabulary ids; confidences as the service gave them (null when it gave none). */
  storeTags(segmentIds: readonly number[], rawJson: string, tags: Record<'shotSize' | 'cameraMovement' | 'shootingAngle', { id: string; confidence: number | null } | null>, taskId: string, region: string): void {
    const now = Date.now();
    const ins = statement(
      this.db,
      `INSERT INTO service_tags (segment_id, raw_json, shot_size, camera_movement, shooting_angle, shot_size_conf, camera_movement_conf, shooting_angle_conf, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (segment_id) DO UPDATE SET raw_json = excluded.raw_json, shot_size = excluded.shot_size,
         camera_movement = excluded.camera_movement, shooting_angle = excluded.shooting_angle, shot_size_conf = excluded.shot_size_conf,
         camera_movement_conf = excluded.camera_movement_conf, shooting_angle_conf = excluded.shooting_angle_conf, created_at = excluded.created_at`,
    );
    const { shotSize: a, cameraMovement: b, shootingAngle: c } = tags;
    this.db.transaction(() => {
      for (const id of segmentIds) ins.run(id, rawJson, a?.id ?? null, b?.id ?? null, c?.id ?? null, a?.confidence ?? null, b?.confidence ?? null, c?.confidence ?? null, now);
      this.setTaskStatus(taskId, region, 'done');
    })();
  }

  /**
   * Results the service computed from a URL (Add by URL): no tensors, uploads or tasks, so the
   * segments are written with their embedding and tags at once, one per vector over the shot.
   */
  insertFetchedSegments(
    clipId: number,
    shotId: number,
    spans: readonly { startS: number; endS: number; vector: readonly number[] }[],
    tags: Record<'shotSize' | 'cameraMovement' | 'shootingAngle', { id: string; confidence: number | null } | null>,
    rawTagsJson: string,
    meta: { model: string; region: string; profileId: string },
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
    return this.writeWithResults(clipId, rows, meta, 'every profile');
  }

  /**
   * Every segment of a clip with its shot's index, embedding and tags: what a seat of a team library
   * publishes once the clip is indexed (pipeline/clip-sharing.ts).
   */
  resultsOf(clipId: number, profileId: string): PublishedSegment[] {
    return statement(
      this.db,
      `SELECT sh.idx AS shot_idx, s.chunk_idx, s.part, s.start_s, s.end_s, s.frames, s.budget, s.content_sha, e.vector,
              t.raw_json AS tags_raw, t.shot_size, t.camera_movement, t.shooting_angle, t.shot_size_conf, t.camera_movement_conf, t.shooting_angle_conf
         FROM segments s JOIN shots sh ON sh.id = s.shot_id JOIN embeddings e ON e.segment_id = s.id JOIN service_tags t ON t.segment_id = s.id
        WHERE s.clip_id = ? AND s.profile_id = ?
        ORDER BY sh.idx, s.chunk_idx, s.part`,
    ).all(clipId, profileId) as PublishedSegment[];
  }

  /**
   * Another seat's published results of this clip, written as if this seat had computed them: the
   * segments (by shot index, onto this catalog's shot ids) with their embedding and tags, replacing
   * whatever segments of the profile the clip had. No upload or task rows: nothing was sent from here.
   */
  insertPublished(clipId: number, shotIdByIdx: ReadonlyMap<number, number>, rows: readonly PublishedSegment[], meta: { model: string; region: string; profileId: string }): number {
    const placed = rows.flatMap((r) => {
      const shotId = shotIdByIdx.get(r.shot_idx);
      return shotId === undefined ? [] : [{ ...r, shot_id: shotId }];
    });
    return this.writeWithResults(clipId, placed, meta, 'this profile').length;
  }

  /**
   * Segments written with their embedding and tags at once (no uploads or tasks: nothing is sent from
   * here), replacing the clip's segments of the profile or of every profile, in one transaction.
   */
  private writeWithResults(
    clipId: number,
    rows: ReadonlyArray<Omit<PublishedSegment, 'shot_idx'> & { shot_id: number }>,
    meta: { model: string; region: string; profileId: string },
    replacing: 'this profile' | 'every profile',
  ): number[] {
    const insSeg = statement(
      this.db,
      'INSERT INTO segments (clip_id, shot_id, chunk_idx, part, start_s, end_s, start_frame, end_frame, profile_id, frames, budget, content_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insEmb = statement(this.db, 'INSERT INTO embeddings (segment_id, dim, vector, model, region, profile_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insTag = statement(
      this.db,
      `INSERT INTO service_tags (segment_id, raw_json, shot_size, camera_movement, shooting_angle, shot_size_conf, camera_movement_conf, shooting_angle_conf, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    return this.db.transaction(() => {
      if (replacing === 'every profile') statement(this.db, 'DELETE FROM segments WHERE clip_id = ?').run(clipId);
      else statement(this.db, 'DELETE FROM segments WHERE clip_id = ? AND profile_id = ?').run(clipId, meta.profileId);
      return rows.map((r) => {
        const at = this.place(r.shot_id, r.start_s, r.end_s);
        const id = Number(insSeg.run(clipId, r.shot_id, r.chunk_idx, r.part, at.startS, at.endS, at.startFrame, at.endFrame, meta.profileId, r.frames, r.budget, r.content_sha).lastInsertRowid);
        insEmb.run(id, r.vector.byteLength / 4, r.vector, meta.model, meta.region, meta.profileId, now);
        insTag.run(id, r.tags_raw, r.shot_size, r.camera_movement, r.shooting_angle, r.shot_size_conf, r.camera_movement_conf, r.shooting_angle_conf, now);
        return id;
      });
    })();
  }

  /** A clip's segments with a profile (the Jobs view's count). */
  segmentCount(clipId: number, profileId: string): number {
    return (statement(this.db, 'SELECT COUNT(*) AS n FROM segments WHERE clip_id = ? AND profile_id = ?').get(clipId, profileId) as { n: number }).n;
  }

  /** A task the service failed for good is submitted afresh on the next run (a retry of its clip). */
  rearmFailedTasks(clipId: number, profileId: string, region: string): number {
    return statement(
        this.db,
        `UPDATE service_tasks SET task_id = NULL, resubmits = 0 WHERE status = 'failed' AND task_id IS NOT NULL AND region = ?
         AND segment_id IN (SELECT id FROM segments WHERE clip_id = ? AND profile_id = ?)`,
      )
      .run(region, clipId, profileId).changes;
  }

  /** How complete a clip's index is: every segment needs an embedding and tags; every shot a segment. */
  coverage(clipId: number, profileId: string): { shots: number; shotsWithSegments: number; segments: number; embedded: number; tagged: number } {
    const counts = statement(
      this.db,
      `SELECT
           (SELECT COUNT(DISTINCT shot_id) FROM segments WHERE clip_id = @c AND profile_id = @p) AS shotsWithSegments,
           (SELECT COUNT(*) FROM segments WHERE clip_id = @c AND profile_id = @p) AS segments,
           (SELECT COUNT(*) FROM segments s JOIN embeddings e ON e.segment_id = s.id WHERE s.clip_id = @c AND s.profile_id = @p) AS embedded,
           (SELECT COUNT(*) FROM segments s JOIN service_tags t ON t.segment_id = s.id WHERE s.clip_id = @c AND s.profile_id = @p) AS tagged`,
    ).get({ c: clipId, p: profileId }) as { shotsWithSegments: number; segments: number; embedded: number; tagged: number };
    // The shots are the library's (shot-store.ts, the owner of `shots`).
    return { shots: shotCounts(this.db, [clipId]).get(clipId) ?? 0, ...counts };
  }

  markIndexed(clipId: number, profileId: string): void {
    applyClipEvent(this.db, clipId, { type: 'indexed' }, {}, { indexedProfile: profileId });
  }

  clearIndexed(clipId: number): void {
    applyClipEvent(this.db, clipId, { type: 'indexCleared' });
  }
}
