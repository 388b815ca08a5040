-- A role per seat, least privilege (issue 40, item 1). Until now every seat logged in as one role,
-- `reelscout_seat`, and said which seat it was with a session setting the server trusted: any seat
-- could write any other seat's rows, take or stretch any lease, LOCK a table it could UPDATE, and
-- spend another seat's write budget. Now:
--   - each seat logs in as its own LOGIN role (`npm run team:seat -- add NAME`, scripts/team-seat.ts),
--     a member of the NOLOGIN group `reelscout_seats` (scripts/team-server-setup.sql), and is the seat
--     its row of `team.seat_logins` names: `session_user`, never a value the client sends;
--   - the group has SELECT, INSERT and UPDATE of named columns only: no table-level UPDATE, DELETE or
--     TRUNCATE, so no LOCK beyond ROW EXCLUSIVE, no rewriting of keys, paths or who made a row;
--   - every write a seat makes passes a guard trigger (owner's, SECURITY DEFINER, fixed search_path)
--     keyed on the session's seat: a seat stamps only its own changes, not later than the server's
--     clock (2 minutes of skew), takes leases only for itself and for at most the server's lease
--     limit (15 minutes), touches no lease another seat holds, publishes results only for a clip whose job it
--     holds, and writes only its own journal rows and seat row;
--   - the old shared role keeps no privilege here (the set-up script also makes it NOLOGIN).
-- Frozen once shipped: change the schema in a new file.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_seats') THEN
    RAISE EXCEPTION 'role reelscout_seats is missing: the administrator runs scripts/team-server-setup.sql again before this migration';
  END IF;
END $$;

-- Which login role is which seat. seat_id is NULL from `team:seat add` until the seat's first join
-- binds it (team.join_seat), unless the administrator named the seat (`--seat <uuid>`, an existing
-- seat moving to its own role). No foreign key: a seat named in advance has no seats row yet.
-- A removed seat keeps its row (removed_at), so no other role can take its seat id afterwards.
CREATE TABLE team.seat_logins (
  role_name  text PRIMARY KEY CHECK (role_name ~ '^[a-z][a-z0-9_]{1,40}$'),
  seat_id    uuid UNIQUE,
  added_at   timestamptz NOT NULL DEFAULT now(),
  bound_at   timestamptz,
  removed_at timestamptz
);

-- The administrator's session (a superuser, or a member of the owner role): migrations, team:seat,
-- tests' set-up. It writes as itself, past the seat guards.
CREATE FUNCTION team.acting_as_admin() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, team AS $$
  SELECT pg_has_role(session_user, 'reelscout_owner', 'MEMBER')
$$;

-- The seat this session is: its login role's bound seat; NULL for a role that is no joined seat.
CREATE FUNCTION team.session_seat() RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, team AS $$
  SELECT seat_id FROM team.seat_logins WHERE role_name = session_user AND removed_at IS NULL
$$;

-- The same, refusing a session that is no joined seat (every seat write starts here).
CREATE FUNCTION team.acting_seat() RETURNS uuid
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid := team.session_seat();
BEGIN
  IF me IS NULL THEN
    RAISE EXCEPTION 'role % is not a joined seat of this team: join in Settings first (its administrator adds seats with npm run team:seat -- add)', session_user
      USING ERRCODE = '42501';
  END IF;
  RETURN me;
END $$;

-- The longest lease the server grants from now, whatever a seat asks: the app asks 30 s and renews
-- every 10 s; tests of a holder that keeps its clips ask 10 minutes. A lease is renewed only by its
-- holder and only up to this from now, so a seat that stops renewing frees its jobs within it.
CREATE FUNCTION team.lease_limit() RETURNS interval
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$ SELECT interval '15 minutes' $$;

-- A seat joins (or starts again under a new name): binds its login role to `seat` the first time,
-- and upserts its row. A role joins as one seat only, and a seat id bound to another role is refused.
CREATE FUNCTION team.join_seat(seat uuid, seat_name text, seat_roots text[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  login team.seat_logins%ROWTYPE;
BEGIN
  SELECT * INTO login FROM team.seat_logins WHERE role_name = session_user AND removed_at IS NULL FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'role % is not a seat of this team: its administrator adds it with npm run team:seat -- add', session_user USING ERRCODE = '42501';
  END IF;
  IF login.seat_id IS NOT NULL AND login.seat_id <> seat THEN
    RAISE EXCEPTION 'role % is seat %, not %: one role per seat (its administrator removes and adds the role to start a new seat)', session_user, login.seat_id, seat
      USING ERRCODE = '42501';
  END IF;
  IF login.seat_id IS NULL AND EXISTS (SELECT 1 FROM team.seat_logins WHERE seat_id = seat) THEN
    RAISE EXCEPTION 'seat % belongs to another role', seat USING ERRCODE = '42501';
  END IF;
  -- Bound first: the seat row's own guard then sees this session as that seat.
  IF login.seat_id IS NULL THEN
    UPDATE team.seat_logins SET seat_id = seat, bound_at = now() WHERE role_name = session_user;
  END IF;
  INSERT INTO team.seats AS s (seat_id, name, roots) VALUES (seat, seat_name, seat_roots)
    ON CONFLICT (seat_id) DO UPDATE SET name = excluded.name, roots = excluded.roots, last_seen_at = now();
END $$;

-- The administrator's two steps (scripts/team-seat.ts, after CREATE ROLE and before DROP ROLE).
CREATE FUNCTION team.register_seat_login(role text, seat uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM team.seat_logins WHERE role_name = role) THEN
    RAISE EXCEPTION 'a seat named % was added before: choose another name', role USING ERRCODE = '23505';
  END IF;
  IF seat IS NOT NULL AND EXISTS (SELECT 1 FROM team.seat_logins WHERE seat_id = seat) THEN
    RAISE EXCEPTION 'seat % belongs to another role already', seat USING ERRCODE = '23505';
  END IF;
  INSERT INTO team.seat_logins (role_name, seat_id, bound_at) VALUES (role, seat, CASE WHEN seat IS NULL THEN NULL ELSE now() END);
END $$;

-- The seat is gone: its leases go back to the queue at once (claimable now), its upload claims too;
-- its row stays (its marks and results name it) and no role can take its seat id afterwards.
CREATE FUNCTION team.retire_seat_login(role text) RETURNS TABLE (jobs_released bigint, uploads_released bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  seat uuid;
BEGIN
  UPDATE team.seat_logins SET removed_at = now() WHERE role_name = role AND removed_at IS NULL RETURNING seat_id INTO seat;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no seat named %', role USING ERRCODE = '42704';
  END IF;
  UPDATE team.jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, not_before = NULL, updated_at = now()
   WHERE state = 'running' AND lease_owner = seat;
  GET DIAGNOSTICS jobs_released = ROW_COUNT;
  UPDATE team.collection_videos SET status = 'queued', uploaded_by = NULL, upload_expires_at = NULL, status_at = now()
   WHERE status = 'uploading' AND uploaded_by = seat;
  GET DIAGNOSTICS uploads_released = ROW_COUNT;
  RETURN NEXT;
END $$;

-- A stamped field (time and seat of its last change) changed by a seat: only with its own seat, and
-- not later than the server's clock. A tombstone once set stays.
CREATE FUNCTION team.check_stamp(tbl text, field text, new_at timestamptz, new_by uuid, old_at timestamptz, old_by uuid, me uuid) RETURNS void
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog AS $$
BEGIN
  IF new_by IS NULL AND old_by IS NOT NULL THEN
    RAISE EXCEPTION 'team.%: % was set by seat % and stays', tbl, field, old_by USING ERRCODE = '42501';
  END IF;
  IF new_by IS NOT NULL AND new_by <> me THEN
    RAISE EXCEPTION 'team.%: % stamped by seat %, but this session is seat %: a seat writes only its own changes', tbl, field, new_by, me USING ERRCODE = '42501';
  END IF;
  IF new_at > clock_timestamp() + interval '2 minutes' THEN
    RAISE EXCEPTION 'team.%: % dated %, later than the server''s clock (%)', tbl, field, new_at, clock_timestamp() USING ERRCODE = '22008';
  END IF;
END $$;

-- The stamped tables' guard: TG_ARGV[0] names the row's unique key ('key:col,col'), then one
-- 'at_column:by_column:value,columns' per field. A field whose stamp or value changed is the session's
-- seat's change; a value changed under an unchanged stamp is a forgery. An upsert's proposed row
-- (BEFORE INSERT fires for it whether or not it conflicts) carries the other seats' stamps of the row
-- it meets: it is checked only when no such row exists, the update it turns into is checked as one.
CREATE FUNCTION team.guard_stamps() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
  n jsonb;
  o jsonb;
  at_col text;
  by_col text;
  vals text[];
  key_cols text;
  stamp_changed boolean;
  value_changed boolean;
  exists_already boolean;
  i int;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF TG_OP = 'INSERT' THEN
    key_cols := split_part(TG_ARGV[0], ':', 2);
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM team.%I t WHERE (%s) IS NOT DISTINCT FROM (%s))', TG_TABLE_NAME,
                   (SELECT string_agg('t.' || quote_ident(c), ', ') FROM unnest(string_to_array(key_cols, ',')) c),
                   (SELECT string_agg('($1).' || quote_ident(c), ', ') FROM unnest(string_to_array(key_cols, ',')) c))
      INTO exists_already USING NEW;
    IF exists_already THEN
      RETURN NEW;
    END IF;
  END IF;
  n := to_jsonb(NEW);
  o := CASE WHEN TG_OP = 'UPDATE' THEN to_jsonb(OLD) ELSE '{}'::jsonb END;
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    at_col := split_part(TG_ARGV[i], ':', 1);
    by_col := split_part(TG_ARGV[i], ':', 2);
    vals := string_to_array(nullif(split_part(TG_ARGV[i], ':', 3), ''), ',');
    stamp_changed := (n -> at_col, n -> by_col) IS DISTINCT FROM (o -> at_col, o -> by_col);
    value_changed := TG_OP = 'UPDATE' AND EXISTS (SELECT 1 FROM unnest(coalesce(vals, '{}')) v WHERE n -> v IS DISTINCT FROM o -> v);
    IF value_changed AND NOT stamp_changed THEN
      RAISE EXCEPTION 'team.%: % changed without a new % stamp', TG_TABLE_NAME, array_to_string(vals, ', '), by_col USING ERRCODE = '42501';
    END IF;
    IF stamp_changed THEN
      PERFORM team.check_stamp(TG_TABLE_NAME, by_col, (n ->> at_col)::timestamptz, (n ->> by_col)::uuid, (o ->> at_col)::timestamptz, (o ->> by_col)::uuid, me);
    END IF;
  END LOOP;
  RETURN NEW;
END $$;

CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.ranges FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:id',
  'span_at:span_by:in_frame,out_frame,rate_num,rate_den', 'name_at:name_by:name', 'note_at:note_by:note', 'rating_at:rating_by:rating',
  'created_at:created_by:', 'deleted_at:deleted_by:');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.keywords FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:clip_id,range_id,keyword_norm',
  'added_at:added_by:keyword', 'removed_at:removed_by:');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.clip_marks FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:clip_id', 'rating_at:rating_by:rating');
