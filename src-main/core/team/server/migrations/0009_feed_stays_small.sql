-- A feed that stays small (issue 40, item 3; 0008 was its first part). Three things the server now
-- enforces itself, whatever a seat's role sends by hand:
--   1. sizes: every text, jsonb and bytea column a seat writes has a bound in bytes (a seat's role
--      wrote a 50 MB file_name before this);
--   2. rate: each seat's writes spend a budget of rows refilled by the server's clock;
--   3. the feed is pruned once every active seat has read past a row.
-- The seat checks the same bounds before it sends (team/rules/team-bounds.ts), so an editor never meets
-- these checks by accident. Frozen once shipped: change the schema in a new file.

-- 1. Sizes, in bytes (octet_length, so a multi-byte name cannot pass a bound in characters four times
-- over). Each bound is far above what the app writes (its own limits in brackets) and far below abuse.
--
-- Rows already over a bound, decided so that this migration cannot fail on an existing team:
--   - names and notes are cut (at a character) to the bound's share: `clips.file_name` is only the
--     name a clip was first seen under, a range's name and note and a keyword's spelling are text an
--     editor can see and fix; the row and its marks stay;
--   - hints are deleted: a journal row (`uploads`, `tasks`) with an oversized key only costs a seat
--     taking a clip over one more send; a `clips` row with a `source_url` over 8 KiB was written by
--     hand (no app version writes `source_url`);
--   - a job's payload or error over its bound is emptied or cut (the app writes `{}` and short errors);
--   - the insert-only results (`clip_results`, `segments`, `thumbnails`, `text_vectors`: seats never
--     update them) get their checks NOT VALID: what other seats already copied stays as it is, every
--     new row is checked.

UPDATE team.seats SET roots = '{}' WHERE cardinality(roots) > 64 OR octet_length(array_to_string(roots, '/')) > 8192;
ALTER TABLE team.seats ADD CONSTRAINT seats_roots_size CHECK (cardinality(roots) <= 64 AND octet_length(array_to_string(roots, '/')) <= 8192);

UPDATE team.clips SET file_name = left(file_name, 255) WHERE octet_length(file_name) > 1024;   -- 255 characters are at most 1020 bytes
DELETE FROM team.clips WHERE octet_length(source_url) > 8192;
-- [a file name: 255 bytes on most file systems, 255 UTF-16 units on NTFS]
ALTER TABLE team.clips ADD CONSTRAINT clips_file_name_size CHECK (octet_length(file_name) <= 1024);
ALTER TABLE team.clips ADD CONSTRAINT clips_source_url_size CHECK (octet_length(source_url) <= 8192);

