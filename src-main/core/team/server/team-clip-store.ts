import type { ClientBase } from 'pg';
import { z } from 'zod';
import { AppError } from '../../../../src-shared/errors';
import type { LocationPair, ShareLocation } from '../rules/root-map';
import { sharedPathProblem } from '../rules/shared-path';
import { sourceUrlProblem, teamSourceUrl } from '../rules/source-url';
import { clipToBytes, TEAM_BOUNDS } from '../rules/team-bounds';

/**
 * The one owner of `team.clips` and `team.clip_locations`: a clip is its content fingerprint, found
 * at any number of places on the team's shares, or the address it was added by (Add by URL).
 */

export interface TeamClipInput {
  fingerprint: string;
  sizeBytes: number;
  fileName: string;
  seatId: string;
}

/**
 * The team's clip for this content: made by the first seat that meets it, found by every other
 * (two seats importing one card at once get one row). `created` says which this call was. The name
 * is only a hint of where the clip was first seen: one longer than the server keeps is cut to fit.
 */
export async function adoptTeamClip(client: ClientBase, c: TeamClipInput): Promise<{ id: number; created: boolean }> {
  const made = await client.query<{ id: string }>(
    `INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (fingerprint) DO NOTHING RETURNING id`,
    [c.fingerprint, c.sizeBytes, clipToBytes(c.fileName, TEAM_BOUNDS.fileName), c.seatId],
  );
  if (made.rows[0]) return { id: Number(made.rows[0].id), created: true };
  const found = await client.query<{ id: string }>('SELECT id FROM team.clips WHERE fingerprint = $1', [c.fingerprint]);
  return { id: Number(found.rows[0]!.id), created: false };
}

/**
 * The team's clip for this address (a clip added by URL): made by the first seat that adds it, found
 * by every other. An address that is not a plain web address is not written (the server would refuse
 * it too, team migration 0013): refused as a value, the clip stays this seat's alone.
 */
export async function adoptTeamUrlClip(client: ClientBase, c: { sourceUrl: string; fileName: string; seatId: string }): Promise<{ id: number; created: boolean } | AppError> {
  const problem = sourceUrlProblem(c.sourceUrl);
  if (problem) return new AppError('invalid', `the address of this clip is not shared with the team (${problem}): ${JSON.stringify(c.sourceUrl.slice(0, 200))}`);
  const made = await client.query<{ id: string }>(
    `INSERT INTO team.clips (source_url, file_name, created_by) VALUES ($1, $2, $3)
     ON CONFLICT (source_url) DO NOTHING RETURNING id`,
    [c.sourceUrl, clipToBytes(c.fileName, TEAM_BOUNDS.fileName), c.seatId],
  );
  if (made.rows[0]) return { id: Number(made.rows[0].id), created: true };
  const found = await client.query<{ id: string }>('SELECT id FROM team.clips WHERE source_url = $1', [c.sourceUrl]);
  return { id: Number(found.rows[0]!.id), created: false };
}

/**
 * A seat saw the clip at `rel_path` under the share `root_key`. A path that is not a plain one going
 * down from the share's root is not written (the server would refuse it too): refused as a value, the
 * clip is the team's all the same, only not found through this place.
 */
export async function recordTeamClipLocation(client: ClientBase, l: { clipId: number; rootKey: string; relPath: string; seatId: string }): Promise<AppError | null> {
  const problem = sharedPathProblem(l.relPath);
  if (problem) return new AppError('invalid', `the place of team clip ${l.clipId} is not shared (${problem}): ${JSON.stringify(l.relPath.slice(0, 200))}`);
  await client.query(
    `INSERT INTO team.clip_locations (clip_id, root_key, rel_path, seen_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (clip_id, root_key, rel_path) DO UPDATE SET seen_by = excluded.seen_by, seen_at = now()`,
    [l.clipId, l.rootKey, l.relPath, l.seatId],
  );
  return null;
}

/** A clip the team has results for, with every place a seat saw it. */
export interface PublishedTeamClip {
  id: number;
  fingerprint: string;
  sizeBytes: number;
  fileName: string;
  locations: ShareLocation[];
}

/**
 * Clips with results for the profile, by id: after `afterId` (a page of the whole library), or only
 * `ids` (the feed's latest). Clips added by URL are left out: they have no place on a share
 * (`publishedUrlClips` lists them).
 */