-- Before people_forget (triggers fire in name order): the forget's erasing of the name is the server's, not the seat's.
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.people FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:uuid',
  'name_at:name_by:name', 'hidden_at:hidden_by:hidden', 'merged_at:merged_by:merged_into', 'forgotten_at:forgotten_by:');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.people_facts FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:person_uuid,clip_id,time_ms,x,y,w,h',
  'at:seat:kind,frame');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.collection_videos FOR EACH ROW EXECUTE FUNCTION team.guard_stamps('key:collection_id,region,clip_id',
  'added_at:added_by:', 'removed_at:removed_by:');

-- A collection upload's claim is a lease: taken only for oneself, for at most the lease limit, never
-- over another seat's unexpired claim; a new video id is only the uploader's own.
CREATE FUNCTION team.guard_collection_upload() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF TG_OP = 'UPDATE' AND OLD.status = 'uploading' AND OLD.uploaded_by <> me AND OLD.upload_expires_at > now()
     AND (NEW.status, NEW.uploaded_by, NEW.upload_expires_at, NEW.video_id) IS DISTINCT FROM (OLD.status, OLD.uploaded_by, OLD.upload_expires_at, OLD.video_id) THEN
    RAISE EXCEPTION 'team.collection_videos %: seat % holds its upload until %', OLD.id, OLD.uploaded_by, OLD.upload_expires_at USING ERRCODE = '42501';
  END IF;
  IF NEW.status = 'uploading' AND (TG_OP = 'INSERT' OR (NEW.uploaded_by, NEW.upload_expires_at) IS DISTINCT FROM (OLD.uploaded_by, OLD.upload_expires_at)) THEN
    IF NEW.uploaded_by IS DISTINCT FROM me THEN
      RAISE EXCEPTION 'team.collection_videos: an upload claim is taken only for this session''s seat %', me USING ERRCODE = '42501';
    END IF;
    IF NEW.upload_expires_at > now() + team.lease_limit() THEN
      RAISE EXCEPTION 'team.collection_videos: an upload claim runs at most % from now', team.lease_limit() USING ERRCODE = '22008';
    END IF;
  END IF;
  IF NEW.video_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.video_id IS DISTINCT FROM OLD.video_id) AND NEW.uploaded_by IS DISTINCT FROM me THEN
    RAISE EXCEPTION 'team.collection_videos: video % is published only by the seat that uploaded it', NEW.video_id USING ERRCODE = '42501';
  END IF;
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.status_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER guard_upload BEFORE INSERT OR UPDATE ON team.collection_videos FOR EACH ROW EXECUTE FUNCTION team.guard_collection_upload();

