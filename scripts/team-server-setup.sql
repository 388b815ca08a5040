-- Prepares a PostgreSQL (15 or later) database for a Reelscout team library. Run once by the
-- server's administrator, connected to the team's database (it must exist: `createdb reelscout_team`):
--   psql -d reelscout_team -v ON_ERROR_STOP=1 -f scripts/team-server-setup.sql
--   psql -d reelscout_team -c '\password reelscout_seat'
-- Safe to run again. The tables themselves come from the app's numbered migrations
-- (src-main/core/team/server/migrations), applied by the migration runner as reelscout_owner.

DO $$
BEGIN
  -- owns the schema and every table in it; nobody logs in as it (migrations SET ROLE to it)
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_owner') THEN
    CREATE ROLE reelscout_owner NOLOGIN;
  END IF;
  -- what every workstation logs in as: DML on the shared tables, granted by the migrations
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reelscout_seat') THEN
    CREATE ROLE reelscout_seat LOGIN CONNECTION LIMIT 100;
  END IF;
  -- nobody else may connect or make temporary tables; seats may connect
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO reelscout_seat', current_database());
END $$;

-- limits against a runaway session holding locks or the change cursor's xmin back
ALTER ROLE reelscout_seat SET statement_timeout = '30s';
ALTER ROLE reelscout_seat SET idle_in_transaction_session_timeout = '60s';

REVOKE ALL ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA IF NOT EXISTS team AUTHORIZATION reelscout_owner;
GRANT USAGE ON SCHEMA team TO reelscout_seat;
