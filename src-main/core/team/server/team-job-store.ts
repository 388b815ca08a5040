import type { ClientBase } from 'pg';
import type { StageName } from '../../../../src-shared/contract/stage-graph';
import { AppError } from '../../../../src-shared/errors';
import { clipToBytes, TEAM_BOUNDS } from '../rules/team-bounds';
import { nextLease, TEAM_JOB_STATES, type LeaseEvent, type LeaseRefusal, type LeaseState } from '../rules/lease';

/**
 * The one owner of `team.jobs`: the shared queue whose jobs seats hold by lease. Every statement is
 * one round trip; those a holder makes name its seat and the lease's token (fencing), and are
 * refused once the lease has expired (docs/notes-team-library.md section 3; the transitions are
 * `nextLease`).
 */

export interface TeamJobInput {
  clipId: number | null;
  stage: StageName;
  payload: unknown;
}

/** What a holder must name in every write about the job. */
export interface TeamLease {
  id: number;
  token: number;
}

export interface ClaimedTeamJob extends TeamLease {
  clipId: number | null;
  stage: StageName;
  payload: unknown;
  expiresAt: number;
}

export type LeaseOutcome = { ok: true } | { ok: false; refused: LeaseRefusal };

const seconds = (ms: number) => ms / 1000;

/**
 * Adds a job unless the clip already has one for that stage (two seats importing one card make one),
 * or, without a clip, unless the team has one for the stage (migration 0003's jobs_teamwide).
 */
