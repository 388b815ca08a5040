-- A seat reads which schema version the server is at when it checks the team server (Settings, "Team
-- library": Check, Join, Check again): it may read the runner's bookkeeping, never write it.
GRANT SELECT ON team.schema_migrations TO reelscout_seat;
