-- People by name shared by every seat (issue 39, part 5; docs/notes-team-library.md). What is shared is
-- the editor's naming, never a face: a person (uuid made on the seat, name, hidden, merged into another,
-- forgotten) and the facts that say "the face at this place is / is not this person", a place being a
-- team clip, a sample time and a box. Embeddings and face crops stay on each seat; no column here holds
-- either. Seats write offline first and send later, so name, hidden and the merge each carry the time
-- and seat of their last change and the later (time, seat) wins field by field (the marks' rule,
-- team/rules/marks-merge.ts; applied by team-people-store.ts). Seats never delete: "forget this person"
-- is a tombstone (forgotten_at/by; the first one stays) and the server itself then erases the person's
-- name and facts (team.forget_person below), so what the editor asked to forget is not kept here either.
-- Frozen once shipped: change the schema in a new file.

CREATE TABLE team.people (
  uuid         uuid PRIMARY KEY,
  name         text CHECK (length(name) BETWEEN 1 AND 80 AND octet_length(name) <= 320),   -- NULL: not named (or forgotten)
  name_at      timestamptz NOT NULL,
  name_by      uuid NOT NULL REFERENCES team.seats (seat_id),
  hidden       boolean NOT NULL,
  hidden_at    timestamptz NOT NULL,
  hidden_by    uuid NOT NULL REFERENCES team.seats (seat_id),
  -- the person is another (the editor merged them): their facts are that person's on every seat
  merged_into  uuid CHECK (merged_into <> uuid),
  merged_at    timestamptz,
  merged_by    uuid REFERENCES team.seats (seat_id),
  forgotten_at timestamptz,
  forgotten_by uuid REFERENCES team.seats (seat_id),
  CHECK ((merged_into IS NULL) = (merged_at IS NULL) AND (merged_at IS NULL) = (merged_by IS NULL)),
  CHECK ((forgotten_at IS NULL) = (forgotten_by IS NULL)),
  CHECK (forgotten_at IS NULL OR name IS NULL)
);

-- A fact about one face place. The box and time are rounded (1/10,000 of the frame, milliseconds) so
-- that a seat sending the same fact again meets its own row (UNIQUE) and writes nothing; the latest
-- choice about one face and one person holds (kind, at, seat replaced by a later (at, seat)).
CREATE TABLE team.people_facts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  person_uuid uuid NOT NULL,      -- no foreign key: a fact may name a group whose row no seat sent
  clip_id     bigint NOT NULL REFERENCES team.clips (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('is', 'is_not')),
  time_ms     integer NOT NULL CHECK (time_ms >= 0),
  frame       integer CHECK (frame >= 0),
  x           smallint NOT NULL CHECK (x BETWEEN 0 AND 10000),
  y           smallint NOT NULL CHECK (y BETWEEN 0 AND 10000),
  w           smallint NOT NULL CHECK (w BETWEEN 0 AND 10000),
  h           smallint NOT NULL CHECK (h BETWEEN 0 AND 10000),
  at          timestamptz NOT NULL,
  seat        uuid NOT NULL REFERENCES team.seats (seat_id),
  UNIQUE (person_uuid, clip_id, time_ms, x, y, w, h)
);
CREATE INDEX people_facts_clip ON team.people_facts (clip_id);

-- A forgotten person keeps only the tombstone: no name, and no fact naming them or anyone merged into
-- them. Runs as the owner (a seat has no DELETE), before the row is written.
CREATE FUNCTION team.forget_person() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF NEW.forgotten_at IS NOT NULL THEN
    NEW.name := NULL;
    DELETE FROM team.people_facts f
     WHERE f.person_uuid = NEW.uuid OR f.person_uuid IN (SELECT p.uuid FROM team.people p WHERE p.merged_into = NEW.uuid);
  END IF;
  RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION team.forget_person() FROM PUBLIC;
CREATE TRIGGER people_forget BEFORE INSERT OR UPDATE ON team.people FOR EACH ROW EXECUTE FUNCTION team.forget_person();

-- The feed, as migration 0008 has it: inserts, and updates that changed a row (facts are erased only by
-- a forget, which the person's own row tells).
CREATE TRIGGER people_changes_ins AFTER INSERT ON team.people REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('uuid');
CREATE TRIGGER people_changes_upd AFTER UPDATE ON team.people REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('uuid');
CREATE TRIGGER people_facts_changes_ins AFTER INSERT ON team.people_facts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
CREATE TRIGGER people_facts_changes_upd AFTER UPDATE ON team.people_facts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');

-- Every seat's writes here spend its write budget, as migration 0009 has it for the other tables.
CREATE TRIGGER people_budget_ins AFTER INSERT ON team.people REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();
CREATE TRIGGER people_budget_upd AFTER UPDATE ON team.people REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();
CREATE TRIGGER people_facts_budget_ins AFTER INSERT ON team.people_facts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();
CREATE TRIGGER people_facts_budget_upd AFTER UPDATE ON team.people_facts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team.spend_write_budget();

-- Seats write with upserts; a forget is a tombstone, so no DELETE.
GRANT SELECT, INSERT, UPDATE ON team.people, team.people_facts TO reelscout_seat;
