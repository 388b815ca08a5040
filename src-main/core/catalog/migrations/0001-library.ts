import type { Migration } from '../migration';

export const m0001Library: Migration = {
  version: 1,
  name: 'library: volumes, clips, shots, thumbnails, jobs',
  up(db) {
    db.exec(`
      CREATE TABLE volumes (
        id            INTEGER PRIMARY KEY,
        volume_key    TEXT NOT NULL UNIQUE,   -- stable identity of a drive/mount across reconnects
        mount_path    TEXT NOT NULL,          -- where it was last seen mounted
        label         TEXT,
        online        INTEGER NOT NULL DEFAULT 1,
        last_seen_at  INTEGER NOT NULL
      );

      CREATE TABLE clips (
        id             INTEGER PRIMARY KEY,
        volume_id      INTEGER NOT NULL REFERENCES volumes(id),
        rel_path       TEXT NOT NULL,         -- path on its volume, '/'-separated
        file_name      TEXT NOT NULL,
        size_bytes     INTEGER NOT NULL,
        mtime_ms       INTEGER NOT NULL,
        fingerprint    TEXT,                  -- hash of size + head + tail
        status         TEXT NOT NULL,         -- pending | ready | error | offline | missing
        status_reason  TEXT,
        error_kind     TEXT,
        container      TEXT,
        video_codec    TEXT,
        audio_codec    TEXT,
        duration_s     REAL,
        fps            REAL,
        vfr            INTEGER,
        width          INTEGER,
        height         INTEGER,
        rotation       INTEGER,
        audio_channels INTEGER,
        timecode       TEXT,
        probe_json     TEXT,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        UNIQUE (volume_id, rel_path)
      );
      CREATE INDEX clips_fingerprint ON clips(fingerprint);

      CREATE TABLE shots (
        id           INTEGER PRIMARY KEY,
        clip_id      INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        idx          INTEGER NOT NULL,
        start_s      REAL NOT NULL,
        end_s        REAL NOT NULL,
        start_frame  INTEGER,
        end_frame    INTEGER,
        cut_score    REAL,
        UNIQUE (clip_id, idx)
      );

      CREATE TABLE thumbnails (
        id        INTEGER PRIMARY KEY,
        clip_id   INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        shot_id   INTEGER REFERENCES shots(id) ON DELETE CASCADE,
        kind      TEXT NOT NULL,              -- poster | filmstrip
        path      TEXT NOT NULL,              -- relative to the thumbnail cache folder
        width     INTEGER,
        height    INTEGER,
        frames    INTEGER,                    -- filmstrip: frames in the sprite
        time_s    REAL
      );
      CREATE INDEX thumbnails_clip ON thumbnails(clip_id);

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
