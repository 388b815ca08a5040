-- What editors mark, shared by every seat (docs/notes-team-library.md section 5): a clip's rating, named
-- ranges, keywords on clips and ranges. Seats write them offline first and send them later, so every
-- mergeable field carries the time and the seat of its last change (`name_at`, `name_by`...) and the
-- server keeps, field by field, the value with the greater (time, seat) (last writer wins; the rule is
-- src-main/core/team/marks-merge.ts, applied here by team-marks-store.ts). Nothing is ever deleted: a
-- deleted range is a tombstone (deleted_at/by) that no later edit clears, a removed keyword keeps its
-- row with removed_at. Frozen once shipped: change the schema in a new file.

-- One rating per clip (NULL: cleared, which is a value too: it wins over an older rating).
CREATE TABLE team.clip_marks (
  clip_id   bigint PRIMARY KEY REFERENCES team.clips (id) ON DELETE CASCADE,
  rating    text CHECK (rating IN ('favorite', 'reject')),
  rating_at timestamptz NOT NULL,
  rating_by uuid NOT NULL REFERENCES team.seats (seat_id)
);

-- A range's id is a uuid made by the seat that marked it (offline too). Frames are of the rate it was
-- marked at; in, out and rate change together (the span).
CREATE TABLE team.ranges (
  id         uuid PRIMARY KEY,
  clip_id    bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  in_frame   integer NOT NULL CHECK (in_frame >= 0),
  out_frame  integer NOT NULL,                    -- exclusive
  rate_num   integer NOT NULL CHECK (rate_num > 0),
  rate_den   integer NOT NULL CHECK (rate_den > 0),
  span_at    timestamptz NOT NULL,
  span_by    uuid NOT NULL REFERENCES team.seats (seat_id),
  name       text NOT NULL,
  name_at    timestamptz NOT NULL,
  name_by    uuid NOT NULL REFERENCES team.seats (seat_id),
  note       text NOT NULL,
  note_at    timestamptz NOT NULL,
  note_by    uuid NOT NULL REFERENCES team.seats (seat_id),
  rating     text CHECK (rating IN ('favorite', 'reject')),
  rating_at  timestamptz NOT NULL,
  rating_by  uuid NOT NULL REFERENCES team.seats (seat_id),
  created_at timestamptz NOT NULL,
  created_by uuid NOT NULL REFERENCES team.seats (seat_id),
  -- the first delete: once set it stays (a later edit by a seat that had not seen it does not bring the range back)
  deleted_at timestamptz,
  deleted_by uuid REFERENCES team.seats (seat_id),
  CHECK (out_frame > in_frame),
  CHECK ((deleted_at IS NULL) = (deleted_by IS NULL))
);
CREATE INDEX ranges_clip ON team.ranges (clip_id);

-- Keywords as a set: one row per clip (or range) and keyword, case aside (keyword_norm); present when
-- the last add is later than the last removal. Two seats adding one keyword make one row.
CREATE TABLE team.keywords (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  clip_id      bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  range_id     uuid REFERENCES team.ranges (id) ON DELETE CASCADE,
  keyword_norm text NOT NULL CHECK (length(keyword_norm) BETWEEN 1 AND 200),
  keyword      text NOT NULL,                     -- as the last add spelt it
  added_at     timestamptz NOT NULL,
  added_by     uuid NOT NULL REFERENCES team.seats (seat_id),
  removed_at   timestamptz,
  removed_by   uuid REFERENCES team.seats (seat_id),
  CHECK ((removed_at IS NULL) = (removed_by IS NULL)),
  UNIQUE NULLS NOT DISTINCT (clip_id, range_id, keyword_norm)
);
CREATE INDEX keywords_range ON team.keywords (range_id) WHERE range_id IS NOT NULL;

CREATE TRIGGER clip_marks_changes_ins AFTER INSERT ON team.clip_marks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
CREATE TRIGGER clip_marks_changes_upd AFTER UPDATE ON team.clip_marks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
CREATE TRIGGER ranges_changes_ins AFTER INSERT ON team.ranges REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER ranges_changes_upd AFTER UPDATE ON team.ranges REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER keywords_changes_ins AFTER INSERT ON team.keywords REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER keywords_changes_upd AFTER UPDATE ON team.keywords REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');

-- Seats write marks with upserts; tombstones instead of deletes, so no DELETE.
GRANT SELECT, INSERT, UPDATE ON team.clip_marks, team.ranges, team.keywords TO reelscout_seat;