export async function enqueueTeamJob(client: ClientBase, j: TeamJobInput): Promise<number | null> {
  const added = await client.query<{ id: string }>(
    `INSERT INTO team.jobs (clip_id, stage, payload)
     VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [j.clipId, j.stage, JSON.stringify(j.payload ?? {})],
  );
  return added.rows[0] ? Number(added.rows[0].id) : null;
}

/** Extends every lease of `seat` that is still held, in one statement; returns the ids renewed. */
export async function renewTeamLeases(client: ClientBase, seat: string, leases: readonly TeamLease[], leaseMs: number): Promise<number[]> {
  if (leases.length === 0) return [];
  const renewed = await client.query<{ id: string }>(
    `UPDATE team.jobs AS j SET lease_expires_at = now() + make_interval(secs => $4), updated_at = now()
       FROM unnest($2::bigint[], $3::bigint[]) AS l (id, token)
      WHERE j.id = l.id AND j.lease_token = l.token AND j.lease_owner = $1
        AND j.state = 'running' AND j.lease_expires_at > now()
     RETURNING j.id`,
    [seat, leases.map((l) => l.id), leases.map((l) => l.token), seconds(leaseMs)],
  );
  return renewed.rows.map((x) => Number(x.id));
}

/** The job's work is done: only while `seat` holds this very lease. */
export async function completeTeamJob(client: ClientBase, seat: string, lease: TeamLease): Promise<LeaseOutcome> {
  const completed = await client.query(
    `UPDATE team.jobs SET state = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = now(),
            last_error_kind = NULL, last_error_message = NULL
      WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND lease_token = $3 AND lease_expires_at > now()`,
    [lease.id, seat, lease.token],
  );
  return completed.rowCount === 1 ? { ok: true } : explainRefusal(client, lease.id, { type: 'complete', seat, token: lease.token, now: 0 });
}

export interface TeamJobFailure {
  /** Back to the queue (not before `notBefore`), or failed for good. */
  retry: boolean;
  notBefore?: Date;
  errorKind: string;
  message: string;
}

/** The job's attempt failed: only while `seat` holds this very lease. The reason is cut to what the server keeps. */
export async function failTeamJob(client: ClientBase, seat: string, lease: TeamLease, f: TeamJobFailure): Promise<LeaseOutcome> {
  const failed = await client.query(
    `UPDATE team.jobs SET state = CASE WHEN $4 THEN 'queued' ELSE 'failed' END, attempts = attempts + 1,
            not_before = $5, last_error_kind = $6, last_error_message = $7,
            lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
      WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND lease_token = $3 AND lease_expires_at > now()`,
    [lease.id, seat, lease.token, f.retry, f.notBefore ?? null, clipToBytes(f.errorKind, TEAM_BOUNDS.errorKind), clipToBytes(f.message, TEAM_BOUNDS.errorMessage)],
  );
  return failed.rowCount === 1 ? { ok: true } : explainRefusal(client, lease.id, { type: 'fail', seat, token: lease.token, now: 0, retry: f.retry });
}

/**
 * Any seat's reaper: leases whose time ran out go back to the queue for another seat, or fail once a
 * job has lost more than `maxRecoveries` of them (a job that keeps killing seats). Returns the ids.
 */
export async function reapExpiredTeamLeases(client: ClientBase, maxRecoveries: number): Promise<Array<{ id: number; state: 'queued' | 'failed' }>> {
  const reaped = await client.query<{ id: string; state: 'queued' | 'failed' }>(
    `UPDATE team.jobs SET recoveries = recoveries + 1,
            state = CASE WHEN recoveries + 1 > $1 THEN 'failed' ELSE 'queued' END,
            last_error_kind = CASE WHEN recoveries + 1 > $1 THEN 'internal' ELSE last_error_kind END,
            last_error_message = CASE WHEN recoveries + 1 > $1 THEN 'its lease expired ' || (recoveries + 1) || ' times' ELSE last_error_message END,
            lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
      WHERE id IN (SELECT id FROM team.jobs WHERE state = 'running' AND lease_expires_at <= now() FOR UPDATE SKIP LOCKED)
     RETURNING id, state`,
    [maxRecoveries],
  );
  return reaped.rows.map((x) => ({ id: Number(x.id), state: x.state }));
}

/** A job's lease as `nextLease` sees it, with the server's clock. */
async function leaseStateOf(client: ClientBase, id: number): Promise<{ lease: LeaseState; now: number } | null> {
  const current = await client.query<{ state: string; lease_owner: string | null; lease_token: string; lease_expires_at: Date | null; recoveries: number; now: Date }>(
    'SELECT state, lease_owner, lease_token, lease_expires_at, recoveries, now() AS now FROM team.jobs WHERE id = $1',
    [id],
  );
  const row = current.rows[0];
  if (!row) return null;
  const token = Number(row.lease_token);
  const lease: LeaseState =
    row.state === 'running'
      ? { state: 'running', owner: row.lease_owner!, token, expiresAt: row.lease_expires_at!.getTime(), recoveries: row.recoveries }
      : { state: stateOf(row.state), token, recoveries: row.recoveries };
  return { lease, now: row.now.getTime() };
}

function stateOf(s: string): Exclude<LeaseState['state'], 'running'> {
  const known = TEAM_JOB_STATES.find((k) => k === s);
  if (!known || known === 'running') throw new AppError('internal', `team job in state ${s} without a lease`);
  return known;
}

/** Why a holder's write matched no row: the lease as it is now, through the same transition. */
async function explainRefusal(client: ClientBase, id: number, e: Extract<LeaseEvent, { type: 'complete' | 'fail' }>): Promise<LeaseOutcome> {
  const current = await leaseStateOf(client, id);
  if (!current) return { ok: false, refused: 'not-running' };
  const step = nextLease(current.lease, { ...e, now: current.now });
  // A race (the job changed between the two statements) can make the second look acceptable: the write was still refused.
  return { ok: false, refused: step.refused ?? 'lease-lost' };
}

/** What a seat finds when it looks at a clip before its analysis (one statement: `lookAtClipJob`). */
export type ClipJobLook =
  /** The team has the clip's results in the profile: read and adopt them (clip-results-store.ts). */
  | { kind: 'published' }
  /** This seat holds the clip's job now: it was free (made just now if the clip had none). */
  | { kind: 'claimed'; job: ClaimedTeamJob }
  /** It had failed on the seat that tried: back in the queue, for this seat's next look. */
  | { kind: 'requeued'; lastError: string | null }
  /**
   * Another seat holds it (`holder`, its name), or it is queued but not claimable yet; `nextInMs` is
   * when that may change by the server's clock (the holder's lease ends, the pause after a release).
   * Both null when the job was made by another seat this very moment.
   */
  | { kind: 'elsewhere'; holder: string | null; nextInMs: number | null };

/**
 * A seat's look at one clip's job of `stage` before doing the work, in one round trip (a clip that
 * waits for another seat looks every few seconds): the clip's results in `profileId`, else its job
 * leased to `seat` if free (made, already leased, if the clip had none), else a failed job put back in
 * the queue, else who holds it and for how long. A seat claims the clips of its own queue (it can
 * read their files), never "the next job". SKIP LOCKED: a row another seat is claiming is not waited
 * for. Reads `team.clip_results` (its owner is clip-results-store.ts), writes only `team.jobs`.
 */
export async function lookAtClipJob(
  client: ClientBase,
  look: { seat: string; clipId: number; stage: StageName; profileId: string; leaseMs: number },
): Promise<ClipJobLook> {
  // The CTEs share one snapshot: a job made by `added` is not visible to `claimed`, so it is made
  // already leased; `claimed` and `requeued` touch the job only when the snapshot saw it queued or failed.
  const found = await client.query<{
    published: boolean;
    claimed_id: string | null;
    lease_token: string | null;
    lease_expires_at: Date | null;
    payload: unknown;
    requeued: boolean;
    holder: string | null;
    next_ms: number | null;
    last_error_message: string | null;
  }>(
    `WITH results AS (
       SELECT 1 FROM team.clip_results WHERE clip_id = $2 AND profile_id = $4
     ), job AS (
       SELECT j.id, j.state, j.lease_expires_at, j.not_before, j.last_error_message, s.name AS holder
         FROM team.jobs j LEFT JOIN team.seats s ON s.seat_id = j.lease_owner
        WHERE j.clip_id = $2 AND j.stage = $3
     ), added AS (
       INSERT INTO team.jobs (clip_id, stage, state, lease_owner, lease_token, lease_expires_at)
       SELECT $2, $3, 'running', $1, 1, now() + make_interval(secs => $5)
        WHERE NOT EXISTS (SELECT 1 FROM results) AND NOT EXISTS (SELECT 1 FROM job)
       ON CONFLICT DO NOTHING
       RETURNING id, lease_token, lease_expires_at, payload
     ), claimed AS (
       UPDATE team.jobs SET state = 'running', lease_owner = $1, lease_token = lease_token + 1,
              lease_expires_at = now() + make_interval(secs => $5), updated_at = now()
        WHERE id = (SELECT id FROM team.jobs
                     WHERE clip_id = $2 AND stage = $3 AND state = 'queued' AND (not_before IS NULL OR not_before <= now())
                       AND NOT EXISTS (SELECT 1 FROM results)
                     FOR UPDATE SKIP LOCKED)
       RETURNING id, lease_token, lease_expires_at, payload
     ), requeued AS (
       UPDATE team.jobs SET state = 'queued', not_before = NULL, updated_at = now()
        WHERE id = (SELECT id FROM job WHERE state = 'failed') AND state = 'failed' AND NOT EXISTS (SELECT 1 FROM results)
       RETURNING id
     ), mine AS (
       SELECT * FROM added UNION ALL SELECT * FROM claimed
     )
     SELECT EXISTS (SELECT 1 FROM results) AS published,
            m.id AS claimed_id, m.lease_token, m.lease_expires_at, m.payload,
            EXISTS (SELECT 1 FROM requeued) AS requeued,
            j.holder, j.last_error_message,
            (EXTRACT(EPOCH FROM CASE WHEN j.state = 'running' THEN j.lease_expires_at
                                     WHEN j.state = 'queued' AND j.not_before > now() THEN j.not_before END - now()) * 1000)::float8 AS next_ms
       FROM (SELECT 1) AS one LEFT JOIN mine m ON true LEFT JOIN job j ON true`,
    [look.seat, look.clipId, look.stage, look.profileId, seconds(look.leaseMs)],
  );
  const r = found.rows[0]!;
  if (r.published) return { kind: 'published' };
  if (r.claimed_id !== null) {
    return {
      kind: 'claimed',
      job: { id: Number(r.claimed_id), token: Number(r.lease_token), clipId: look.clipId, stage: look.stage, payload: r.payload, expiresAt: r.lease_expires_at!.getTime() },
    };
  }
  if (r.requeued) return { kind: 'requeued', lastError: r.last_error_message };
  return { kind: 'elsewhere', holder: r.holder, nextInMs: r.next_ms };
}

export interface TeamJobView {
  /** The seat holding it (its name), while running. */
  holder: string | null;
  /** Milliseconds left on the holder's lease, by the server's clock. */
  leaseLeftMs: number | null;
}

/** The team's job of a stage that belongs to no clip, as the team sees it (who holds it, for how long yet). */
export async function teamwideJobOf(client: ClientBase, stage: StageName): Promise<TeamJobView | null> {
  const found = await client.query<{ holder: string | null; left_ms: number | null }>(
    `SELECT s.name AS holder, (EXTRACT(EPOCH FROM j.lease_expires_at - now()) * 1000)::float8 AS left_ms
       FROM team.jobs j LEFT JOIN team.seats s ON s.seat_id = j.lease_owner
      WHERE j.clip_id IS NULL AND j.stage = $1`,
    [stage],
  );
  const r = found.rows[0];
  return r ? { holder: r.holder, leaseLeftMs: r.left_ms } : null;
}

/**
 * The team's one job of a stage that belongs to no clip (the reference queries), leased to `seat`
 * when nobody holds it: made if missing, and asked again when it ended before (the caller found its
 * work missing: a new bank, another model). Null while another seat holds it.
 */
export async function claimTeamwideJob(client: ClientBase, seat: string, stage: StageName, leaseMs: number): Promise<ClaimedTeamJob | null> {
  await enqueueTeamJob(client, { clipId: null, stage, payload: {} });
  await client.query(`UPDATE team.jobs SET state = 'queued', not_before = NULL, updated_at = now() WHERE clip_id IS NULL AND stage = $1 AND state IN ('done', 'failed', 'cancelled')`, [stage]);
  const claimed = await client.query<{ id: string; lease_token: string; payload: unknown; lease_expires_at: Date }>(
    `UPDATE team.jobs SET state = 'running', lease_owner = $1, lease_token = lease_token + 1,
            lease_expires_at = now() + make_interval(secs => $3), updated_at = now()
      WHERE id = (SELECT id FROM team.jobs WHERE clip_id IS NULL AND stage = $2 AND state = 'queued' FOR UPDATE SKIP LOCKED)
     RETURNING id, lease_token, payload, lease_expires_at`,
    [seat, stage, seconds(leaseMs)],
  );
  const row = claimed.rows[0];
  if (!row) return null;
  return { id: Number(row.id), token: Number(row.lease_token), clipId: null, stage, payload: row.payload, expiresAt: row.lease_expires_at.getTime() };
}
