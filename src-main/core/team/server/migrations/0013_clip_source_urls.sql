-- Where a clip added by URL comes from (issue 40 item 4: "URL clips arrive on other seats like any
-- clip"). `team.clips.source_url` (0001) is that clip's identity, as the fingerprint is a file's; no
-- app wrote it until now. Every other seat catalogues the address, shows it to its editor and reads
-- the clip from it (through its own address rules), so the server now keeps only a plain web address:
-- http or https, a host, no credentials (no '@' before the path: `user:pass@` would hand a password to
-- every seat and its logs, and `https://bank@evil` shows one host and reads another), no control
-- characters, spaces, line separators, bidirectional overrides or backslash (a '/' to a browser), at
-- most 2048 bytes. The seat checks the same before it writes and again when it reads another seat's
-- row (team/rules/source-url.ts).
--
-- Who may write it (least privilege, as 0011): a seat writes an address only in the `team.clips` row it
-- makes itself, under its own seat and the server's time (0011's guard_own on INSERT); the seats'
-- group has no UPDATE or DELETE on `team.clips` at all, so no seat rewrites or removes the address of
-- a clip, its own included; its results are published only by the seat holding the clip's job (0011).
-- Nothing new is granted here. Frozen once shipped: change the schema in a new file.

CREATE FUNCTION team.safe_source_url(u text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog AS $$
  SELECT octet_length(u) BETWEEN 1 AND 2048
     AND u ~* '^https?://[^/?#@]+([/?#]|$)'
     AND u !~ '[\x01-\x20\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]'
$$;

-- Rows written before this check by hand (no app version wrote an address): deleted, with what hangs
-- off them (jobs, results, marks of that clip), rather than kept NOT VALID, since every seat would
-- otherwise be handed the address.
DELETE FROM team.clips WHERE source_url IS NOT NULL AND NOT team.safe_source_url(source_url);

ALTER TABLE team.clips DROP CONSTRAINT clips_source_url_size;
ALTER TABLE team.clips ADD CONSTRAINT clips_source_url_safe CHECK (team.safe_source_url(source_url));
