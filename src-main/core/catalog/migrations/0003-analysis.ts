import type { Migration } from '../migration';

/**
 * Local preprocessing results per shot: faces per sampled frame, the camera-motion estimate, and
 * tags made on this machine. Everything here is recomputable from the footage, so rows are
 * replaced wholesale when a shot is analysed again.
 */
export const m0003Analysis: Migration = {
  version: 3,
  name: 'analysis: per-shot faces, camera motion, local tags',
  up(db) {
    db.exec(`
      CREATE TABLE shot_analysis (
        shot_id            INTEGER PRIMARY KEY REFERENCES shots(id) ON DELETE CASCADE,
        profile_id         TEXT NOT NULL,       -- tensor profile whose frame grid was sampled
        face_model         TEXT NOT NULL,       -- model file name, so a model change can trigger re-analysis
        frames_sampled     INTEGER NOT NULL,
        frames_with_faces  INTEGER NOT NULL,
        largest_face_h     REAL,                -- median over frames with a face of the largest face's height / picture height
        max_faces          INTEGER NOT NULL,
        motion_movement    TEXT,                -- pan left|pan right|tilt up|tilt down|zoom in|zoom out|static|handheld; NULL: not measurable
        motion_magnitude   REAL,
        motion_confidence  REAL,
        pan_speed          REAL,                -- frame widths/s, > 0 = pan right (content moves left)
        tilt_speed         REAL,                -- frame widths/s, > 0 = tilt up (content moves down)
        zoom_rate          REAL,                -- ln(scale)/s, > 0 = zoom in
        jitter             REAL,                -- frame widths/s of step-to-step shake
        motion_steps       INTEGER NOT NULL,
        motion_valid_steps INTEGER NOT NULL,
        analyzed_at        INTEGER NOT NULL
      );

      -- One row per detected face per sampled frame; coordinates are fractions of the picture.
      CREATE TABLE shot_faces (
        id             INTEGER PRIMARY KEY,
        shot_id        INTEGER NOT NULL REFERENCES shots(id) ON DELETE CASCADE,
        frame_idx      INTEGER NOT NULL,        -- index among the shot's sampled frames
        time_s         REAL NOT NULL,           -- seconds from clip start
        x              REAL NOT NULL,
        y              REAL NOT NULL,
        w              REAL NOT NULL,
        h              REAL NOT NULL,
        score          REAL NOT NULL,
        landmarks_json TEXT NOT NULL            -- [x0,y0,...,x4,y4]: eyes, nose, mouth corners
      );
      CREATE INDEX shot_faces_shot ON shot_faces(shot_id, frame_idx);

      -- Tags made offline; service tags live in service_tags. source is always 'local' here,
      -- stored anyway so a union of both tables can be filtered by it.
      CREATE TABLE shot_local_tags (
        shot_id     INTEGER NOT NULL REFERENCES shots(id) ON DELETE CASCADE,
        category    TEXT NOT NULL,              -- shot_size | camera_movement
        value       TEXT NOT NULL,
        confidence  REAL NOT NULL,
        magnitude   REAL,
        source      TEXT NOT NULL DEFAULT 'local' CHECK (source = 'local'),
        PRIMARY KEY (shot_id, category, value)
      );
      CREATE INDEX shot_local_tags_value ON shot_local_tags(category, value);
    `);
  },
};
