-- What indexing a clip produced, published once for the whole team by the seat that held the clip's
-- lease (docs/notes-team-library.md "Built so far"): the shots with their local analysis, and every
-- segment with its embedding and tags. Other seats copy them into their own catalog instead of
-- decoding, uploading and paying again. Frozen once shipped: change the schema in a new file.

-- The app's fingerprint is 32 hex digits (the first 128 bits of the SHA-256 of size, head and tail:
-- library/fingerprint.ts); 0001 asked for 64 and refused every real clip.
ALTER TABLE team.clips DROP CONSTRAINT clips_fingerprint_check;
ALTER TABLE team.clips ADD CONSTRAINT clips_fingerprint_check CHECK (fingerprint ~ '^[0-9a-f]{32,64}$');

-- One row per clip and tensor profile, written in the same transaction as its segments and the
-- completion of the clip's job (fenced by the lease): its arrival in the feed means "results complete".
-- The first publisher wins; a clip is never published twice for one profile.
CREATE TABLE team.clip_results (
  clip_id       bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  profile_id    text NOT NULL CHECK (length(profile_id) BETWEEN 1 AND 200),
  model         text NOT NULL,
  region        text NOT NULL,
  -- the clip's shots in order, each with its frames, times, transition and local analysis (faces, tags)
  shots         jsonb NOT NULL CHECK (jsonb_typeof(shots) = 'array'),
  segment_count integer NOT NULL CHECK (segment_count >= 0),
  published_by  uuid NOT NULL REFERENCES team.seats (seat_id),
  published_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (clip_id, profile_id)
);

-- Segments with their results. Not in the feed (a clip's header row is): a seat reads them by clip, so
-- the feed costs one row per clip, not one per segment.
CREATE TABLE team.segments (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  clip_id       bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  profile_id    text NOT NULL,
  shot_idx      integer NOT NULL CHECK (shot_idx >= 0),
  chunk_idx     integer NOT NULL CHECK (chunk_idx >= 0),
  part          text NOT NULL DEFAULT '',
  start_s       double precision NOT NULL,
  end_s         double precision NOT NULL,
  frames        integer,
  budget        integer,
  content_sha   text,
  dim           integer NOT NULL CHECK (dim > 0),
  vector        bytea NOT NULL CHECK (octet_length(vector) = 4 * dim),  -- float32 little-endian
  tags_raw      text NOT NULL,                                            -- the service's tags as received
  shot_size            text,
  camera_movement      text,
  shooting_angle       text,
  shot_size_conf       real,
  camera_movement_conf real,
  shooting_angle_conf  real,
  UNIQUE (clip_id, profile_id, shot_idx, chunk_idx, part)
);

-- The pictures the decoding seat made (per-shot posters, the filmstrip sprite): a seat that takes the
-- results has no decode to make its own. JPEG bytes, about 60 KB per clip (README "Team library").
CREATE TABLE team.thumbnails (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  clip_id   bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  shot_idx  integer,                                   -- NULL: a clip-level image
  kind      text NOT NULL CHECK (kind IN ('poster', 'filmstrip')),
  file_name text NOT NULL CHECK (file_name ~ '^[A-Za-z0-9._-]{1,100}$'),
  width     integer,
  height    integer,
  frames    integer,
  time_s    double precision,
  image     bytea NOT NULL
);
CREATE INDEX thumbnails_clip ON team.thumbnails (clip_id);

-- The journal of what the holder of a clip's lease has sent (docs/notes-pipeline.md "Idempotency", made
-- the team's): storage keys of each upload and the task of each submission, written the moment the service
-- answers. A seat that takes over a clip whose holder died reads it instead of sending the same again.
CREATE TABLE team.uploads (
  request_id   text NOT NULL,
  region       text NOT NULL,
  storage_keys jsonb NOT NULL,
  seat_id      uuid NOT NULL REFERENCES team.seats (seat_id),
  at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, region)
);
CREATE TABLE team.tasks (
  upload_request_id text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('embedding', 'tagging')),
  region            text NOT NULL,
  task_id           text NOT NULL,
  seat_id           uuid NOT NULL REFERENCES team.seats (seat_id),
  at                timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (upload_request_id, kind, region)
);

-- Texts the service encoded (encode_text is billed per call): the search's reference queries, encoded by
-- one seat for the team, and what editors typed. Keyed as the seats' own cache is (search/query-embedding-store.ts).
CREATE TABLE team.text_vectors (
  text_norm  text NOT NULL CHECK (length(text_norm) BETWEEN 1 AND 2000),
  model      text NOT NULL,
  region     text NOT NULL,
  dim        integer NOT NULL CHECK (dim > 0),
  vector     bytea NOT NULL CHECK (octet_length(vector) = 4 * dim),
  seat_id    uuid NOT NULL REFERENCES team.seats (seat_id),
  at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (text_norm, model, region)
);

-- Work of the whole team that belongs to no clip (the reference queries): one job per stage. UNIQUE
-- (clip_id, stage) of 0001 lets NULL clips repeat.
CREATE UNIQUE INDEX jobs_teamwide ON team.jobs (stage) WHERE clip_id IS NULL;

CREATE TRIGGER clip_results_changes_ins AFTER INSERT ON team.clip_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
CREATE TRIGGER clip_results_changes_upd AFTER UPDATE ON team.clip_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');

-- Seats publish and read; nothing deletes results (a clip's rows go with the clip).
GRANT SELECT, INSERT ON team.clip_results, team.segments, team.thumbnails TO reelscout_seat;
GRANT SELECT, INSERT, UPDATE ON team.uploads, team.tasks TO reelscout_seat;
GRANT SELECT, INSERT ON team.text_vectors TO reelscout_seat;
