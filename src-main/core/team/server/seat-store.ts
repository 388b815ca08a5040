import type { ClientBase } from 'pg';
import type { TeamCursor } from './change-store';

/**
 * The one owner of `team.seats` on a seat's connection: the workstations of the team, by the uuid each
 * made when it joined. Their login roles are seat-login-store.ts's (the administrator's).
 */

export interface TeamSeat {
  seatId: string;
  name: string;
  /** Share keys this seat reaches (clip_locations.root_key). */
  roots: readonly string[];
}

/**
 * A seat says it is here (joining, or starting again under a new name or with other shares), through
 * the owner's function (team migration 0011): the seat is the session's login role, bound to
 * `seatId` at its first join; a role claiming another role's seat, or a second seat, is refused (42501).
 */
export async function joinSeat(client: ClientBase, s: TeamSeat): Promise<void> {
  await client.query('SELECT team.join_seat($1, $2, $3)', [s.seatId, s.name, [...s.roots]]);
}

/**
 * The seat has applied every feed row its cursor's snapshot sees: the feed may be pruned below that
 * snapshot's xmin as far as this seat is concerned (team.prune_feed). Never ahead of the server's
 * own snapshot, whatever the cursor says.
 */
export async function reportFeedRead(client: ClientBase, seatId: string, cursor: TeamCursor): Promise<void> {
  await client.query(
    `UPDATE team.seats SET feed_read_to = least(pg_snapshot_xmin($2::pg_snapshot), pg_snapshot_xmin(pg_current_snapshot())), feed_read_at = now(), last_seen_at = now()
      WHERE seat_id = $1`,
    [seatId, cursor],
  );
}

/**
 * Ends the sessions of seats that have kept another seat waiting on a lock for over 10 s (team
 * migration 0017): a seat's `SELECT ... FOR UPDATE` left open would otherwise hold every other seat's
 * lease renewals. Any seat's reaper round calls it; returns how many sessions were ended.
 */
export async function endStallingSessions(client: ClientBase): Promise<number> {
  const r = await client.query<{ ended: number }>('SELECT team.end_stalling_sessions() AS ended');
  return Number(r.rows[0]?.ended ?? 0);
}
