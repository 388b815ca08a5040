-- People and collection members stamped by the server's clock, as marks are since 0014 (issue 40 item 1:
-- "timestamps taken from the server's clock, never the client's"). Until now a person's name, hidden
-- flag, merge and forget, a naming fact and a collection member's add and removal kept the editor's
-- time (0011's team.check_stamp: the seat's own, not after the server's clock + 2 minutes) and the
-- later one won. Now every stamp a seat's write produces is the server's (team.server_stamp), and:
--   - fields with a base (0014's rule, team.base_holds): a person's name and hidden flag; a collection
--     member's presence (one field, present or not, stamped by the later of its add and removal, as a
--     keyword; a seat sends its base as added_at and says "absent" with any removed_at). A changed
--     value is taken only over the base the server still holds, else the server's value stays;
--   - tombstones, the first one stays (kind `first`): a person's merge (into whom, too) and forget;
--   - insert-only facts, stamped on arrival (kind `arrived`): a naming fact ("this face is / is not
--     this person"). It has no base: the editor's latest word about one face and one person is the
--     one that reaches the server last, and every seat orders facts by that stamp alike.
-- A member's upload columns (video, status, claim) are not stamps: 0011's guard_upload keeps them.
-- Stamps are whole milliseconds; existing ones stay (a member whose add and removal fall in one
-- millisecond keeps its presence by a millisecond's nudge of the losing stamp). Frozen once shipped.

-- 0014's guard, with two more kinds: `first` keeps its value columns with its stamp (a merge's target),
-- `arrived` stamps any change of its values now (no base).
CREATE OR REPLACE FUNCTION team.stamp_fields() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid;
  n jsonb := to_jsonb(NEW);
  o jsonb;
  patch jsonb := '{}';
  kind text;
  at_col text;
  by_col text;
  vals text[];
  key_cols text;
  exists_already boolean;
  changed boolean;
  i int;
BEGIN
  IF NOT team.acting_as_admin() THEN
    me := team.acting_seat();
  END IF;
  IF TG_OP = 'INSERT' THEN
    -- An upsert's proposed row meeting a row: the update it turns into decides.
    key_cols := split_part(TG_ARGV[0], ':', 2);
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM team.%I t WHERE (%s) IS NOT DISTINCT FROM (%s))', TG_TABLE_NAME,
                   (SELECT string_agg('t.' || quote_ident(c), ', ') FROM unnest(string_to_array(key_cols, ',')) c),
                   (SELECT string_agg('($1).' || quote_ident(c), ', ') FROM unnest(string_to_array(key_cols, ',')) c))
      INTO exists_already USING NEW;
    IF exists_already THEN
      RETURN NEW;
    END IF;
  ELSE
    o := to_jsonb(OLD);
  END IF;
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    kind := split_part(TG_ARGV[i], ':', 1);
    at_col := split_part(TG_ARGV[i], ':', 2);
    by_col := split_part(TG_ARGV[i], ':', 3);
    vals := coalesce(string_to_array(nullif(split_part(TG_ARGV[i], ':', 4), ''), ','), '{}');
    changed := o IS NOT NULL AND EXISTS (SELECT 1 FROM unnest(vals) v WHERE n -> v IS DISTINCT FROM o -> v);
    IF o IS NULL THEN
      -- a new row: every field it sets is the session's seat's, now (the administrator names the seat)
      IF kind <> 'first' OR n ->> at_col IS NOT NULL THEN
        patch := patch || jsonb_build_object(at_col, team.server_stamp(NULL), by_col, coalesce(me::text, n ->> by_col));
      END IF;
    ELSIF kind = 'made' OR (kind = 'first' AND (o ->> at_col IS NOT NULL OR n ->> at_col IS NULL)) THEN
      patch := patch || jsonb_build_object(at_col, o -> at_col, by_col, o -> by_col) || coalesce((SELECT jsonb_object_agg(v, o -> v) FROM unnest(vals) v), '{}');
    ELSIF kind = 'first' OR (kind = 'arrived' AND changed) THEN
      patch := patch || jsonb_build_object(at_col, team.server_stamp((o ->> at_col)::timestamptz), by_col, coalesce(me::text, n ->> by_col));
    ELSIF NOT changed THEN
      patch := patch || jsonb_build_object(at_col, o -> at_col, by_col, o -> by_col);
    ELSIF team.base_holds((n ->> at_col)::timestamptz, (o ->> at_col)::timestamptz) THEN
      patch := patch || jsonb_build_object(at_col, team.server_stamp((o ->> at_col)::timestamptz), by_col, coalesce(me::text, n ->> by_col));
    ELSE
      -- changed on the server since the seat's base: the server's value stays
      patch := patch || jsonb_build_object(at_col, o -> at_col, by_col, o -> by_col) || (SELECT jsonb_object_agg(v, o -> v) FROM unnest(vals) v);
    END IF;
  END LOOP;
  RETURN jsonb_populate_record(NEW, patch);
END $$;

