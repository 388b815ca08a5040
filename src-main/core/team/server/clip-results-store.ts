import type { ClientBase } from 'pg';
import { inTransaction } from './pg-transaction';
import { z } from 'zod';
import { shotSchema } from '../../../../src-shared/contract/library';
import { AppError } from '../../../../src-shared/errors';
import type { LeaseRefusal } from '../rules/lease';
import { TEAM_BOUNDS, utf8Bytes } from '../rules/team-bounds';
import type { TeamLease } from './team-job-store';
import type { PublishedSegment } from '../../pipeline/service-cache/segment-results-store';

/**
 * The one owner of `team.clip_results` and `team.segments` (migration 0003): what indexing a clip
 * produced, published once for the team by the seat that held the clip's lease, and read by every
 * other seat instead of decoding, uploading and paying again.
 */

/**
 * The local analysis of a shot (faces as boxes, camera motion, local tags), as the seat that decoded it made it.
 * Faces go as boxes only: their identity embeddings (face_identity) stay on the seat that made
 * them and are never published. A seat that adopts these results has the boxes and no identities,
 * so its People view does not see those faces until it analyses the clip itself; acceptable for
 * now (issue 39), and a seat's people are its own.
 */
export const publishedAnalysisSchema = z.object({
  faceModel: z.string(),
  framesSampled: z.number().int().min(0),
  faces: z.array(
    z.object({
      frameIndex: z.number().int(),
      timeS: z.number(),
      faces: z.array(z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number(), score: z.number() })),
    }),
  ),
  motion: z.object({
    movement: z.string().nullable(),
    magnitude: z.number(),
    confidence: z.number(),
    panSpeed: z.number(),
    tiltSpeed: z.number(),
    zoomRate: z.number(),
    jitter: z.number(),
    steps: z.number().int(),
    validSteps: z.number().int(),
  }),
  localTags: z.array(z.object({ category: z.string(), value: z.string(), confidence: z.number(), magnitude: z.number().nullable() })),
});
export type PublishedAnalysis = z.infer<typeof publishedAnalysisSchema>;

/** A shot as published: the contract's facts of a shot (a seat's ids and pictures are its own), with its analysis. */
export const publishedShotSchema = shotSchema.omit({ id: true, poster: true }).extend({
  /** null when the publishing seat had none for the shot. */
  analysis: publishedAnalysisSchema.nullable(),
});
export type PublishedShot = z.infer<typeof publishedShotSchema>;

/** A picture the decoding seat made, with its bytes. */
export interface PublishedThumbnail {
  /** null: a clip-level image (the filmstrip). */
  shotIdx: number | null;
  kind: 'poster' | 'filmstrip';
  /** Its name in the seat's cache (letters, digits, dot, dash, underscore). */
  fileName: string;
  width: number | null;
  height: number | null;
  frames: number | null;
  timeS: number | null;
  image: Buffer;
}

export interface ClipResults {
  clipId: number;
  profileId: string;
  model: string;
  region: string;
  shots: PublishedShot[];
  segments: PublishedSegment[];
  thumbnails: PublishedThumbnail[];
}

export type PublishOutcome = { ok: true; published: boolean } | { ok: false; refused: LeaseRefusal } | { ok: false; refused: 'too-large'; error: AppError };

/**
 * Results the server would refuse for their size (team migration 0009), as a value: the seat keeps
 * them for itself instead of sending a transaction the server rolls back. Null when they fit.
 */
function oversized(r: ClipResults, shotsJson: string): AppError | null {
  const bytes = utf8Bytes(shotsJson);
  if (bytes > TEAM_BOUNDS.shots) return new AppError('too_large', `team clip ${r.clipId}: its shots take ${bytes} bytes, more than the team server keeps (${TEAM_BOUNDS.shots})`);
  const tags = r.segments.find((s) => utf8Bytes(s.tags_raw) > TEAM_BOUNDS.tagsRaw);
  if (tags) return new AppError('too_large', `team clip ${r.clipId}: a segment's tags take more than the team server keeps (${TEAM_BOUNDS.tagsRaw} bytes)`);
  return null;
}

/** Segments per INSERT: one round trip carries this many rows (arrays through unnest, no SQL from strings). */
const BATCH = 500;

/**
 * Publishes a clip's results, in one transaction with the completion of its job, whose `lease` the
 * seat holds (fenced: a seat whose lease ran out or was taken publishes nothing; the server itself
 * refuses results from a seat holding no job of the clip, team migration 0011). The first publisher
 * wins: a clip already published for the profile is left as it is (`published: false`), and the job
 * still completes, its work being in the team's hands. Results over the server's sizes are refused
 * before anything is sent (`too-large`); a picture over them is left out (the others decode their own).
 */
