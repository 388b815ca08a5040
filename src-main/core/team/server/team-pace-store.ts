import type { ClientBase } from 'pg';

/**
 * The one writer of `team.rate_pause` (team migration 0012), through the owner's functions: the
 * server takes the time from its own clock and clamps what a seat asks (team/rules/team-pace.ts).
 * Both answer in milliseconds left from now, so no seat's clock is ever compared with another's.
 */

/** The service answered this seat 429: the team holds its sends. Milliseconds the team now holds for. */
export async function noteTeamRateLimit(client: ClientBase, retryAfterMs: number | undefined): Promise<number> {
  const asked = retryAfterMs === undefined || !Number.isFinite(retryAfterMs) ? null : Math.min(Math.max(Math.ceil(retryAfterMs), 0), 2 ** 31 - 1);
  const r = await client.query<{ left_ms: number }>('SELECT team.note_rate_limit($1::integer) AS left_ms', [asked]);
  return r.rows[0]!.left_ms;
}

/** Milliseconds the team still holds its sends (0: not held). */
export async function teamPauseLeftMs(client: ClientBase): Promise<number> {
  const r = await client.query<{ left_ms: number }>('SELECT team.rate_pause_left_ms() AS left_ms');
  return r.rows[0]!.left_ms;
}
