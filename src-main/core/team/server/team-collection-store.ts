import type { ClientBase } from 'pg';
import { VIDEO_STATES, type TeamVideoState } from '../../../../src-shared/contract/collections';
import { memberPresent, mergeVideo, type TeamMember, type TeamMemberKey } from '../../collections/collection-member-merge';

/**
 * The one owner of `team.collection_videos` (migration 0005): which team clip is in which of the
 * service's collections, the video id one seat's upload got, and the claim that keeps two seats from
 * uploading one clip into one collection. Clip ids here are the team's.
 */

export type ClaimOutcome =
  /** This seat uploads; it renews while it does and publishes the video id (or releases) after. */
  | { kind: 'claimed' }
  /** The team has the video: record it, upload nothing. */
  | { kind: 'adopt'; videoId: string; state: TeamVideoState; by: string }
  /** Another seat is uploading it: look again after `leftMs` (its lease), or when its video id arrives. */
  | { kind: 'wait'; holder: string | null; leftMs: number };

const time = (ms: number) => new Date(ms);
const seconds = (ms: number) => ms / 1000;
const isVideoState = (s: string): s is TeamVideoState => (VIDEO_STATES as readonly string[]).includes(s);

interface Row {
  collection_id: string;
  region: string;
  clip_id: string;
  video_id: string | null;
  status: string;
  uploaded_by: string | null;
  added_at: Date;
  added_by: string;
  removed_at: Date | null;
  removed_by: string | null;
}

const SELECT_MEMBERS = 'SELECT collection_id, region, clip_id, video_id, status, uploaded_by, added_at, added_by, removed_at, removed_by FROM team.collection_videos';

function toMember(r: Row): TeamMember {
  return {
    collectionId: r.collection_id,
    region: r.region,
    teamClipId: Number(r.clip_id),
    version: {
      added: { at: r.added_at.getTime(), by: r.added_by },
      removed: r.removed_at && r.removed_by ? { at: r.removed_at.getTime(), by: r.removed_by } : null,
      video: r.video_id !== null && isVideoState(r.status) && r.uploaded_by ? { id: r.video_id, state: r.status, by: r.uploaded_by } : null,
    },
  };
}

/**
 * The upload of a clip into a collection, for `seat`: claimed when nobody has a video id for it and
 * nobody else holds an unexpired claim, or when the service failed the team's video and this seat's
 * retry names that very video (`replacing`): the first retry of a failure wins, a seat that has not
 * seen it (or retries one already replaced) adopts or waits, and no seat's clock is compared with the
 * server's. One statement, so two seats claiming at once get one winner. The add's stamp is the
 * server's (team migration 0016's trigger).
 */
export async function claimCollectionUpload(client: ClientBase, seat: string, key: TeamMemberKey, replacing: string | null, leaseMs: number): Promise<ClaimOutcome> {
  const claimed = await client.query(
    `INSERT INTO team.collection_videos AS t (collection_id, region, clip_id, status, uploaded_by, upload_expires_at, added_at, added_by)
     VALUES ($1, $2, $3, 'uploading', $4, now() + make_interval(secs => $5), now(), $4)
     ON CONFLICT (collection_id, region, clip_id) DO UPDATE SET
       status = 'uploading', video_id = NULL, uploaded_by = excluded.uploaded_by, upload_expires_at = excluded.upload_expires_at, status_at = now()
     WHERE (t.video_id IS NULL AND (t.status = 'queued' OR t.upload_expires_at <= now() OR t.uploaded_by = excluded.uploaded_by))
        OR (t.status = 'failed' AND t.video_id = $6)
     RETURNING t.id`,
    [key.collectionId, key.region, key.teamClipId, seat, seconds(leaseMs), replacing],
  );
  if (claimed.rowCount === 1) return { kind: 'claimed' };
  const found = await client.query<{ video_id: string | null; status: string; uploaded_by: string | null; holder: string | null; left_ms: number | null }>(
    `SELECT t.video_id, t.status, t.uploaded_by, s.name AS holder,
            (EXTRACT(EPOCH FROM t.upload_expires_at - now()) * 1000)::float8 AS left_ms
       FROM team.collection_videos t LEFT JOIN team.seats s ON s.seat_id = t.uploaded_by
      WHERE t.collection_id = $1 AND t.region = $2 AND t.clip_id = $3`,
    [key.collectionId, key.region, key.teamClipId],
  );
  const r = found.rows[0]!;
  if (r.video_id !== null && isVideoState(r.status)) return { kind: 'adopt', videoId: r.video_id, state: r.status, by: r.uploaded_by! };
  return { kind: 'wait', holder: r.holder, leftMs: Math.max(0, r.left_ms ?? 0) };
}

/** The holder is still uploading: its claim runs `leaseMs` from now. False once it lost the claim. */
export async function renewCollectionClaim(client: ClientBase, seat: string, key: TeamMemberKey, leaseMs: number): Promise<boolean> {
  const renewed = await client.query(
    `UPDATE team.collection_videos SET upload_expires_at = now() + make_interval(secs => $5)
      WHERE collection_id = $1 AND region = $2 AND clip_id = $3 AND status = 'uploading' AND uploaded_by = $4`,
    [key.collectionId, key.region, key.teamClipId, seat, seconds(leaseMs)],
  );
  return renewed.rowCount === 1;
}

