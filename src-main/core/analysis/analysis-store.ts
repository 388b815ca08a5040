import path from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { statement } from '../catalog/statements';
import type { CameraMotion, FaceBox, FaceIdentity, FrameFaceBoxes, LocalTag, ShotAnalysis } from './analysis-types';
import { frameOfSample, insertFaceIdentity, shotFramesOf, thumbsOfClip } from './face-identity-store';
import { CAMERA_MOVEMENTS, LOCAL_TAG_CATEGORIES } from './analysis-types';

/**
 * The owner of the local analysis's tables (shot_analysis, shot_faces, shot_local_tags): its one
 * writer, and the reads the pipeline makes of them. Search reads them through its own read models.
 * Each face's identity goes to face_identity (face-identity-store.ts) in the same transaction.
 */

export interface StoreAnalysisOptions {
  profileId: string;
  /** Path or name of the face model; only the file name is stored. */
  faceModel: string;
  now?: number;
}

/** One shot's analysis as stored: made here by the decode, or copied from a team seat that made it. */
export interface AnalysisRecord {
  shotId: number;
  framesSampled: number;
  /**
   * Landmarks and (recognition on) identities when this seat detected the faces; boxes only when
   * they came from another seat, which keeps its embeddings to itself.
   */
  faces: ReadonlyArray<{ frameIndex: number; timeS: number; faces: ReadonlyArray<FaceBox & { landmarks?: readonly number[]; identity?: FaceIdentity }> }>;
  motion: CameraMotion;
  localTags: readonly LocalTag[];
}

/**
 * Writes (replacing) the analysis of the given shots in one transaction: a crash leaves either the
 * old rows or the new ones. Tensors are not stored: they go to the service and are rebuilt from
 * the footage when needed.
 */
export function storeAnalysis(db: Database.Database, shots: readonly ShotAnalysis[], opts: StoreAnalysisOptions): void {
  storeAnalysisRecords(
    db,
    shots.map((s) => ({ shotId: s.shotId, framesSampled: s.frameTimes.length, faces: s.faces, motion: s.motion, localTags: s.localTags })),
    opts,
  );
}

