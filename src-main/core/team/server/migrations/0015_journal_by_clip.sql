-- The team's journal (0003: `team.uploads` storage keys, `team.tasks` task ids) bound to the clip whose
-- job wrote it (issue 40). Request ids are derived from content and profile, the same on every seat,
-- and 0011 let a seat write a journal row for any request id, its own, first writer winning: a seat
-- could seed storage keys or task ids for a clip it never held (bogus ones, or its own tensors'), and
-- a seat taking that clip over would submit them instead of uploading, poisoning the team's tags and
-- embeddings of the clip. Now:
--   - each row names its team clip (`clip_id`), and a seat writes (inserts or updates) one only while
--     it holds one of that clip's jobs: `team.holds_clip_job`, the rule results are published under
--     (0011), now one function the results' guards and the journal's share;
--   - readers ask by clip (journal-store.ts), so a row written under another clip is never used, and
--     a row of one clip no longer keeps another clip's holder from recording the same request id;
--   - rows written before carry no clip: kept (nothing is lost), never read by the app, and theirs to
--     prune for the owner (README "Team library"). No seat can write a row without a clip again.
-- Frozen once shipped: change the schema in a new file.

-- Whether `holder` holds one of `clip`'s jobs now (a running lease not run out). Called by the owner's
-- guards (SECURITY DEFINER), so it needs no privilege of its own.
CREATE FUNCTION team.holds_clip_job(holder uuid, clip bigint) RETURNS boolean
  LANGUAGE sql STABLE SET search_path = pg_catalog, team AS $$
  SELECT EXISTS (SELECT 1 FROM team.jobs j WHERE j.clip_id = clip AND j.state = 'running' AND j.lease_owner = holder AND j.lease_expires_at > now())
$$;
REVOKE ALL ON FUNCTION team.holds_clip_job(uuid, bigint) FROM PUBLIC;

-- 0011's two results guards, their job check now the function's (their messages and errors as they were).
CREATE OR REPLACE FUNCTION team.guard_clip_results() RETURNS trigger
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
  IF NOT team.holds_clip_job(me, NEW.clip_id) THEN
    RAISE EXCEPTION 'team.clip_results: seat % holds no job of clip %: only the holder publishes its results', me, NEW.clip_id USING ERRCODE = '42501';
  END IF;
  NEW.published_at := now();
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION team.guard_clip_parts() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
  unheld bigint;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NULL;
  END IF;
  me := team.acting_seat();
  SELECT c.clip_id INTO unheld FROM (SELECT DISTINCT clip_id FROM new_rows) c WHERE NOT team.holds_clip_job(me, c.clip_id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'team.%: seat % holds no job of clip %: only the holder publishes its results', TG_TABLE_NAME, me, unheld USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END $$;

-- The clip of each row. No default: the app names it; the administrator's old rows keep NULL.
ALTER TABLE team.uploads ADD COLUMN clip_id bigint REFERENCES team.clips (id) ON DELETE CASCADE;
ALTER TABLE team.tasks ADD COLUMN clip_id bigint REFERENCES team.clips (id) ON DELETE CASCADE;
-- NOT VALID: checked for every row written from now on, not against the rows from before.
ALTER TABLE team.uploads ADD CONSTRAINT uploads_clip_named CHECK (clip_id IS NOT NULL) NOT VALID;
ALTER TABLE team.tasks ADD CONSTRAINT tasks_clip_named CHECK (clip_id IS NOT NULL) NOT VALID;
-- One row per clip and request: the same request id in two clips is two rows (a seat's row for its
-- clip never blocks another clip's holder). NULLS NOT DISTINCT: the old rows stay one per request.
ALTER TABLE team.uploads DROP CONSTRAINT uploads_pkey;
ALTER TABLE team.uploads ADD CONSTRAINT uploads_clip_request UNIQUE NULLS NOT DISTINCT (clip_id, request_id, region);
ALTER TABLE team.tasks DROP CONSTRAINT tasks_pkey;
ALTER TABLE team.tasks ADD CONSTRAINT tasks_clip_request UNIQUE NULLS NOT DISTINCT (clip_id, upload_request_id, kind, region);

-- A journal row is written only by a holder of its clip's job. Fires after guard_own (triggers fire
-- in name order): a row in another seat's name is refused as such first.
CREATE FUNCTION team.guard_journal_clip() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
BEGIN
  IF team.acting_as_admin() THEN
    RETURN NEW;
  END IF;
  me := team.acting_seat();
  IF NOT team.holds_clip_job(me, NEW.clip_id) THEN
    RAISE EXCEPTION 'team.%: seat % holds no job of clip %: only its holder writes the clip''s journal', TG_TABLE_NAME, me, NEW.clip_id USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION team.guard_journal_clip() FROM PUBLIC;
CREATE TRIGGER guard_while_held BEFORE INSERT OR UPDATE ON team.uploads FOR EACH ROW EXECUTE FUNCTION team.guard_journal_clip();
CREATE TRIGGER guard_while_held BEFORE INSERT OR UPDATE ON team.tasks FOR EACH ROW EXECUTE FUNCTION team.guard_journal_clip();
