-- A clip's place on a share is a plain path going down from the share's root (issue 40 item 2): every
-- other seat joins it onto its own mount of the share, so a row with '..' made seats read folders of
-- their own disks (and a folder's 4096 bytes passed for a clip's size). The seat checks a place before
-- writing it (team/rules/shared-path.ts); the server refuses what a seat's role writes by hand, by the
-- same rules: 1 to 1024 bytes, no control characters (C0, DEL, C1), line separators, bidirectional
-- overrides or isolates, no backslash, no drive ('C:'), no leading '/', and no segment that is empty or
-- made of dots and spaces only ('.', '..' and their Windows spellings '.. ', '...').
-- Frozen once shipped: change the schema in a new file.

CREATE FUNCTION team.confined_path(p text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog AS $$
  SELECT octet_length(p) BETWEEN 1 AND 1024
     AND p !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]'
     AND p !~ '^[A-Za-z]:'
     AND p !~ '(^|/)[. ]*(/|$)'
$$;

-- Rows written before this check are deleted rather than kept NOT VALID: a place is only a hint
-- (a seat that has the clip records where it saw it), and one left in would still be handed to every
-- seat that looks for the clip. A legitimate path over 1024 bytes goes too; no macOS seat can have one.
DELETE FROM team.clip_locations WHERE NOT team.confined_path(rel_path);

ALTER TABLE team.clip_locations DROP CONSTRAINT clip_locations_rel_path_check;
ALTER TABLE team.clip_locations ADD CONSTRAINT clip_locations_rel_path_confined CHECK (team.confined_path(rel_path));