-- The queue: a seat takes leases only for itself, for at most the lease limit, each claim one token
-- further; it never touches a job another seat holds (a lease that ran out is anybody's to reap).
CREATE FUNCTION team.guard_job() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF TG_OP = 'UPDATE' AND OLD.state = 'running' AND OLD.lease_owner <> me AND OLD.lease_expires_at > now() THEN
    RAISE EXCEPTION 'team job %: seat % holds its lease until %', OLD.id, OLD.lease_owner, OLD.lease_expires_at USING ERRCODE = '42501';
  END IF;
  IF NEW.state = 'running' THEN
    IF NEW.lease_owner IS DISTINCT FROM me THEN
      RAISE EXCEPTION 'team job: a lease is taken only for this session''s seat %', me USING ERRCODE = '42501';
    END IF;
    IF NEW.lease_expires_at > now() + team.lease_limit() THEN
      RAISE EXCEPTION 'team job: a lease runs at most % from now, not until %', team.lease_limit(), NEW.lease_expires_at USING ERRCODE = '22008';
    END IF;
  END IF;
  IF TG_OP = 'INSERT' AND (NEW.lease_token NOT IN (0, 1) OR NEW.attempts <> 0 OR NEW.recoveries <> 0) THEN
    RAISE EXCEPTION 'team job: a new job starts at token 0 or 1 with no attempts' USING ERRCODE = '42501';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.lease_token NOT IN (OLD.lease_token, OLD.lease_token + 1) THEN
    RAISE EXCEPTION 'team job %: its lease token moves by one claim at a time', OLD.id USING ERRCODE = '42501';
  END IF;
  IF NEW.not_before > now() + interval '1 day' THEN
    RAISE EXCEPTION 'team job: not_before % is more than a day away', NEW.not_before USING ERRCODE = '22008';
  END IF;
  NEW.updated_at := now();
  IF TG_OP = 'INSERT' THEN
    NEW.created_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER guard_job BEFORE INSERT OR UPDATE ON team.jobs FOR EACH ROW EXECUTE FUNCTION team.guard_job();

-- Results: published by the seat that holds one of the clip's jobs now, under its own name, at the
-- server's time. Segments and pictures are checked per statement (a clip's publish writes hundreds).
CREATE FUNCTION team.guard_clip_results() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF NEW.published_by IS DISTINCT FROM me THEN
    RAISE EXCEPTION 'team.clip_results: published by seat %, but this session is seat %', NEW.published_by, me USING ERRCODE = '42501';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM team.jobs WHERE clip_id = NEW.clip_id AND state = 'running' AND lease_owner = me AND lease_expires_at > now()) THEN
    RAISE EXCEPTION 'team.clip_results: seat % holds no job of clip %: only the holder publishes its results', me, NEW.clip_id USING ERRCODE = '42501';
  END IF;
  NEW.published_at := now();
  RETURN NEW;
