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

DROP TRIGGER clips_changes_upd ON team.clips;
CREATE TRIGGER clips_changes_upd AFTER UPDATE ON team.clips REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
DROP TRIGGER clip_locations_changes_upd ON team.clip_locations;
CREATE TRIGGER clip_locations_changes_upd AFTER UPDATE ON team.clip_locations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
DROP TRIGGER clip_results_changes_upd ON team.clip_results;
CREATE TRIGGER clip_results_changes_upd AFTER UPDATE ON team.clip_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
DROP TRIGGER clip_marks_changes_upd ON team.clip_marks;
CREATE TRIGGER clip_marks_changes_upd AFTER UPDATE ON team.clip_marks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('clip_id');
DROP TRIGGER ranges_changes_upd ON team.ranges;
CREATE TRIGGER ranges_changes_upd AFTER UPDATE ON team.ranges REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
DROP TRIGGER keywords_changes_upd ON team.keywords;
CREATE TRIGGER keywords_changes_upd AFTER UPDATE ON team.keywords REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
DROP TRIGGER collection_videos_changes_upd ON team.collection_videos;
CREATE TRIGGER collection_videos_changes_upd AFTER UPDATE ON team.collection_videos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION team.record_changes('id');