-- A collection member's presence: the rule of team.stamp_keyword, on a row whose other columns (the
-- upload's) go through untouched. An update that leaves the four presence columns as they are (a
-- claim, a video id) changes no presence.
CREATE FUNCTION team.stamp_member() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid := CASE WHEN team.acting_as_admin() THEN NEW.added_by ELSE team.acting_seat() END;
  had boolean;
  cur timestamptz;
  s timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM team.collection_videos m WHERE m.collection_id = NEW.collection_id AND m.region = NEW.region AND m.clip_id = NEW.clip_id) THEN
      RETURN NEW;
    END IF;
    s := team.server_stamp(NULL);
    NEW.added_at := s;
    NEW.added_by := me;
    IF NEW.removed_at IS NOT NULL THEN
      NEW.removed_at := s;
      NEW.removed_by := me;
    END IF;
    RETURN NEW;
  END IF;
  IF (NEW.added_at, NEW.added_by, NEW.removed_at, NEW.removed_by) IS NOT DISTINCT FROM (OLD.added_at, OLD.added_by, OLD.removed_at, OLD.removed_by) THEN
    RETURN NEW;
  END IF;
  had := OLD.removed_at IS NULL OR OLD.added_at > OLD.removed_at;
  cur := greatest(OLD.added_at, OLD.removed_at);
  IF had = (NEW.removed_at IS NULL) OR NOT team.base_holds(NEW.added_at, cur) THEN
    NEW.added_at := OLD.added_at;
    NEW.added_by := OLD.added_by;
    NEW.removed_at := OLD.removed_at;
    NEW.removed_by := OLD.removed_by;
    RETURN NEW;
  END IF;
  s := team.server_stamp(cur);
  IF had THEN
    NEW.added_at := OLD.added_at;
    NEW.added_by := OLD.added_by;
    NEW.removed_at := s;
    NEW.removed_by := me;
  ELSE
    NEW.added_at := s;
    NEW.added_by := me;
    NEW.removed_at := OLD.removed_at;
    NEW.removed_by := OLD.removed_by;
  END IF;
  RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION team.stamp_member() FROM PUBLIC;

DROP TRIGGER guard_stamps ON team.people;
DROP TRIGGER guard_stamps ON team.people_facts;
DROP TRIGGER guard_stamps ON team.collection_videos;
-- 0011's stamp check guards nothing any more
DROP FUNCTION team.guard_stamps();
DROP FUNCTION team.check_stamp(text, text, timestamptz, uuid, timestamptz, uuid, uuid);

-- Existing stamps in whole milliseconds (a seat's base must compare equal), only on rows that change.
UPDATE team.people SET name_at = date_trunc('milliseconds', name_at), hidden_at = date_trunc('milliseconds', hidden_at),
    merged_at = date_trunc('milliseconds', merged_at), forgotten_at = date_trunc('milliseconds', forgotten_at)
  WHERE (name_at, hidden_at, merged_at, forgotten_at) IS DISTINCT FROM
        (date_trunc('milliseconds', name_at), date_trunc('milliseconds', hidden_at), date_trunc('milliseconds', merged_at), date_trunc('milliseconds', forgotten_at));
UPDATE team.people_facts SET at = date_trunc('milliseconds', at) WHERE at <> date_trunc('milliseconds', at);
-- A member's presence was "the add is the later by (time, seat)"; it is "the add is the later" now: a
-- tie (the same millisecond) moves the losing stamp a millisecond back, so no member changes presence.
UPDATE team.collection_videos SET
    added_at = CASE WHEN removed_at IS NOT NULL AND (added_at, added_by) <= (removed_at, removed_by)
                         AND date_trunc('milliseconds', added_at) >= date_trunc('milliseconds', removed_at)
                    THEN date_trunc('milliseconds', removed_at) - interval '1 millisecond' ELSE date_trunc('milliseconds', added_at) END,
    removed_at = CASE WHEN removed_at IS NOT NULL AND (added_at, added_by) > (removed_at, removed_by)
                           AND date_trunc('milliseconds', removed_at) >= date_trunc('milliseconds', added_at)
                      THEN date_trunc('milliseconds', added_at) - interval '1 millisecond' ELSE date_trunc('milliseconds', removed_at) END
  WHERE (added_at, removed_at) IS DISTINCT FROM (date_trunc('milliseconds', added_at), date_trunc('milliseconds', removed_at))
     OR date_trunc('milliseconds', added_at) = date_trunc('milliseconds', removed_at);

-- Before people_forget (triggers fire in name order): the forget's erasing of the name is the server's, not the seat's.
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.people FOR EACH ROW EXECUTE FUNCTION team.stamp_fields('key:uuid',
  'edit:name_at:name_by:name', 'edit:hidden_at:hidden_by:hidden', 'first:merged_at:merged_by:merged_into', 'first:forgotten_at:forgotten_by:');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.people_facts FOR EACH ROW EXECUTE FUNCTION team.stamp_fields('key:person_uuid,clip_id,time_ms,x,y,w,h',
  'arrived:at:seat:kind,frame');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.collection_videos FOR EACH ROW EXECUTE FUNCTION team.stamp_member();