END $$;
CREATE TRIGGER guard_results BEFORE INSERT ON team.clip_results FOR EACH ROW EXECUTE FUNCTION team.guard_clip_results();

CREATE FUNCTION team.guard_clip_parts() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
  unheld bigint;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NULL;
  END IF;
  me := team.acting_seat();
  SELECT c.clip_id INTO unheld FROM (SELECT DISTINCT clip_id FROM new_rows) c
   WHERE NOT EXISTS (SELECT 1 FROM team.jobs j WHERE j.clip_id = c.clip_id AND j.state = 'running' AND j.lease_owner = me AND j.lease_expires_at > now())
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'team.%: seat % holds no job of clip %: only the holder publishes its results', TG_TABLE_NAME, me, unheld USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER guard_parts AFTER INSERT ON team.segments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.guard_clip_parts();
CREATE TRIGGER guard_parts AFTER INSERT ON team.thumbnails REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.guard_clip_parts();

-- Rows that carry who wrote them (TG_ARGV[0]) and when (TG_ARGV[1], the server's clock): the
-- session's seat writes new ones and changes only its own.
CREATE FUNCTION team.guard_own_rows() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
  n jsonb;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> TG_ARGV[0])::uuid <> me THEN
    RAISE EXCEPTION 'team.%: this row is seat %''s, not this session''s (%)', TG_TABLE_NAME, to_jsonb(OLD) ->> TG_ARGV[0], me USING ERRCODE = '42501';
  END IF;
  n := to_jsonb(NEW);
  IF (n ->> TG_ARGV[0])::uuid IS DISTINCT FROM me THEN
    RAISE EXCEPTION 'team.%: % is seat %, but this session is seat %', TG_TABLE_NAME, TG_ARGV[0], n ->> TG_ARGV[0], me USING ERRCODE = '42501';
  END IF;
  IF TG_NARGS > 1 THEN
    NEW := jsonb_populate_record(NEW, jsonb_build_object(TG_ARGV[1], now()));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER guard_own BEFORE INSERT ON team.clips FOR EACH ROW EXECUTE FUNCTION team.guard_own_rows('created_by', 'created_at');
