import type { ClientBase } from 'pg';

/** The one owner of `team.seats`: the workstations of the team, by the uuid each made when it joined. */

export interface TeamSeat {
  seatId: string;
  name: string;
  /** Share keys this seat reaches (clip_locations.root_key). */
  roots: readonly string[];
}

/** A seat says it is here (joining, or starting again under a new name or with other shares). */
export async function upsertSeat(client: ClientBase, s: TeamSeat): Promise<void> {
  await client.query(
    `INSERT INTO team.seats (seat_id, name, roots) VALUES ($1, $2, $3)
     ON CONFLICT (seat_id) DO UPDATE SET name = excluded.name, roots = excluded.roots, last_seen_at = now()`,
    [s.seatId, s.name, [...s.roots]],
  );
}
