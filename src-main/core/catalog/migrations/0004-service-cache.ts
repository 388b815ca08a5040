import type { Migration } from '../migration';

/**
 * What the service told us, cached so that browsing, tag filters and search work offline, and
 * what we told it, recorded so that a restart never uploads or submits the same work twice.
 */
export const m0004ServiceCache: Migration = {
  version: 4,
  name: 'service cache: segments, tensor uploads, tasks, embeddings, tags, collections',
  up(db) {
    db.exec(`
      -- A time range of a shot that maps to one tensor chunk, hence to one embedding.
      CREATE TABLE segments (
        id          INTEGER PRIMARY KEY,
        clip_id     INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        shot_id     INTEGER NOT NULL REFERENCES shots(id) ON DELETE CASCADE,
        chunk_idx   INTEGER NOT NULL,
        -- '' for a chunk as planned; after a 413 the halves are '0' and '1', their halves '00', '01'...
        part        TEXT NOT NULL DEFAULT '',
        start_s     REAL NOT NULL,
        end_s       REAL NOT NULL,
        profile_id  TEXT NOT NULL,
        frames      INTEGER,                     -- frames in the video tensor
        budget      INTEGER,                     -- byte budget the shot was chunked with (rebuilding needs it)
        content_sha TEXT,                        -- sha256 of video + audio + kwargs: the request ids derive from it
        UNIQUE (shot_id, chunk_idx, part, profile_id)
      );
      CREATE INDEX segments_clip ON segments(clip_id);

      -- One row per tensor upload; request_id is derived from content + profile, so it is stable across crashes.
      CREATE TABLE tensor_uploads (
        id                INTEGER PRIMARY KEY,
        segment_id        INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
        service           TEXT NOT NULL,           -- embedding | tagging
        request_id        TEXT NOT NULL,
        region            TEXT NOT NULL,
        storage_keys_json TEXT,                    -- NULL until the upload answered
        uploaded_at       INTEGER,
        sends             INTEGER NOT NULL DEFAULT 0, -- above 1 only when a crash or lost answer made us send the same request_id again
        UNIQUE (segment_id, service, region)
      );
      CREATE INDEX tensor_uploads_request ON tensor_uploads(request_id);

      -- Asynchronous tasks submitted with those storage keys: polled again after a restart.
      CREATE TABLE service_tasks (
        id             INTEGER PRIMARY KEY,
        segment_id     INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
        kind           TEXT NOT NULL,              -- embedding | tagging
        region         TEXT NOT NULL,
        task_id        TEXT,                       -- the request_id the service returned
        upload_request_id TEXT,                    -- request_id of the tensor upload whose keys were submitted
        status         TEXT NOT NULL,              -- submitting | pending | processing | completed | failed | unknown
        error_message  TEXT,
        sends          INTEGER NOT NULL DEFAULT 0, -- submit calls made for this row (see docs/notes-pipeline.md)
        resubmits      INTEGER NOT NULL DEFAULT 0, -- deliberate new submissions after the service reported failed
        polled_at      INTEGER,
        submitted_at   INTEGER,
        finished_at    INTEGER,
        UNIQUE (segment_id, kind, region)
      );
      CREATE INDEX service_tasks_upload ON service_tasks(upload_request_id);
      CREATE INDEX service_tasks_task ON service_tasks(task_id);

      CREATE TABLE embeddings (
        segment_id  INTEGER PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
        dim         INTEGER NOT NULL,
        vector      BLOB NOT NULL,                 -- float32 little-endian, dim values
        model       TEXT NOT NULL,
        region      TEXT NOT NULL,
        profile_id  TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );

      CREATE TABLE service_tags (
        segment_id      INTEGER PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
        raw_json        TEXT NOT NULL,             -- the tags exactly as received
        shot_size       TEXT,
        camera_movement TEXT,
        shooting_angle  TEXT,
        created_at      INTEGER NOT NULL
      );
      CREATE INDEX service_tags_shot_size ON service_tags(shot_size);
      CREATE INDEX service_tags_movement ON service_tags(camera_movement);
      CREATE INDEX service_tags_angle ON service_tags(shooting_angle);

      CREATE TABLE collections (
        id           TEXT NOT NULL,                -- the service's collection id
        region       TEXT NOT NULL,
        name         TEXT NOT NULL,
        description  TEXT,
        raw_json     TEXT,
        synced_at    INTEGER NOT NULL,
        PRIMARY KEY (id, region)
      );

      CREATE TABLE collection_videos (
        collection_id  TEXT NOT NULL,
        region         TEXT NOT NULL,
        clip_id        INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
        video_id       TEXT,                       -- NULL until the upload answered
        status         TEXT NOT NULL,              -- queued | uploading | uploaded | processing | processed | failed
        progress       REAL,
        error_message  TEXT,
        proxy_path     TEXT,
        updated_at     INTEGER NOT NULL,
        PRIMARY KEY (collection_id, region, clip_id)
      );
      CREATE UNIQUE INDEX collection_videos_video ON collection_videos(video_id) WHERE video_id IS NOT NULL;
    `);
  },
};
