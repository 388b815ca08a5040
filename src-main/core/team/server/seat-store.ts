import type { ClientBase } from 'pg';
import { AppError } from '../../../../src-shared/errors';
import type { TeamCursor } from './change-store';

/** The one owner of `team.seats`: the workstations of the team, by the uuid each made when it joined. */

export interface TeamSeat {
  seatId: string;
  name: string;
  /** Share keys this seat reaches (clip_locations.root_key). */
  roots: readonly string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The startup options of a seat's connections: the session says which seat it is, and the server
 * charges its writes to that seat's write budget (team migration 0009). Only a uuid: the text goes
 * into the connection's startup packet, where a space would start another option.
 */
export function seatSessionOptions(seatId: string): string {
  if (!UUID.test(seatId)) throw new AppError('invalid', `a seat id is a uuid, not ${JSON.stringify(seatId.slice(0, 60))}`);
  return `-c reelscout.seat_id=${seatId}`;
}

/** A seat says it is here (joining, or starting again under a new name or with other shares). */
export async function upsertSeat(client: ClientBase, s: TeamSeat): Promise<void> {
  await client.query(
    `INSERT INTO team.seats (seat_id, name, roots) VALUES ($1, $2, $3)
     ON CONFLICT (seat_id) DO UPDATE SET name = excluded.name, roots = excluded.roots, last_seen_at = now()`,
    [s.seatId, s.name, [...s.roots]],
  );
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
