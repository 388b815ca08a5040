import type { ClientBase } from 'pg';
import { TEAM_BOUNDS, utf8Bytes } from '../rules/team-bounds';
import type { TensorService } from '../../tensors/chunk-upload';

/**
 * The one owner of `team.uploads` and `team.tasks` (migrations 0003, 0015): the team's copy of what the
 * seat holding a clip has sent the service, so a seat taking the clip over after the holder died sends
 * nothing twice that the service already answered. Every row names its team clip, and is written only
 * by a seat holding one of that clip's jobs (0015 refuses the others); readers ask by clip, so a row
 * written under another clip is never used (request ids are the same on every seat for the same
 * content: a seat could otherwise seed keys for a clip it never held). A seat rewrites only its own
 * rows: another seat's entry for the same clip and request stays as that seat wrote it.
 */

/**
 * The service answered an upload of the team clip: its storage keys (the catalog's JSON). Keys longer
 * than the server keeps are not sent: the journal is a help, and a seat taking the clip over then uploads again.
 */
export async function recordTeamUpload(client: ClientBase, seatId: string, u: { teamClipId: number; requestId: string; region: string; storageKeysJson: string }): Promise<void> {
  if (utf8Bytes(u.storageKeysJson) > TEAM_BOUNDS.storageKeys) return;
  await client.query(
    `INSERT INTO team.uploads (clip_id, request_id, region, storage_keys, seat_id) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (clip_id, request_id, region) DO UPDATE SET storage_keys = excluded.storage_keys, at = now() WHERE team.uploads.seat_id = excluded.seat_id`,
    [u.teamClipId, u.requestId, u.region, u.storageKeysJson, seatId],
  );
}

/** Storage keys the team holds for these request ids of the team clip (as the catalog's JSON text). */
export async function teamUploadKeys(client: ClientBase, teamClipId: number, region: string, requestIds: readonly string[]): Promise<Map<string, string>> {
  if (requestIds.length === 0) return new Map();
  const found = await client.query<{ request_id: string; keys: string }>(
    'SELECT request_id, storage_keys::text AS keys FROM team.uploads WHERE clip_id = $1 AND region = $2 AND request_id = ANY($3::text[])',
    [teamClipId, region, [...requestIds]],
  );
  return new Map(found.rows.map((r) => [r.request_id, r.keys]));
}

/** The service answered a submission of the team clip: its task id. */
export async function recordTeamTask(client: ClientBase, seatId: string, t: { teamClipId: number; uploadRequestId: string; kind: TensorService; region: string; taskId: string }): Promise<void> {
  await client.query(
    `INSERT INTO team.tasks (clip_id, upload_request_id, kind, region, task_id, seat_id) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (clip_id, upload_request_id, kind, region) DO UPDATE SET task_id = excluded.task_id, at = now() WHERE team.tasks.seat_id = excluded.seat_id`,
    [t.teamClipId, t.uploadRequestId, t.kind, t.region, t.taskId, seatId],
  );
}

/** Task ids the team holds for the team clip, by `<kind>:<upload request id>`. */
export async function teamTasks(client: ClientBase, teamClipId: number, region: string, uploadRequestIds: readonly string[]): Promise<Map<string, string>> {
  if (uploadRequestIds.length === 0) return new Map();
  const found = await client.query<{ upload_request_id: string; kind: string; task_id: string }>(
    'SELECT upload_request_id, kind, task_id FROM team.tasks WHERE clip_id = $1 AND region = $2 AND upload_request_id = ANY($3::text[])',
    [teamClipId, region, [...uploadRequestIds]],
  );
  return new Map(found.rows.map((r) => [`${r.kind}:${r.upload_request_id}`, r.task_id]));
}
