-- A seat checks, when it joins and at each start, which schema version the server is at (Settings,
-- "Team library"): it may read the runner's bookkeeping, never write it.
GRANT SELECT ON team.schema_migrations TO reelscout_seat;
