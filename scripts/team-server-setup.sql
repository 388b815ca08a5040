-- Prepares a PostgreSQL (15 or later) database for a Reelscout team library. Run by the server's
-- administrator, connected to the team's database (it must exist: `createdb reelscout_team`):
--   psql -d reelscout_team -v ON_ERROR_STOP=1 -f scripts/team-server-setup.sql
-- then the migrations (`npm run team:migrate`), then one login per seat (`npm run team:seat -- add NAME`).
-- Safe to run again, and run again by a team moving to a role per seat (README, "Team library").
-- The tables themselves come from the app's numbered migrations
-- (src-main/core/team/server/migrations), applied by the migration runner as reelscout_owner.

DO $$
BEGIN
  -- owns the schema and every table in it; nobody logs in as it (migrations SET ROLE to it)
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_owner') THEN
    CREATE ROLE reelscout_owner NOLOGIN;
  END IF;
  -- the seats' group: every seat's own LOGIN role (scripts/team-seat.ts) is a member; nobody logs in
  -- as it; its privileges are granted by team migration 0011
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_seats') THEN
    CREATE ROLE reelscout_seats NOLOGIN;
  END IF;
  -- the role every seat shared before migration 0011: migrations 0001-0010 grant to it, 0011 takes
  -- everything back. It exists so they apply; nobody logs in as it any more.
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_seat') THEN
    CREATE ROLE reelscout_seat NOLOGIN;
  END IF;
  -- nobody else may connect or make temporary tables; seats may connect
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM reelscout_seat', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO reelscout_seats', current_database());
END $$;

-- The shared role stops working: no login, no session settings of its own.
ALTER ROLE reelscout_seat NOLOGIN;
ALTER ROLE reelscout_seat RESET ALL;

REVOKE ALL ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA IF NOT EXISTS team AUTHORIZATION reelscout_owner;
REVOKE ALL ON SCHEMA team FROM reelscout_seat;
GRANT USAGE ON SCHEMA team TO reelscout_seats;

-- Advisory locks are the migration runner's and the owner's (team.prune_feed): a seat taking the
-- migration lock would hold every update of the schema back. PostgreSQL grants them to everyone.
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg\_%advisory%lock%'
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO reelscout_owner', f);
  END LOOP;
END $$;

-- A seat's session that holds another seat on a lock is ended by the owner (team migration 0017,
-- team.end_stalling_sessions): ending another role's session needs pg_signal_backend. A team set up
-- before that migration runs this script again (the migration checks the grant).
GRANT pg_signal_backend TO reelscout_owner;