/** The holder's upload ended without a video id (it failed, was cancelled or paused): another seat may take it. */
export async function releaseCollectionClaim(client: ClientBase, seat: string, key: TeamMemberKey): Promise<void> {
  await client.query(
    `UPDATE team.collection_videos SET status = 'queued', uploaded_by = NULL, upload_expires_at = NULL, status_at = now()
      WHERE collection_id = $1 AND region = $2 AND clip_id = $3 AND status = 'uploading' AND uploaded_by = $4`,
    [key.collectionId, key.region, key.teamClipId, seat],
  );
}

/**
 * A seat's version of a member handed over. Its presence (sent with its base) goes to the server's
 * guard (team migration 0016), which takes a change over a base it still holds and stamps it; its
 * video is merged here by collection-member-merge.ts's rule (inside the caller's transaction: the row
 * is locked between the read and the write). A version that changes nothing writes nothing (no feed row).
 */
export async function publishCollectionMember(client: ClientBase, m: TeamMember): Promise<void> {
  const v = m.version;
  const inserted = await client.query(
    `INSERT INTO team.collection_videos (collection_id, region, clip_id, video_id, status, uploaded_by, added_at, added_by, removed_at, removed_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (collection_id, region, clip_id) DO NOTHING`,
    [
      m.collectionId,
      m.region,
      m.teamClipId,
      v.video?.id ?? null,
      v.video?.state ?? 'queued',
      v.video?.by ?? null,
      time(v.added.at),
      v.added.by,
      v.removed ? time(v.removed.at) : null,
      v.removed?.by ?? null,
    ],
  );
  if (inserted.rowCount === 1) return;
  const held = await client.query<Row>(`${SELECT_MEMBERS} WHERE collection_id = $1 AND region = $2 AND clip_id = $3 FOR UPDATE`, [m.collectionId, m.region, m.teamClipId]);
  const state = toMember(held.rows[0]!).version;
  const video = mergeVideo(state.video, v.video);
  const videoChanged = video !== null && (state.video === null || state.video.id !== video.id || state.video.state !== video.state);
  const presenceChanged = memberPresent(state) !== memberPresent(v);
  if (!videoChanged && !presenceChanged) return;
  await client.query(
    `UPDATE team.collection_videos SET
            added_at = CASE WHEN $4 THEN $5 ELSE added_at END, added_by = CASE WHEN $4 THEN $6::uuid ELSE added_by END,
            removed_at = CASE WHEN $4 THEN $7 ELSE removed_at END, removed_by = CASE WHEN $4 THEN $8::uuid ELSE removed_by END,
            video_id = CASE WHEN $9 THEN $10 ELSE video_id END,
            status = CASE WHEN $9 THEN $11 ELSE status END,
            uploaded_by = CASE WHEN $9 THEN $12::uuid ELSE uploaded_by END,
            upload_expires_at = CASE WHEN $9 THEN NULL ELSE upload_expires_at END,
            status_at = CASE WHEN $9 THEN now() ELSE status_at END
      WHERE collection_id = $1 AND region = $2 AND clip_id = $3`,
    [
      m.collectionId,
      m.region,
      m.teamClipId,
      presenceChanged,
      time(v.added.at),
      v.added.by,
      v.removed ? time(v.removed.at) : null,
      v.removed?.by ?? null,
      videoChanged,
      video?.id ?? null,
      video?.state ?? null,
      video?.by ?? null,
    ],
  );
}

/** Members by feed row key (team.collection_videos.id). */
export async function readCollectionMembers(client: ClientBase, ids: readonly number[]): Promise<TeamMember[]> {
  if (ids.length === 0) return [];
  const r = await client.query<Row>(`${SELECT_MEMBERS} WHERE id = ANY($1::bigint[])`, [ids]);
  return r.rows.map(toMember);
}

/** Every member of these team clips (a clip this seat has just linked). */
export async function readCollectionMembersOfClips(client: ClientBase, teamClipIds: readonly number[]): Promise<TeamMember[]> {
  if (teamClipIds.length === 0) return [];
  const r = await client.query<Row>(`${SELECT_MEMBERS} WHERE clip_id = ANY($1::bigint[])`, [teamClipIds]);
  return r.rows.map(toMember);
}

/** These members as the server holds them now (the answer to a push: the stamps of what it took, its value of what it kept). */
export async function readCollectionMembersByKey(client: ClientBase, keys: readonly TeamMemberKey[]): Promise<TeamMember[]> {
  if (keys.length === 0) return [];
  const r = await client.query<Row>(
    `${SELECT_MEMBERS} WHERE (collection_id, region, clip_id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]))`,
    [keys.map((k) => k.collectionId), keys.map((k) => k.region), keys.map((k) => k.teamClipId)],
  );
  return r.rows.map(toMember);
}