UPDATE team.jobs SET payload = '{}' WHERE octet_length(payload::text) > 65536;
UPDATE team.jobs SET last_error_kind = left(last_error_kind, 16) WHERE octet_length(last_error_kind) > 64;
UPDATE team.jobs SET last_error_message = left(last_error_message, 1000) WHERE octet_length(last_error_message) > 4096;
-- [payload `{}`; an error's kind is a word of src-shared/errors.ts, its message a sentence or two]
ALTER TABLE team.jobs ADD CONSTRAINT jobs_payload_size CHECK (octet_length(payload::text) <= 65536);
ALTER TABLE team.jobs ADD CONSTRAINT jobs_error_size CHECK (octet_length(last_error_kind) <= 64 AND octet_length(last_error_message) <= 4096);

DELETE FROM team.uploads WHERE octet_length(request_id) > 512 OR octet_length(region) > 256 OR octet_length(storage_keys::text) > 262144;
DELETE FROM team.tasks WHERE octet_length(upload_request_id) > 512 OR octet_length(region) > 256 OR octet_length(task_id) > 512;
-- [request ids and task ids: tens of bytes; storage keys: one per chunk of a clip's tensors]
ALTER TABLE team.uploads ADD CONSTRAINT uploads_size CHECK (octet_length(request_id) <= 512 AND octet_length(region) <= 256 AND octet_length(storage_keys::text) <= 262144);
ALTER TABLE team.tasks ADD CONSTRAINT tasks_size CHECK (octet_length(upload_request_id) <= 512 AND octet_length(region) <= 256 AND octet_length(task_id) <= 512);

UPDATE team.ranges SET name = left(name, 500) WHERE octet_length(name) > 2048;
UPDATE team.ranges SET note = left(note, 16000) WHERE octet_length(note) > 65536;
UPDATE team.keywords SET keyword = left(keyword, 200) WHERE octet_length(keyword) > 1024;
-- [a range's name 200 characters, its note 4,000 (src-shared/contract/marks.ts); a keyword 200 characters]
ALTER TABLE team.ranges ADD CONSTRAINT ranges_text_size CHECK (octet_length(name) <= 2048 AND octet_length(note) <= 65536);
ALTER TABLE team.keywords ADD CONSTRAINT keywords_text_size CHECK (octet_length(keyword_norm) <= 1024 AND octet_length(keyword) <= 1024);

-- [a clip's shots with their local analysis: about 1 KB a shot, a few thousand shots for a feature-length clip]
ALTER TABLE team.clip_results ADD CONSTRAINT clip_results_size
  CHECK (octet_length(profile_id) <= 800 AND octet_length(model) <= 256 AND octet_length(region) <= 256 AND octet_length(shots::text) <= 16777216) NOT VALID;
-- [512-d embeddings (2 KB), the service's tags as a short JSON object]
ALTER TABLE team.segments ADD CONSTRAINT segments_size
  CHECK (dim <= 8192 AND octet_length(profile_id) <= 800 AND octet_length(part) <= 256 AND octet_length(content_sha) <= 256 AND octet_length(tags_raw) <= 65536
         AND octet_length(shot_size) <= 256 AND octet_length(camera_movement) <= 256 AND octet_length(shooting_angle) <= 256) NOT VALID;
-- [a poster is tens of KB, a filmstrip sprite a few hundred]
ALTER TABLE team.thumbnails ADD CONSTRAINT thumbnails_image_size CHECK (octet_length(image) <= 8388608) NOT VALID;
ALTER TABLE team.text_vectors ADD CONSTRAINT text_vectors_size CHECK (dim <= 8192 AND octet_length(text_norm) <= 8000 AND octet_length(model) <= 256 AND octet_length(region) <= 256) NOT VALID;

-- 2. Each seat's write budget: a token bucket of rows per seat, refilled by the server's clock and
-- spent by every INSERT and UPDATE statement of a seat's session on the tables seats write (rows
-- written, counted once per statement from its transition table). A statement beyond the budget is
-- refused (SQLSTATE RS429, the hint says after how many ms the budget holds it) and rolled back with
-- its transaction, the budget included: a refused write costs nothing.
--
-- The numbers: 2,000 rows a second, bursts of 200,000 (100 s of the rate). Real work is far below:
-- indexing is bound by the service (the key's 10 requests a second for the whole team: a few segments
-- a second), a clip's publish is its segments and pictures (a thousand rows for a long clip), and the
-- marks and collections rounds send one row per statement (a round trip each: under 2,000 a second
-- on one connection). The largest single action is marking a 10,000-clip selection with a keyword:
-- 10,000 rows in one round, inside the burst. bench:team's writers (three seats publishing synthetic
-- clips as fast as the server takes them) write about 1,000 rows a second each. What the budget stops
-- is the bulk statement in a loop: `UPDATE team.clips ...` over 50,000 rows, again and again.
--
-- Which seat: the session says (the app's connections start with `-c reelscout.seat_id=<uuid>`,
-- team/server/seat-store.ts). A session naming no registered seat (a script, psql) has a budget of its
-- own connection. Seats share one login role, so the server cannot tell a seat from another that
-- claims its id: the budget bounds a seat that misbehaves by mistake, not one that lies; a role per
-- seat would be needed for that. A seat's writing transactions take its bucket row in turn (each
-- holds it from its first write to its commit), so one seat's writes commit one after another.
CREATE TABLE team.write_budgets (
  bucket      text PRIMARY KEY,           -- 'seat:<uuid>' or 'session:<backend pid>'
  tokens      double precision NOT NULL,  -- rows the bucket holds after its last spend
  refilled_at timestamptz NOT NULL
);

CREATE FUNCTION team.spend_write_budget() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  rate  CONSTANT double precision := 2000;    -- rows a second (see above)
  burst CONSTANT double precision := 200000;  -- rows
  spent bigint;
  declared text;
  key text;
  left_after double precision;
BEGIN
  -- Migrations and administrators (the owner, a superuser) write as themselves, not as a seat.
  IF pg_has_role(session_user, 'reelscout_owner', 'MEMBER') THEN
    RETURN NULL;
  END IF;
  SELECT count(*) INTO spent FROM new_rows;
  IF spent = 0 THEN
    RETURN NULL;
  END IF;
  declared := current_setting('reelscout.seat_id', true);
  IF declared ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
     AND EXISTS (SELECT 1 FROM team.seats WHERE seat_id = declared::uuid) THEN
    key := 'seat:' || lower(declared);
  ELSE
    key := 'session:' || pg_backend_pid();
  END IF;
  INSERT INTO team.write_budgets AS b (bucket, tokens, refilled_at) VALUES (key, burst - spent, clock_timestamp())
    ON CONFLICT (bucket) DO UPDATE SET
      tokens = least(burst, b.tokens + rate * greatest(0, extract(epoch FROM clock_timestamp() - b.refilled_at))) - spent,
      refilled_at = clock_timestamp()
    RETURNING tokens INTO left_after;
  IF left_after < 0 THEN
    RAISE EXCEPTION 'team write budget spent: % may write % rows a second (bursts of %); this statement wrote % rows to team.%',
        key, rate, burst, spent, TG_TABLE_NAME
      USING ERRCODE = 'RS429', HINT = format('retry after %s ms', ceil(-left_after / rate * 1000)::bigint);
  END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION team.spend_write_budget() FROM PUBLIC;

-- Every table a seat's role may write (0001, 0003, 0004, 0005 grants); `changes` is written by the
-- owner's trigger only, `write_budgets` and `feed_horizon` by the owner's functions only.
DO $$
DECLARE
  t text;
  ev text;
BEGIN
  FOREACH t IN ARRAY ARRAY['seats', 'clips', 'clip_locations', 'jobs', 'clip_results', 'segments', 'thumbnails', 'uploads', 'tasks',
                           'text_vectors', 'clip_marks', 'ranges', 'keywords', 'collection_videos']
  LOOP
    FOREACH ev IN ARRAY ARRAY['INSERT', 'UPDATE']
    LOOP
      EXECUTE format('CREATE TRIGGER %I AFTER %s ON team.%I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget()',
        t || '_budget_' || lower(left(ev, 3)), ev, t);
    END LOOP;
  END LOOP;
END $$;

-- 3. The feed pruned. Each seat reports how far it has read when it stores its cursor (an xid below
-- which every feed row is in its cursor's snapshot); `team.prune_feed()`, called by the seats' pull
-- rounds, deletes the rows below every active seat's report and records that horizon. A seat not heard
-- from for the retention (7 days: a week's holiday or a machine in a cupboard) holds nothing back; its
-- cursor is then older than the horizon and its next pull reads the tables whole instead of the feed
-- (change-store.ts), as a seat joining a pruned team does.
ALTER TABLE team.seats ADD COLUMN feed_read_to xid8, ADD COLUMN feed_read_at timestamptz;

-- One row: rows of the feed with an xid below `pruned_below` may be gone.
CREATE TABLE team.feed_horizon (
  one          boolean PRIMARY KEY DEFAULT true CHECK (one),
  pruned_below xid8 NOT NULL,
  pruned_at    timestamptz NOT NULL
);

-- The owner's function, so seats need no DELETE on the feed. One prune at a time (the others skip),
-- at most 100,000 rows a call so a team's first prune of a long feed stays inside the seat role's
-- statement timeout; the next call takes the rest.
CREATE FUNCTION team.prune_feed() RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  retention CONSTANT interval := interval '7 days';
  below xid8;
  pruned bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('team.prune_feed')) THEN
    RETURN 0;
  END IF;
  -- With no active seat, everything committed goes: whoever comes back reads the tables whole.
  SELECT least(min(feed_read_to) FILTER (WHERE feed_read_at > now() - retention), pg_snapshot_xmin(pg_current_snapshot()))
    INTO below FROM team.seats;
  DELETE FROM team.changes WHERE id IN (SELECT id FROM team.changes WHERE xid < below LIMIT 100000);
  GET DIAGNOSTICS pruned = ROW_COUNT;
  IF pruned > 0 THEN
    INSERT INTO team.feed_horizon AS h (one, pruned_below, pruned_at) VALUES (true, below, now())
      ON CONFLICT (one) DO UPDATE SET pruned_below = greatest(h.pruned_below, excluded.pruned_below), pruned_at = excluded.pruned_at;
  END IF;
  -- Budgets untouched for longer than a refill from empty are full: their rows go too.
  DELETE FROM team.write_budgets WHERE refilled_at < now() - interval '10 minutes';
  RETURN pruned;
END $$;
REVOKE ALL ON FUNCTION team.prune_feed() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.prune_feed() TO reelscout_seat;
GRANT SELECT ON team.feed_horizon, team.write_budgets TO reelscout_seat;