CREATE TRIGGER guard_own BEFORE INSERT ON team.text_vectors FOR EACH ROW EXECUTE FUNCTION team.guard_own_rows('seat_id', 'at');
CREATE TRIGGER guard_own BEFORE INSERT OR UPDATE ON team.uploads FOR EACH ROW EXECUTE FUNCTION team.guard_own_rows('seat_id', 'at');
CREATE TRIGGER guard_own BEFORE INSERT OR UPDATE ON team.tasks FOR EACH ROW EXECUTE FUNCTION team.guard_own_rows('seat_id', 'at');
CREATE TRIGGER guard_own BEFORE INSERT OR UPDATE ON team.seats FOR EACH ROW EXECUTE FUNCTION team.guard_own_rows('seat_id', 'last_seen_at');

-- A place a seat saw a clip: recorded under its own seat and the server's time (anyone may say it
-- saw the clip there too; the path itself is never rewritten: no UPDATE of rel_path).
CREATE FUNCTION team.guard_clip_location() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF NEW.seen_by IS DISTINCT FROM me THEN
    RAISE EXCEPTION 'team.clip_locations: seen by seat %, but this session is seat %', NEW.seen_by, me USING ERRCODE = '42501';
  END IF;
  NEW.seen_at := now();
  RETURN NEW;
END $$;
CREATE TRIGGER guard_location BEFORE INSERT OR UPDATE ON team.clip_locations FOR EACH ROW EXECUTE FUNCTION team.guard_clip_location();

-- How far the seat has read: never past the server's own snapshot, dated by the server.
CREATE FUNCTION team.guard_seat_read() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  IF NEW.feed_read_to IS DISTINCT FROM OLD.feed_read_to OR NEW.feed_read_at IS DISTINCT FROM OLD.feed_read_at THEN
    NEW.feed_read_to := least(NEW.feed_read_to, pg_snapshot_xmin(pg_current_snapshot()));
    NEW.feed_read_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER guard_read BEFORE UPDATE ON team.seats FOR EACH ROW EXECUTE FUNCTION team.guard_seat_read();