/** The one writer of the three tables, for analysis made here or another seat's (team/syncs/clip-sharing.ts). */
export function storeAnalysisRecords(db: Database.Database, shots: readonly AnalysisRecord[], opts: StoreAnalysisOptions): void {
  const now = opts.now ?? Date.now();
  const model = path.basename(opts.faceModel);
  const delFaces = db.prepare('DELETE FROM shot_faces WHERE shot_id = ?');
  const delTags = db.prepare('DELETE FROM shot_local_tags WHERE shot_id = ?');
  const upsert = db.prepare(`
    INSERT INTO shot_analysis (shot_id, profile_id, face_model, frames_sampled, frames_with_faces, largest_face_h, max_faces,
      motion_movement, motion_magnitude, motion_confidence, pan_speed, tilt_speed, zoom_rate, jitter, motion_steps, motion_valid_steps, analyzed_at)
    VALUES (@shot_id, @profile_id, @face_model, @frames_sampled, @frames_with_faces, @largest_face_h, @max_faces,
      @motion_movement, @motion_magnitude, @motion_confidence, @pan_speed, @tilt_speed, @zoom_rate, @jitter, @motion_steps, @motion_valid_steps, @analyzed_at)
    ON CONFLICT (shot_id) DO UPDATE SET
      profile_id = excluded.profile_id, face_model = excluded.face_model, frames_sampled = excluded.frames_sampled,
      frames_with_faces = excluded.frames_with_faces, largest_face_h = excluded.largest_face_h, max_faces = excluded.max_faces,
      motion_movement = excluded.motion_movement, motion_magnitude = excluded.motion_magnitude, motion_confidence = excluded.motion_confidence,
      pan_speed = excluded.pan_speed, tilt_speed = excluded.tilt_speed, zoom_rate = excluded.zoom_rate, jitter = excluded.jitter,
      motion_steps = excluded.motion_steps, motion_valid_steps = excluded.motion_valid_steps, analyzed_at = excluded.analyzed_at`);
  const insFace = db.prepare(
    'INSERT INTO shot_faces (shot_id, frame_idx, time_s, x, y, w, h, score, landmarks_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insTag = db.prepare('INSERT INTO shot_local_tags (shot_id, category, value, confidence, magnitude, source) VALUES (?, ?, ?, ?, ?, ?)');

  const identitiesOf = (s: AnalysisRecord) => s.faces.flatMap((f) => f.faces.map((face) => face.identity)).filter((x): x is FaceIdentity => !!x);
  // Which faces keep a crop is decided over the clip's shots together: a person's strip gets several.
  const thumbsPerShot = thumbsOfClip(shots.map(identitiesOf));
  db.transaction(() => {
    for (const [k, s] of shots.entries()) {
      delFaces.run(s.shotId);
      delTags.run(s.shotId);
      let framesWithFaces = 0;
      let maxFaces = 0;
      const largest: number[] = [];
      const shot = identitiesOf(s).length > 0 ? shotFramesOf(db, s.shotId) : null;
      const keepThumbs = thumbsPerShot[k]!;
      let nth = 0;
      for (const f of s.faces) {
        if (f.faces.length > 0) {
          framesWithFaces++;
          largest.push(Math.max(...f.faces.map((x) => x.h)));
        }
        maxFaces = Math.max(maxFaces, f.faces.length);
        for (const face of f.faces) {
          const { lastInsertRowid } = insFace.run(s.shotId, f.frameIndex, f.timeS, face.x, face.y, face.w, face.h, face.score, JSON.stringify((face.landmarks ?? []).map((v) => Math.round(v * 1e4) / 1e4)));
          if (!face.identity || !shot) continue;
          const row = { faceId: Number(lastInsertRowid), clipId: shot.clip_id, frame: frameOfSample(shot, f.timeS), identity: face.identity, keepThumb: keepThumbs.has(nth++) };
          insertFaceIdentity(db, row);
        }
      }
      largest.sort((a, b) => a - b);
      const mid = largest.length >> 1;
      const largestFaceH = largest.length === 0 ? null : largest.length % 2 ? largest[mid]! : (largest[mid - 1]! + largest[mid]!) / 2;
      const m = s.motion;
      upsert.run({
        shot_id: s.shotId,
        profile_id: opts.profileId,
        face_model: model,
        frames_sampled: s.framesSampled,
        frames_with_faces: framesWithFaces,
        largest_face_h: largestFaceH,
        max_faces: maxFaces,
        motion_movement: m.movement,
        motion_magnitude: m.magnitude,
        motion_confidence: m.confidence,
        pan_speed: m.panSpeed,
        tilt_speed: m.tiltSpeed,
        zoom_rate: m.zoomRate,
        jitter: m.jitter,
        motion_steps: m.steps,
        motion_valid_steps: m.validSteps,
        analyzed_at: now,
      });
      for (const t of s.localTags) insTag.run(s.shotId, t.category, t.value, t.confidence, t.magnitude, t.source);
    }
  })();
}

const analysisRow = z.object({
  shot_id: z.number(),
  profile_id: z.string(),
  face_model: z.string(),
  frames_sampled: z.number(),
  motion_movement: z.enum(CAMERA_MOVEMENTS).nullable(),
  motion_magnitude: z.number().nullable(),
  motion_confidence: z.number().nullable(),
  pan_speed: z.number().nullable(),
  tilt_speed: z.number().nullable(),
  zoom_rate: z.number().nullable(),
  jitter: z.number().nullable(),
  motion_steps: z.number(),
  motion_valid_steps: z.number(),
  analyzed_at: z.number(),
});
const faceRow = z.object({
  frame_idx: z.number(),
  time_s: z.number(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  score: z.number(),
});
const tagRow = z.object({ category: z.enum(LOCAL_TAG_CATEGORIES), value: z.string(), confidence: z.number(), magnitude: z.number().nullable() });

/**
 * The faces stored for a shot, frame by frame in sampling order, the most confident first in each
 * frame: the analysis read back, and the viewer's face boxes (read at each shot the viewer shows:
 * compiled once per connection). Boxes only: the viewer draws rectangles and nothing reads the
 * landmarks back, so their JSON stays unread in the catalog.
 */
export function facesOfShot(db: Database.Database, shotId: number): FrameFaceBoxes[] {
  const faceRows = z.array(faceRow).parse(statement(db, 'SELECT frame_idx, time_s, x, y, w, h, score FROM shot_faces WHERE shot_id = ? ORDER BY frame_idx, score DESC').all(shotId));
  const frames = new Map<number, FrameFaceBoxes>();
  for (const r of faceRows) {
    const f = frames.get(r.frame_idx) ?? { frameIndex: r.frame_idx, timeS: r.time_s, faces: [] };
    f.faces.push({ x: r.x, y: r.y, w: r.w, h: r.h, score: r.score });
    frames.set(r.frame_idx, f);
  }
  return [...frames.values()];
}

export interface StoredShotAnalysis {
  shotId: number;
  profileId: string;
  faceModel: string;
  framesSampled: number;
  analyzedAt: number;
  faces: FrameFaceBoxes[];
  motion: CameraMotion;
  localTags: LocalTag[];
}

/** Reads one shot's stored analysis back; null when the shot has not been analysed. */
export function loadShotAnalysis(db: Database.Database, shotId: number): StoredShotAnalysis | null {
  const stored = db.prepare('SELECT * FROM shot_analysis WHERE shot_id = ?').get(shotId);
  if (stored === undefined) return null;
  const a = analysisRow.parse(stored);
  const localTags = z.array(tagRow).parse(db.prepare(`SELECT category, value, confidence, magnitude FROM shot_local_tags WHERE shot_id = ? ORDER BY category = 'camera_movement', category, value`).all(shotId));
  return {
    shotId: a.shot_id,
    profileId: a.profile_id,
    faceModel: a.face_model,
    framesSampled: a.frames_sampled,
    analyzedAt: a.analyzed_at,
    faces: facesOfShot(db, shotId),
    motion: {
      movement: a.motion_movement,
      magnitude: a.motion_magnitude ?? 0,
      confidence: a.motion_confidence ?? 0,
      panSpeed: a.pan_speed ?? 0,
      tiltSpeed: a.tilt_speed ?? 0,
      zoomRate: a.zoom_rate ?? 0,
      jitter: a.jitter ?? 0,
      steps: a.motion_steps,
      validSteps: a.motion_valid_steps,
    },
    localTags: localTags.map((t) => ({ ...t, source: 'local' as const })),
  };
}

/** How many of the shots have no analysis made with the profile (the analysis stage's "is there work left"). */
export function unanalysedShotCount(db: Database.Database, shotIds: readonly number[], profileId: string): number {
  const analysed = db.prepare('SELECT COUNT(*) AS n FROM shot_analysis WHERE shot_id IN (SELECT value FROM json_each(?)) AND profile_id = ?').get(JSON.stringify(shotIds), profileId) as { n: number };
  return new Set(shotIds).size - analysed.n;
}
