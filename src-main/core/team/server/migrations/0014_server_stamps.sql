-- Marks stamped by the server's clock (issue 40 item 1: "timestamps taken from the server's clock, never
-- the client's"). Until now a range's name, note, rating and span, a clip's rating and a keyword's
-- add or removal kept the time the editor made the change (a seat's clock, bounded by the server's
-- plus 2 minutes, team.check_stamp of 0011) and the later one won. Now every stamp a seat's write
-- produces is the server's `clock_timestamp()`, and a conflict is settled by optimistic concurrency:
--   - the stamp a seat sends with a field is only its base, the server's stamp of the version it last
--     saw of that field (an epoch value for a field it made itself);
--   - a field whose value the seat changed is taken only when the base is not older than the field's
--     stamp (nobody changed it on the server since the seat saw it; team.base_holds); it is then
--     stamped now, by the session's seat. Otherwise the server keeps its newer value: the edit lost,
--     which is no error (the seat reads the row back, takes the server's value and drops its edit). A
--     forged base wins nothing: 1970 is older than every stamp, 9999 later than the server's clock;
--     an unchanged value keeps its stamp;
--   - a range's delete is a tombstone as before: the first one stays, stamped by the server;
--   - a keyword is one field, present or not, stamped by the later of its add and its removal.
-- Stamps are whole milliseconds (what a seat's number holds, so a base read back compares equal) and
-- each is later than the one it replaces. Existing stamps stay as they are. People and collection
-- members keep 0011's guard (not moved yet). Frozen once shipped: change the schema in a new file.

-- The server's time of a change to a field stamped `after` (NULL: a new field).
CREATE FUNCTION team.server_stamp(after timestamptz) RETURNS timestamptz
  LANGUAGE sql VOLATILE SET search_path = pg_catalog AS $$
  SELECT greatest(date_trunc('milliseconds', clock_timestamp()), after + interval '1 millisecond')
$$;

-- A seat's base still holds over the field's stamp: nobody changed the field since the version the
-- seat saw. Stamps only grow, so an honest base is the current stamp; a later one (up to now) is an
-- edit made over a version at least as new, what a seat that reads the row first may do anyway; a
-- base after the server's clock is no version at all and holds over nothing. Edits a seat had waiting
-- when this migration came carry their edit time as the base, so they land when they are later than
-- the field's last change, as they did before.
CREATE FUNCTION team.base_holds(base timestamptz, current_stamp timestamptz) RETURNS boolean
  LANGUAGE sql VOLATILE SET search_path = pg_catalog AS $$
  SELECT base >= current_stamp AND base <= clock_timestamp()
$$;

-- The stamped fields of ranges and clip ratings. TG_ARGV[0] names the row's key ('key:col,col'), then
-- one 'kind:at_column:by_column:value,columns' per field; kind is `edit` (the rule above), `first`
-- (a tombstone: the first one stays) or `made` (stamped when the row is made, never after).
CREATE FUNCTION team.stamp_fields() RETURNS trigger
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
    IF o IS NULL THEN
      -- a new row: every field it sets is the session's seat's, now (the administrator names the seat)
      IF kind <> 'first' OR n ->> at_col IS NOT NULL THEN
        patch := patch || jsonb_build_object(at_col, team.server_stamp(NULL), by_col, coalesce(me::text, n ->> by_col));
      END IF;
    ELSIF kind = 'made' OR (kind = 'first' AND (o ->> at_col IS NOT NULL OR n ->> at_col IS NULL)) THEN
      patch := patch || jsonb_build_object(at_col, o -> at_col, by_col, o -> by_col);
    ELSIF kind = 'first' THEN
      patch := patch || jsonb_build_object(at_col, team.server_stamp(NULL), by_col, coalesce(me::text, n ->> by_col));
    ELSIF NOT EXISTS (SELECT 1 FROM unnest(vals) v WHERE n -> v IS DISTINCT FROM o -> v) THEN
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

-- A keyword: present (removed_at NULL, or the add later than the removal) or not, one field whose
-- stamp is the later of added_at and removed_at; a seat sends its base as added_at and says "absent"
-- with any removed_at. The spelling follows the add that made it present.
CREATE FUNCTION team.stamp_keyword() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
DECLARE
  me uuid := CASE WHEN team.acting_as_admin() THEN NEW.added_by ELSE team.acting_seat() END;
  had boolean;
  cur timestamptz;
  s timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM team.keywords k WHERE k.clip_id = NEW.clip_id AND k.range_id IS NOT DISTINCT FROM NEW.range_id AND k.keyword_norm = NEW.keyword_norm) THEN
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
  had := OLD.removed_at IS NULL OR OLD.added_at > OLD.removed_at;
  cur := greatest(OLD.added_at, OLD.removed_at);
  IF had = (NEW.removed_at IS NULL) OR NOT team.base_holds(NEW.added_at, cur) THEN
    RETURN OLD;
  END IF;
  s := team.server_stamp(cur);
  IF had THEN
    NEW := OLD;
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

REVOKE ALL ON FUNCTION team.server_stamp(timestamptz), team.base_holds(timestamptz, timestamptz), team.stamp_fields(), team.stamp_keyword() FROM PUBLIC;

DROP TRIGGER guard_stamps ON team.ranges;
DROP TRIGGER guard_stamps ON team.keywords;
DROP TRIGGER guard_stamps ON team.clip_marks;

-- Existing stamps stay, in whole milliseconds: a seat holds them as such, and its base must compare
-- equal (rows the app wrote are already whole; rows written by hand with now() are not). Before the
-- new guards, which would keep the old stamps; only rows that change, so the feed names only those.
UPDATE team.ranges SET span_at = date_trunc('milliseconds', span_at), name_at = date_trunc('milliseconds', name_at),
    note_at = date_trunc('milliseconds', note_at), rating_at = date_trunc('milliseconds', rating_at),
    created_at = date_trunc('milliseconds', created_at), deleted_at = date_trunc('milliseconds', deleted_at)
  WHERE (span_at, name_at, note_at, rating_at, created_at, deleted_at) IS DISTINCT FROM
        (date_trunc('milliseconds', span_at), date_trunc('milliseconds', name_at), date_trunc('milliseconds', note_at),
         date_trunc('milliseconds', rating_at), date_trunc('milliseconds', created_at), date_trunc('milliseconds', deleted_at));
UPDATE team.keywords SET added_at = date_trunc('milliseconds', added_at), removed_at = date_trunc('milliseconds', removed_at)
  WHERE (added_at, removed_at) IS DISTINCT FROM (date_trunc('milliseconds', added_at), date_trunc('milliseconds', removed_at));
UPDATE team.clip_marks SET rating_at = date_trunc('milliseconds', rating_at) WHERE rating_at <> date_trunc('milliseconds', rating_at);

CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.ranges FOR EACH ROW EXECUTE FUNCTION team.stamp_fields('key:id',
  'edit:span_at:span_by:in_frame,out_frame,rate_num,rate_den', 'edit:name_at:name_by:name', 'edit:note_at:note_by:note',
  'edit:rating_at:rating_by:rating', 'made:created_at:created_by:', 'first:deleted_at:deleted_by:');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.clip_marks FOR EACH ROW EXECUTE FUNCTION team.stamp_fields('key:clip_id',
  'edit:rating_at:rating_by:rating');
CREATE TRIGGER guard_stamps BEFORE INSERT OR UPDATE ON team.keywords FOR EACH ROW EXECUTE FUNCTION team.stamp_keyword();
