-- The shared queue's order columns go: every seat claims the clip its own queue is at (lookAtClipJob)
-- or the team's one job of a stage without a clip (claimTeamwideJob), by the (clip_id, stage) key,
-- never "the next queued job" of a resource. The resource, lane and priority written at each enqueue
-- and the jobs_claim index over them were read by nothing and cost every queued row an index entry.
-- Frozen once shipped: change the schema in a new file.

DROP INDEX team.jobs_claim;
ALTER TABLE team.jobs DROP COLUMN resource, DROP COLUMN lane, DROP COLUMN priority;
