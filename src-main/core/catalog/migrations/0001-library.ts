import type { Migration } from '../migration';

export const m0001Library: Migration = {
  version: 1,
  name: 'library: volumes, clips, shots, thumbnails, jobs',
  up(db) {
    db.exec(`
      CREATE TABLE volumes (
        id            INTEGER PRIMARY KEY,
        volume_key    TEXT NOT NULL UNIQUE,   -- stable identity of a drive/mount across reconnects (uuid, label, serial)
        mount_path    TEXT NOT NULL,          -- where it was last seen mounted
        label         TEXT,
        online        INTEGER NOT NULL DEFAULT 1,
        last_seen_at  INTEGER NOT NULL
      );

      CREATE TABLE clips (
        id             INTEGER PRIMARY KEY,
        volume_id      INTEGER NOT NULL REFERENCES volumes(id),
        rel_path       TEXT NOT NULL,         -- path on its volume, '/'-separated, no leading '/'
        file_name      TEXT NOT NULL,
        size_bytes     INTEGER NOT NULL,
        mtime_ms       INTEGER NOT NULL,
        fingerprint    TEXT,                  -- hash of size + first and last 64 KiB
        status         TEXT NOT NULL CHECK (status IN ('pending', 'probed', 'ready', 'error', 'unsupported')),
        status_reason  TEXT,                  -- readable sentence for error/unsupported (and warnings on ready)
        error_kind     TEXT,                  -- AppError kind when status is error/unsupported
        missing_at     INTEGER,               -- file not found at its path while its volume was online
        container      TEXT,
        video_codec    TEXT,
        audio_codec    TEXT,
        duration_s     REAL,
        fps            REAL,
        vfr            INTEGER,
        width          INTEGER,               -- as displayed (rotation applied)
        height         INTEGER,
        rotation       INTEGER,               -- clockwise degrees: 0/90/180/270
        audio_channels INTEGER,
        timecode       TEXT,
        bit_rate       INTEGER,
        frame_count    INTEGER,
        probe_json     TEXT,
        probed_at      INTEGER,
        shots_at       INTEGER,               -- shot detection finished for the current file
        thumbs_at      INTEGER,               -- posters and filmstrip written for the current shots
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        UNIQUE (volume_id, rel_path)
      );
      CREATE INDEX clips_fingerprint ON clips(fingerprint);
      CREATE INDEX clips_status ON clips(status);

      CREATE TABLE shots (
        id           INTEGER PRIMARY KEY,
        clip_id      INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        idx          INTEGER NOT NULL,
        start_s      REAL NOT NULL,
        end_s        REAL NOT NULL,
        start_frame  INTEGER,
        end_frame    INTEGER,                 -- exclusive
        cut_score    REAL,                    -- score of the cut opening this shot (NULL for the first)
        UNIQUE (clip_id, idx)
      );

      CREATE TABLE thumbnails (
        id        INTEGER PRIMARY KEY,
        clip_id   INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        shot_id   INTEGER REFERENCES shots(id) ON DELETE CASCADE,
        kind      TEXT NOT NULL CHECK (kind IN ('poster', 'filmstrip')),
        path      TEXT NOT NULL,              -- relative to the thumbnail cache folder, '/'-separated
        width     INTEGER,                    -- one frame (for a filmstrip: one tile of the sprite)
        height    INTEGER,
        frames    INTEGER,                    -- filmstrip: tiles side by side in the sprite
        time_s    REAL                        -- poster: time of the frame; filmstrip: NULL
      );
      CREATE INDEX thumbnails_clip ON thumbnails(clip_id);
      CREATE INDEX thumbnails_shot ON thumbnails(shot_id);

      CREATE TABLE jobs (
        id                 INTEGER PRIMARY KEY,
        clip_id            INTEGER REFERENCES clips(id) ON DELETE CASCADE,
        stage              TEXT NOT NULL,
        state              TEXT NOT NULL,      -- queued | running | succeeded | failed | paused | cancelled
        resource           TEXT NOT NULL,      -- cpu | network: bounded separately
        priority           INTEGER NOT NULL DEFAULT 0,
        attempts           INTEGER NOT NULL DEFAULT 0,
        progress           REAL NOT NULL DEFAULT 0,
        last_error_kind    TEXT,
        last_error_message TEXT,
        payload_json       TEXT,
        not_before         INTEGER,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL,
        UNIQUE (clip_id, stage)
      );
      CREATE INDEX jobs_runnable ON jobs(state, resource, priority DESC, id);
    `);
  },
};
