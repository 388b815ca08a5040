-- Which team clip is in which of the service's collections (docs/notes-team-library.md "Built so far").
-- The service's collections belong to the API key and a team shares one key, so every seat lists the
-- same collections; what it did not know is what the other seats put in them. One row per clip and
-- collection: the service's video id once one seat uploaded it (the others adopt it instead of uploading
-- and paying again), who added the clip and when, and a removal kept as a tombstone (added and removed
-- each keep their latest (time, seat); the clip is in the collection when the add is the later, the
-- rule of team.keywords). The row is also the upload's claim: `uploading` with a lease that another
-- seat may take over once it has run out. Frozen once shipped: change the schema in a new file.

CREATE TABLE team.collection_videos (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection_id     text NOT NULL CHECK (length(collection_id) BETWEEN 1 AND 512),
  region            text NOT NULL CHECK (length(region) BETWEEN 1 AND 100),
  clip_id           bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  video_id          text CHECK (length(video_id) BETWEEN 1 AND 512),
  -- queued: nobody has it yet; uploading: claimed by uploaded_by until upload_expires_at; then the
  -- service's video states
  status            text NOT NULL CHECK (status IN ('queued', 'uploading', 'uploaded', 'processing', 'processed', 'failed')),
  -- when status last changed, by the server's clock: a seat retries a failed video only with an add made after it
  status_at         timestamptz NOT NULL DEFAULT now(),
  uploaded_by       uuid REFERENCES team.seats (seat_id),
  upload_expires_at timestamptz,
  added_at          timestamptz NOT NULL,
  added_by          uuid NOT NULL REFERENCES team.seats (seat_id),
  removed_at        timestamptz,
  removed_by        uuid REFERENCES team.seats (seat_id),
  UNIQUE (collection_id, region, clip_id),
  CHECK ((video_id IS NULL) = (status IN ('queued', 'uploading'))),
  CHECK ((status = 'uploading') = (upload_expires_at IS NOT NULL)),
  CHECK (status = 'queued' OR uploaded_by IS NOT NULL),
  CHECK ((removed_at IS NULL) = (removed_by IS NULL))
);
CREATE INDEX collection_videos_clip ON team.collection_videos (clip_id);

CREATE TRIGGER collection_videos_changes_ins AFTER INSERT ON team.collection_videos REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER collection_videos_changes_upd AFTER UPDATE ON team.collection_videos REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');

-- Seats add, claim and publish with upserts; a removal is a tombstone, so no DELETE.
GRANT SELECT, INSERT, UPDATE ON team.collection_videos TO reelscout_seat;
