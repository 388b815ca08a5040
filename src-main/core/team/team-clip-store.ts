import type { ClientBase } from 'pg';

/**
 * The one owner of `team.clips` and `team.clip_locations`: a clip is its content fingerprint, found
 * at any number of places on the team's shares.
 */

export interface TeamClipInput {
  fingerprint: string;
  sizeBytes: number;
  fileName: string;
  seatId: string;
}

/**
 * The team's clip for this content: made by the first seat that meets it, found by every other
 * (two seats importing one card at once get one row). `created` says which this call was.
 */
export async function adoptTeamClip(client: ClientBase, c: TeamClipInput): Promise<{ id: number; created: boolean }> {
  const made = await client.query<{ id: string }>(
    `INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (fingerprint) DO NOTHING RETURNING id`,
    [c.fingerprint, c.sizeBytes, c.fileName, c.seatId],
  );
  if (made.rows[0]) return { id: Number(made.rows[0].id), created: true };
  const found = await client.query<{ id: string }>('SELECT id FROM team.clips WHERE fingerprint = $1', [c.fingerprint]);
  return { id: Number(found.rows[0]!.id), created: false };
}

/** A seat saw the clip at `rel_path` under the share `root_key`. */
export async function recordTeamClipLocation(client: ClientBase, l: { clipId: number; rootKey: string; relPath: string; seatId: string }): Promise<void> {
  await client.query(
    `INSERT INTO team.clip_locations (clip_id, root_key, rel_path, seen_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (clip_id, root_key, rel_path) DO UPDATE SET seen_by = excluded.seen_by, seen_at = now()`,
    [l.clipId, l.rootKey, l.relPath, l.seatId],
  );
}
