-- Team library, first tables (docs/notes-team-library.md sections 1-4): the seats, clips by content
-- fingerprint and where each seat's shares hold them, the shared job queue with leases, and the
-- change feed the seats replicate from. Frozen once shipped: change the schema in a new file.
-- Runs as reelscout_owner (the migration runner sets the role); reelscout_seat gets DML only.

CREATE TABLE team.seats (
  seat_id      uuid PRIMARY KEY,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- the share keys (clip_locations.root_key) this seat reaches: CPU stages go to seats that have the file
  roots        text[] NOT NULL DEFAULT '{}',
  joined_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);

-- One row per clip whatever its path: identity is the content fingerprint (SHA-256 of size + first and
-- last 64 KiB, docs/notes-library.md), or the address of a clip added by URL.
CREATE TABLE team.clips (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  fingerprint text UNIQUE CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  source_url  text UNIQUE,
  size_bytes  bigint CHECK (size_bytes >= 0),
  file_name   text NOT NULL,                      -- the name it was first seen under
  created_by  uuid NOT NULL REFERENCES team.seats (seat_id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((fingerprint IS NULL) <> (source_url IS NULL))
);

-- Where a clip lives on a share: root_key names the share (`nas-footage`), rel_path is under it; each
-- seat maps root_key to its own mount point (/Volumes/NAS, \\nas\footage, /mnt/nas) locally.
CREATE TABLE team.clip_locations (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  clip_id   bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  root_key  text NOT NULL CHECK (root_key ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  rel_path  text NOT NULL CHECK (length(rel_path) BETWEEN 1 AND 4096 AND left(rel_path, 1) <> '/'),
  seen_by   uuid NOT NULL REFERENCES team.seats (seat_id),
  seen_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (clip_id, root_key, rel_path)
);
CREATE INDEX clip_locations_root ON team.clip_locations (root_key, clip_id);

-- The shared queue: today's jobs columns plus a lease. lease_token goes up by one at every claim and
-- every settling write names it (fencing): a seat whose lease expired and was claimed again cannot
-- complete, fail or renew the job any more.
CREATE TABLE team.jobs (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  clip_id          bigint REFERENCES team.clips (id) ON DELETE CASCADE,
  stage            text NOT NULL CHECK (stage ~ '^[a-z][a-z0-9-]{0,39}$'),
  state            text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'paused', 'cancelled')),
  resource         text NOT NULL CHECK (resource IN ('cpu', 'network')),
  lane             smallint NOT NULL DEFAULT 1,
  priority         integer NOT NULL DEFAULT 0,
  attempts         integer NOT NULL DEFAULT 0,
  recoveries       integer NOT NULL DEFAULT 0,    -- leases that expired while running
  not_before       timestamptz,
  payload          jsonb NOT NULL DEFAULT '{}',
  last_error_kind    text,
  last_error_message text,
  lease_owner      uuid REFERENCES team.seats (seat_id),
  lease_token      bigint NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (clip_id, stage),
  -- a running job has a holder and an end to its lease; no other state has either
  CHECK ((state = 'running') = (lease_owner IS NOT NULL) AND (lease_owner IS NULL) = (lease_expires_at IS NULL))
);
CREATE INDEX jobs_claim ON team.jobs (resource, priority DESC, lane, clip_id, id) WHERE state = 'queued';
CREATE INDEX jobs_lease ON team.jobs (lease_expires_at) WHERE state = 'running';

-- The change feed: one row per changed row of a replicated table, stamped with the writing
-- transaction's id. Seats read it with a snapshot cursor (xid not visible in their last snapshot), so
-- a transaction that commits after a later one is never skipped, as a plain id cursor would.
CREATE TABLE team.changes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  table_name text NOT NULL,
  row_key    text NOT NULL,
  op         text NOT NULL CHECK (op IN ('INSERT', 'UPDATE', 'DELETE')),
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX changes_xid ON team.changes (xid);

-- Written by the owner's function, so a seat can read the feed but not forge it. TG_ARGV[0] names the
-- table's key column. The NOTIFY is only a wake-up: seats never trust it for completeness.
CREATE FUNCTION team.record_changes() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(o) ->> TG_ARGV[0], TG_OP FROM old_rows o;
  ELSE
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(n) ->> TG_ARGV[0], TG_OP FROM new_rows n;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('team_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION team.record_changes() FROM PUBLIC;

-- Three triggers per table: PostgreSQL refuses transition tables on a trigger of more than one event.
CREATE TRIGGER clips_changes_ins AFTER INSERT ON team.clips REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER clips_changes_upd AFTER UPDATE ON team.clips REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER clips_changes_del AFTER DELETE ON team.clips REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER clip_locations_changes_ins AFTER INSERT ON team.clip_locations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER clip_locations_changes_upd AFTER UPDATE ON team.clip_locations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER clip_locations_changes_del AFTER DELETE ON team.clip_locations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');

-- The seat role: read and write the shared rows, nothing else (no DELETE here, no DDL, no TRUNCATE);
-- the feed is read-only to it. Identity columns need no sequence privilege.
GRANT SELECT, INSERT, UPDATE ON team.seats, team.clips, team.clip_locations, team.jobs TO reelscout_seat;
GRANT SELECT ON team.changes TO reelscout_seat;