export async function publishedTeamClips(
  client: ClientBase,
  q: { profileId: string; afterId?: number; ids?: readonly number[]; limit: number },
): Promise<PublishedTeamClip[]> {
  const r = await client.query<{ id: string; fingerprint: string; size_bytes: string; file_name: string; locations: ShareLocation[] }>(
    `SELECT c.id, c.fingerprint, c.size_bytes, c.file_name,
            COALESCE(json_agg(json_build_object('rootKey', l.root_key, 'relPath', l.rel_path) ORDER BY l.seen_at DESC) FILTER (WHERE l.id IS NOT NULL), '[]') AS locations
       FROM team.clip_results r JOIN team.clips c ON c.id = r.clip_id LEFT JOIN team.clip_locations l ON l.clip_id = c.id
      WHERE r.profile_id = $1 AND c.fingerprint IS NOT NULL AND c.id > $2 AND ($3::bigint[] IS NULL OR c.id = ANY ($3))
      GROUP BY c.id ORDER BY c.id LIMIT $4`,
    [q.profileId, q.afterId ?? 0, q.ids ? q.ids.map(String) : null, q.limit],
  );
  return r.rows.map((row) => ({ id: Number(row.id), fingerprint: row.fingerprint, sizeBytes: Number(row.size_bytes), fileName: row.file_name, locations: row.locations }));
}

/**
 * Where other places saw the clips this seat saw (the most recent `limit`): what the seat learns its
 * share roots from (team/rules/root-map.ts).
 */
export async function locationPairs(client: ClientBase, seatId: string, limit: number): Promise<LocationPair[]> {
  const r = await client.query<{ their_root: string; their_rel: string; our_root: string; our_rel: string }>(
    `SELECT t.root_key AS their_root, t.rel_path AS their_rel, o.root_key AS our_root, o.rel_path AS our_rel
       FROM team.clip_locations o JOIN team.clip_locations t ON t.clip_id = o.clip_id AND t.id <> o.id
      WHERE o.seen_by = $1
      ORDER BY o.seen_at DESC LIMIT $2`,
    [seatId, limit],
  );
  return r.rows.map((row) => ({ theirs: { rootKey: row.their_root, relPath: row.their_rel }, ours: { rootKey: row.our_root, relPath: row.our_rel } }));
}

/** A clip added by URL that the team has results for: where it comes from, and the name it was added under. */
export interface PublishedUrlClip {
  id: number;
  sourceUrl: string;
  fileName: string;
}

/** Another seat's row, read at the border: its address passes the same rules it was written by. */
const urlClipRow = z.object({ id: z.string(), source_url: teamSourceUrl, file_name: z.string() });

/**
 * Clips added by URL with results for the profile (the service's reading of the address,
 * library/remote-clips.ts URL_PROFILE_ID), paged or by id as `publishedTeamClips`. A row whose address
 * fails the rules (written by hand before team migration 0013) is left out; `refused` counts them.
 */
export async function publishedUrlClips(
  client: ClientBase,
  q: { profileId: string; afterId?: number; ids?: readonly number[]; limit: number },
): Promise<{ clips: PublishedUrlClip[]; refused: number[]; lastId: number | null }> {
  const r = await client.query<{ id: string; source_url: string; file_name: string }>(
    `SELECT c.id, c.source_url, c.file_name
       FROM team.clip_results r JOIN team.clips c ON c.id = r.clip_id
      WHERE r.profile_id = $1 AND c.source_url IS NOT NULL AND c.id > $2 AND ($3::bigint[] IS NULL OR c.id = ANY ($3))
      ORDER BY c.id LIMIT $4`,
    [q.profileId, q.afterId ?? 0, q.ids ? q.ids.map(String) : null, q.limit],
  );
  const clips: PublishedUrlClip[] = [];
  const refused: number[] = [];
  for (const row of r.rows) {
    const ok = urlClipRow.safeParse(row);
    if (ok.success) clips.push({ id: Number(ok.data.id), sourceUrl: ok.data.source_url, fileName: ok.data.file_name });
    else refused.push(Number(row.id));
  }
  return { clips, refused, lastId: r.rows.length > 0 ? Number(r.rows.at(-1)!.id) : null };
}
