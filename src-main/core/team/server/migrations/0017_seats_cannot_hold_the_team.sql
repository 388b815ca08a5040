-- What a seat could still do to the others with its own login after 0011-0016 (issue 40, item 1: a
-- seat "cannot lock a table, notify the team's channel or raise its own limits"; item 3: the feed is
-- pruned once every seat has read past a row). Four things, each the server's, none the client's:
--   1. A seat's session that keeps another seat waiting on a lock for more than 10 s is ended. Column
--      UPDATE grants let a seat `SELECT ... FOR UPDATE` any row and stay in its transaction: another
--      seat's lease renewal then waits (LOCK TABLE by another route). Any seat's reaper round (every
--      5 s) calls team.end_stalling_sessions; the owner ends the session as a member of
--      pg_signal_backend (granted by scripts/team-server-setup.sql, which an existing team runs again).
--      A seat's own writes hold row locks for milliseconds; only seats waiting on seats count, so an
--      administrator's migration waiting on a seat's long read ends nobody. Session settings a seat
--      may set for itself (statement_timeout, even stored with ALTER ROLE on its own role) no longer
--      protect the others, so raising them gains it nothing.
--   2. A seat's read position in the feed only moves forward: moving it back (to row 1) held back the
--      pruning of every seat's feed for as long as the seat kept its last-seen time fresh.
--   3. Each seat is woken on a channel of its own, named by the server with 122 random bits and told only
--      to that seat (team.seat_feed_channel): PostgreSQL lets any session NOTIFY any channel, so the
--      team's one channel (`team_changes`) was anyone's to send on; a seat can now notify only itself.
--   4. A lease (a clip's job, a collection upload) runs at most the team's lease length from now, 30 s
--      (the app's: renewed every 10 s), not 15 minutes; the administrator may raise it (tests of a
--      holder that keeps its clips) in `team.lease_length`, which no seat can read or write.
-- Frozen once shipped.

DO $$
BEGIN
  IF NOT pg_has_role('reelscout_owner', 'pg_signal_backend', 'MEMBER') THEN
    RAISE EXCEPTION 'team migration 0017 needs reelscout_owner to be a member of pg_signal_backend: run scripts/team-server-setup.sql again as the server''s administrator, then team:migrate'
      USING ERRCODE = '42501';
  END IF;
END $$;

CREATE TABLE team.lease_length (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  seconds integer NOT NULL CHECK (seconds BETWEEN 30 AND 3600)
);
INSERT INTO team.lease_length (seconds) VALUES (30);
REVOKE ALL ON team.lease_length FROM PUBLIC, reelscout_seats;

CREATE OR REPLACE FUNCTION team.lease_limit() RETURNS interval
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, team AS $$
  SELECT make_interval(secs => seconds) FROM team.lease_length
$$;
REVOKE ALL ON FUNCTION team.lease_limit() FROM PUBLIC;

CREATE FUNCTION team.end_stalling_sessions() RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  ended integer := 0;
  blocker integer;
BEGIN
  FOR blocker IN
    SELECT DISTINCT b.pid
      FROM pg_locks w
      JOIN pg_stat_activity wa ON wa.pid = w.pid AND wa.datname = current_database()
      JOIN pg_roles wr ON wr.oid = wa.usesysid AND NOT wr.rolsuper
      CROSS JOIN LATERAL unnest(pg_blocking_pids(w.pid)) AS b(pid)
      JOIN pg_stat_activity ba ON ba.pid = b.pid AND ba.datname = current_database()
      JOIN pg_roles br ON br.oid = ba.usesysid AND NOT br.rolsuper
     WHERE NOT w.granted
       AND w.waitstart < clock_timestamp() - interval '10 seconds'
       AND pg_has_role(wr.oid, 'reelscout_seats', 'MEMBER') AND NOT pg_has_role(wr.oid, 'reelscout_owner', 'MEMBER')
       AND pg_has_role(br.oid, 'reelscout_seats', 'MEMBER') AND NOT pg_has_role(br.oid, 'reelscout_owner', 'MEMBER')
  LOOP
    IF pg_terminate_backend(blocker) THEN
      ended := ended + 1;
    END IF;
  END LOOP;
  RETURN ended;
END $$;
REVOKE ALL ON FUNCTION team.end_stalling_sessions() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.end_stalling_sessions() TO reelscout_seats;

CREATE OR REPLACE FUNCTION team.guard_seat_read() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  IF NEW.feed_read_to IS DISTINCT FROM OLD.feed_read_to OR NEW.feed_read_at IS DISTINCT FROM OLD.feed_read_at THEN
    NEW.feed_read_to := greatest(OLD.feed_read_to, least(NEW.feed_read_to, pg_snapshot_xmin(pg_current_snapshot())));
    NEW.feed_read_at := now();
  END IF;
  RETURN NEW;
END $$;

CREATE TABLE team.seat_channels (
  seat_id uuid PRIMARY KEY REFERENCES team.seats (seat_id) ON DELETE CASCADE,
  channel text NOT NULL UNIQUE CHECK (channel ~ '^team_feed_[0-9a-f]{32}$')
);
REVOKE ALL ON team.seat_channels FROM PUBLIC, reelscout_seats;

-- The session's seat's channel, made the first time it asks.
CREATE FUNCTION team.seat_feed_channel() RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid := team.acting_seat();
  ch text;
BEGIN
  INSERT INTO team.seat_channels (seat_id, channel) VALUES (me, 'team_feed_' || replace(gen_random_uuid()::text, '-', ''))
    ON CONFLICT (seat_id) DO NOTHING;
  SELECT channel INTO ch FROM team.seat_channels WHERE seat_id = me;
  RETURN ch;
END $$;
REVOKE ALL ON FUNCTION team.seat_feed_channel() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.seat_feed_channel() TO reelscout_seats;

-- 0008's feed writer, waking every seat on its own channel.
CREATE OR REPLACE FUNCTION team.record_changes() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(o) ->> TG_ARGV[0], TG_OP FROM old_rows o;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO team.changes (table_name, row_key, op)
      SELECT DISTINCT TG_TABLE_NAME, d.j ->> TG_ARGV[0], TG_OP
      FROM (SELECT to_jsonb(n) AS j FROM new_rows n EXCEPT ALL SELECT to_jsonb(o) FROM old_rows o) d;
  ELSE
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(n) ->> TG_ARGV[0], TG_OP FROM new_rows n;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify(c.channel, TG_TABLE_NAME) FROM team.seat_channels c;
  END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION team.record_changes() FROM PUBLIC;
