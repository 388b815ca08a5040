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

CREATE TRIGGER clip_results_changes_ins AFTER INSERT ON team.clip_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
CREATE TRIGGER clip_results_changes_upd AFTER UPDATE ON team.clip_results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');

-- Seats publish and read; nothing deletes results (a clip's rows go with the clip).
GRANT SELECT, INSERT ON team.clip_results, team.segments TO reelscout_seat;