export async function publishClipResults(client: ClientBase, seatId: string, lease: TeamLease, r: ClipResults): Promise<PublishOutcome> {
  const shotsJson = JSON.stringify(r.shots);
  const tooLarge = oversized(r, shotsJson);
  if (tooLarge) return { ok: false, refused: 'too-large', error: tooLarge };
  const thumbnails = r.thumbnails.filter((t) => t.image.byteLength <= TEAM_BOUNDS.image);
  return inTransaction(client, async (): Promise<PublishOutcome> => {
    // Locks the job row: the reaper and other seats wait for this transaction, so the lease cannot
    // run out between this check and the commit.
    const held = await client.query(
      `SELECT 1 FROM team.jobs WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND lease_token = $3 AND lease_expires_at > now() FOR UPDATE`,
      [lease.id, seatId, lease.token],
    );
    // Nothing written yet: the transaction ends with nothing in it.
    if (held.rowCount !== 1) return { ok: false, refused: 'lease-lost' };
    const header = await client.query(
      `INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (clip_id, profile_id) DO NOTHING`,
      [r.clipId, r.profileId, r.model, r.region, shotsJson, r.segments.length, seatId],
    );
    const published = header.rowCount === 1;
    if (published) {
      for (let i = 0; i < r.segments.length; i += BATCH) await insertSegments(client, r.clipId, r.profileId, r.segments.slice(i, i + BATCH));
      // Pictures are the clip's whatever the profile: the first publisher's set stays.
      const pictures = await client.query('SELECT 1 FROM team.thumbnails WHERE clip_id = $1 LIMIT 1', [r.clipId]);
      if (pictures.rowCount === 0 && thumbnails.length > 0) await insertThumbnails(client, r.clipId, thumbnails);
    }
    await client.query(
      `UPDATE team.jobs SET state = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = now(), last_error_kind = NULL, last_error_message = NULL
        WHERE id = $1`,
      [lease.id],
    );
    return { ok: true, published };
  });
}

async function insertSegments(client: ClientBase, clipId: number, profileId: string, segs: readonly PublishedSegment[]): Promise<void> {
  const col = <K extends keyof PublishedSegment>(k: K) => segs.map((s) => s[k]);
  await client.query(
    `INSERT INTO team.segments (clip_id, profile_id, shot_idx, chunk_idx, part, start_s, end_s, frames, budget, content_sha, dim, vector,
                                tags_raw, shot_size, camera_movement, shooting_angle, shot_size_conf, camera_movement_conf, shooting_angle_conf)
     SELECT $1, $2, s.* FROM unnest($3::int[], $4::int[], $5::text[], $6::float8[], $7::float8[], $8::int[], $9::int[], $10::text[], $11::int[], $12::bytea[],
                                    $13::text[], $14::text[], $15::text[], $16::text[], $17::real[], $18::real[], $19::real[]) AS s`,
    [
      clipId,
      profileId,
      col('shot_idx'),
      col('chunk_idx'),
      col('part'),
      col('start_s'),
      col('end_s'),
      col('frames'),
      col('budget'),
      col('content_sha'),
      segs.map((s) => s.vector.byteLength / 4),
      col('vector'),
      col('tags_raw'),
      col('shot_size'),
      col('camera_movement'),
      col('shooting_angle'),
      col('shot_size_conf'),
      col('camera_movement_conf'),
      col('shooting_angle_conf'),
    ],
  );
}
async function insertThumbnails(client: ClientBase, clipId: number, t: readonly PublishedThumbnail[]): Promise<void> {
  const col = <K extends keyof PublishedThumbnail>(k: K) => t.map((x) => x[k]);
  await client.query(
    `INSERT INTO team.thumbnails (clip_id, shot_idx, kind, file_name, width, height, frames, time_s, image)
     SELECT $1, x.* FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::float8[], $9::bytea[]) AS x`,
    [clipId, col('shotIdx'), col('kind'), col('fileName'), col('width'), col('height'), col('frames'), col('timeS'), col('image')],
  );
}

const headerRowSchema = z.object({
  profile_id: z.string(),
  model: z.string(),
  region: z.string(),
  shots: z.array(publishedShotSchema),
  published_by: z.string(),
});

/** A clip's published results for the profile, or null when nobody has published them yet. */
export async function readClipResults(client: ClientBase, clipId: number, profileId: string): Promise<(ClipResults & { publishedBy: string }) | null> {
  const head = await client.query('SELECT profile_id, model, region, shots, published_by FROM team.clip_results WHERE clip_id = $1 AND profile_id = $2', [clipId, profileId]);
  if (head.rowCount === 0) return null;
  // Another seat wrote it, perhaps another version of the app: read it as input the app does not control.
  const h = headerRowSchema.parse(head.rows[0]);
  const rows = await client.query<PublishedSegment>(
    `SELECT shot_idx, chunk_idx, part, start_s, end_s, frames, budget, content_sha, vector, tags_raw, shot_size, camera_movement, shooting_angle,
            shot_size_conf, camera_movement_conf, shooting_angle_conf
       FROM team.segments WHERE clip_id = $1 AND profile_id = $2 ORDER BY shot_idx, chunk_idx, part`,
    [clipId, profileId],
  );
  const pictures = await client.query<{ shot_idx: number | null; kind: string; file_name: string; width: number | null; height: number | null; frames: number | null; time_s: number | null; image: Buffer }>(
    'SELECT shot_idx, kind, file_name, width, height, frames, time_s, image FROM team.thumbnails WHERE clip_id = $1 ORDER BY id',
    [clipId],
  );
  return {
    clipId,
    profileId: h.profile_id,
    thumbnails: pictures.rows.map((t) => ({
      shotIdx: t.shot_idx,
      kind: t.kind === 'filmstrip' ? 'filmstrip' : 'poster',
      fileName: t.file_name,
      width: t.width,
      height: t.height,
      frames: t.frames,
      timeS: t.time_s,
      image: t.image,
    })),
    model: h.model,
    region: h.region,
    shots: h.shots,
    publishedBy: h.published_by,
    segments: rows.rows,
  };
}
