-- A team-wide rate on the shared API key (issue 40, item 4). Every seat sends under the team's one
-- key, and the service limits per key: a 429 one seat is answered must slow every seat, not only the
-- one that heard it. One row holds until when the team holds its sends. A seat writes it only through
-- team.note_rate_limit, which takes the time from the server's clock (never a seat's) and clamps it, so
-- a seat cannot stop the team for long: at most the Retry-After it was given (one second when the
-- answer gave none), never more than ten minutes from now, and never earlier than what another seat
-- already set (team/rules/team-pace.ts is the same rule in TypeScript). Seats read what is left with
-- team.rate_pause_left_ms, again on the server's clock, so seats' clocks never matter.
-- Self-contained: owned by reelscout_owner (the runner's role), no table privilege for seats (the group
-- reelscout_seats of 0011 may only call the two functions; `set_by` is the seat's own login).
-- Frozen once shipped: change the schema in a new file.

CREATE TABLE team.rate_pause (
  one      boolean PRIMARY KEY DEFAULT true CHECK (one),
  until    timestamptz NOT NULL,
  set_by   name NOT NULL,
  set_at   timestamptz NOT NULL
);

-- Seats learn of a new pause through the feed (a wake-up, then their pull), as of any other change.
CREATE TRIGGER rate_pause_changes_ins AFTER INSERT ON team.rate_pause REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('one');
CREATE TRIGGER rate_pause_changes_upd AFTER UPDATE ON team.rate_pause REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('one');
-- A seat calling the function in a loop spends its write budget like any other write (0009).
CREATE TRIGGER rate_pause_budget_ins AFTER INSERT ON team.rate_pause REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();
CREATE TRIGGER rate_pause_budget_upd AFTER UPDATE ON team.rate_pause REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();

-- The 429 a seat was answered: the team holds its sends for the Retry-After it carried (milliseconds;
-- NULL when it carried none), clamped as above. Returns the milliseconds the team now holds for.
CREATE FUNCTION team.note_rate_limit(retry_after_ms integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  now_at  CONSTANT timestamptz := clock_timestamp();
  wait_ms CONSTANT integer := least(greatest(coalesce(retry_after_ms, 1000), 0), 600000);
  held    timestamptz;
BEGIN
  INSERT INTO team.rate_pause AS p (one, until, set_by, set_at)
    VALUES (true, now_at + make_interval(secs => wait_ms / 1000.0), session_user, now_at)
    ON CONFLICT (one) DO UPDATE SET until = excluded.until, set_by = excluded.set_by, set_at = excluded.set_at
    WHERE p.until < excluded.until;
  SELECT until INTO held FROM team.rate_pause;
  RETURN greatest(0, ceil(extract(epoch FROM held - now_at) * 1000))::integer;
END $$;
REVOKE ALL ON FUNCTION team.note_rate_limit(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.note_rate_limit(integer) TO reelscout_seats;

-- How long the team still holds its sends, in milliseconds on the server's clock (0: not held).
CREATE FUNCTION team.rate_pause_left_ms() RETURNS integer
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, team AS $$
  SELECT coalesce((SELECT greatest(0, ceil(extract(epoch FROM until - clock_timestamp()) * 1000))::integer FROM team.rate_pause), 0)
$$;
REVOKE ALL ON FUNCTION team.rate_pause_left_ms() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.rate_pause_left_ms() TO reelscout_seats;
