import type { ClientBase } from 'pg';
import { TEAM_BOUNDS, utf8Bytes } from '../rules/team-bounds';

/**
 * The one owner of `team.text_vectors` (migration 0003): texts the service encoded for some seat,
 * so no seat pays encode_text for a text the team has already encoded in that model and region.
 */

/** Vectors (float32 little-endian) the team has for these normalised texts. */
export async function teamTextVectors(client: ClientBase, model: string, region: string, norms: readonly string[]): Promise<Map<string, Buffer>> {
  if (norms.length === 0) return new Map();
  const found = await client.query<{ text_norm: string; vector: Buffer }>(
    'SELECT text_norm, vector FROM team.text_vectors WHERE model = $1 AND region = $2 AND text_norm = ANY($3::text[])',
    [model, region, [...norms]],
  );
  return new Map(found.rows.map((r) => [r.text_norm, r.vector]));
}

/** A text the service encoded for this seat; the first seat's vector stays. A text longer than the server keeps is not shared (each seat encodes its own). */
export async function recordTeamTextVector(client: ClientBase, seatId: string, t: { norm: string; model: string; region: string; vector: Buffer }): Promise<void> {
  if (utf8Bytes(t.norm) > TEAM_BOUNDS.textNorm) return;
  await client.query(
    `INSERT INTO team.text_vectors (text_norm, model, region, dim, vector, seat_id) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (text_norm, model, region) DO NOTHING`,
    [t.norm, t.model, t.region, t.vector.byteLength / 4, t.vector, seatId],
  );
}