-- The write budget is the session's seat's (its role's), never a seat a session names.
CREATE OR REPLACE FUNCTION team.spend_write_budget() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  rate  CONSTANT double precision := 2000;    -- rows a second (migration 0009)
  burst CONSTANT double precision := 200000;  -- rows
  spent bigint;
  seat uuid;
  key text;
  left_after double precision;
BEGIN
  IF pg_has_role(session_user, 'reelscout_owner', 'MEMBER') THEN
    RETURN NULL;
  END IF;
  SELECT count(*) INTO spent FROM new_rows;
  IF spent = 0 THEN
    RETURN NULL;
  END IF;
  seat := team.session_seat();
  key := CASE WHEN seat IS NULL THEN 'role:' || session_user ELSE 'seat:' || seat END;
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

DO $$
DECLARE
  f text;
BEGIN
  FOREACH f IN ARRAY ARRAY['acting_as_admin()', 'session_seat()', 'acting_seat()', 'join_seat(uuid, text, text[])', 'register_seat_login(text, uuid)',
                           'retire_seat_login(text)', 'check_stamp(text, text, timestamptz, uuid, timestamptz, uuid, uuid)', 'guard_stamps()',
                           'guard_collection_upload()', 'guard_job()', 'guard_clip_results()', 'guard_clip_parts()', 'guard_own_rows()',
                           'guard_clip_location()', 'guard_seat_read()', 'spend_write_budget()']
  LOOP
    EXECUTE format('REVOKE ALL ON FUNCTION team.%s FROM PUBLIC', f);
  END LOOP;
END $$;

-- The old shared role: nothing here any more.
REVOKE ALL ON ALL TABLES IN SCHEMA team FROM reelscout_seat;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA team FROM reelscout_seat;

-- The seats' group: read everything a seat shows, insert where a seat adds rows, update only the
-- columns the app's upserts and lease steps change (no table-level UPDATE: no LOCK TABLE beyond ROW
-- EXCLUSIVE, no rewriting of a row's key, clip, path or maker). Seats are added by team.join_seat only.
GRANT SELECT ON ALL TABLES IN SCHEMA team TO reelscout_seats;
GRANT INSERT ON team.clips, team.clip_locations, team.jobs, team.clip_results, team.segments, team.thumbnails, team.uploads, team.tasks,
  team.text_vectors, team.clip_marks, team.ranges, team.keywords, team.collection_videos, team.people, team.people_facts TO reelscout_seats;
GRANT UPDATE (name, roots, last_seen_at, feed_read_to, feed_read_at) ON team.seats TO reelscout_seats;
GRANT UPDATE (seen_by, seen_at) ON team.clip_locations TO reelscout_seats;
GRANT UPDATE (state, attempts, recoveries, not_before, last_error_kind, last_error_message, lease_owner, lease_token, lease_expires_at, updated_at) ON team.jobs TO reelscout_seats;
GRANT UPDATE (storage_keys, seat_id, at) ON team.uploads TO reelscout_seats;
GRANT UPDATE (task_id, seat_id, at) ON team.tasks TO reelscout_seats;
GRANT UPDATE (rating, rating_at, rating_by) ON team.clip_marks TO reelscout_seats;
GRANT UPDATE (in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by, rating, rating_at, rating_by,
  created_at, created_by, deleted_at, deleted_by) ON team.ranges TO reelscout_seats;
GRANT UPDATE (keyword, added_at, added_by, removed_at, removed_by) ON team.keywords TO reelscout_seats;
GRANT UPDATE (video_id, status, status_at, uploaded_by, upload_expires_at, added_at, added_by, removed_at, removed_by) ON team.collection_videos TO reelscout_seats;
GRANT UPDATE (name, name_at, name_by, hidden, hidden_at, hidden_by, merged_into, merged_at, merged_by, forgotten_at, forgotten_by) ON team.people TO reelscout_seats;
GRANT UPDATE (kind, frame, at, seat) ON team.people_facts TO reelscout_seats;
GRANT EXECUTE ON FUNCTION team.prune_feed(), team.join_seat(uuid, text, text[]) TO reelscout_seats;
