-- Only real changes write the feed (issue 40, item 3). An UPDATE that changes nothing (a seat's
-- `SET file_name = file_name` over 50,000 clips) wrote one feed row per row it touched, and every
-- seat then read and applied them all. The UPDATE triggers now see the rows before and after, and a
-- row whose content is the same after as before writes nothing. Rows are compared whole (as jsonb),
-- set against set (EXCEPT ALL: hashed or sorted, never one row against every other); a changed row
-- is named once per statement by the key the feed carries.
CREATE OR REPLACE FUNCTION team.record_changes() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, team AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(o) ->> TG_ARGV[0], TG_OP FROM old_rows o;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO team.changes (table_name, row_key, op)
      SELECT DISTINCT TG_TABLE_NAME, d.j ->> TG_ARGV[0], TG_OP
      FROM (SELECT to_jsonb(n) AS j FROM new_rows n EXCEPT ALL SELECT to_jsonb(o) FROM old_rows o) d;
  ELSE
    INSERT INTO team.changes (table_name, row_key, op) SELECT TG_TABLE_NAME, to_jsonb(n) ->> TG_ARGV[0], TG_OP FROM new_rows n;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('team_changes', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION team.record_changes() FROM PUBLIC;

-- Each table the feed carries, with the key its rows are named by (as in 0001, 0003, 0004, 0005).
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('clips', 'id'), ('clip_locations', 'id'), ('clip_results', 'clip_id'), ('clip_marks', 'clip_id'),
    ('ranges', 'id'), ('keywords', 'id'), ('collection_videos', 'id')) AS f(tbl, key)
  LOOP
    EXECUTE format('DROP TRIGGER %I ON team.%I', t.tbl || '_changes_upd', t.tbl);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER UPDATE ON team.%I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes(%L)',
      t.tbl || '_changes_upd', t.tbl, t.key);
  END LOOP;
END $$;
