import type { ClientBase } from 'pg';
import { z } from 'zod';

/**
 * The one owner of `team.people` and `team.people_facts` (team migrations 0010, 0016): the editors'
 * naming of people, shared; never a face's embedding or crop. Every stamp is the server's: a seat
 * sends a person's name and hidden flag each with its base (the server's stamp of the version it last
 * saw, 0 for none), and the server's guard decides; a fact is keyed by its person and rounded place,
 * so a resend updates nothing and writes nothing to the feed; facts about a forgotten person are not
 * written. Clip ids here are the team's; times are ms since epoch.
 */

export interface TeamPerson {
  uuid: string;
  name: string | null;
  nameAt: number;
  nameBy: string;
  hidden: boolean;
  hiddenAt: number;
  hiddenBy: string;
  merged: { into: string; at: number; by: string } | null;
  forgotten: { at: number; by: string } | null;
}

/** A face place as the team keeps it: milliseconds, and a box in 1/10,000 of the frame. */
export interface TeamFact {
  personUuid: string;
  clipId: number;
  kind: 'is' | 'is_not';
  timeMs: number;
  frame: number | null;
  x: number;
  y: number;
  w: number;
  h: number;
  at: number;
  seat: string;
}

const time = (ms: number) => new Date(ms);

/**
 * Hands a seat's version of a person over: the server's guard (team migration 0016) takes a changed
 * name or hidden flag only over the base it still holds and stamps it, keeps the first merge and the
 * first forget, and stamps each by its own clock. A version whose values the server holds already
 * writes nothing (and nothing to the feed); a forgotten person takes no more changes.
 */
export async function upsertTeamPerson(client: ClientBase, p: TeamPerson): Promise<void> {
  await client.query(
    `INSERT INTO team.people AS p (uuid, name, name_at, name_by, hidden, hidden_at, hidden_by, merged_into, merged_at, merged_by, forgotten_at, forgotten_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, name_at = excluded.name_at, name_by = excluded.name_by,
       hidden = excluded.hidden, hidden_at = excluded.hidden_at, hidden_by = excluded.hidden_by,
       merged_into = excluded.merged_into, merged_at = excluded.merged_at, merged_by = excluded.merged_by,
       forgotten_at = excluded.forgotten_at, forgotten_by = excluded.forgotten_by
     WHERE p.forgotten_at IS NULL
       AND (excluded.name, excluded.hidden, excluded.merged_into IS NULL OR p.merged_into IS NOT NULL, excluded.forgotten_at IS NULL)
           IS DISTINCT FROM (p.name, p.hidden, true, true)`,
    [
      p.uuid,
      p.name,
      time(p.nameAt),
      p.nameBy,
      p.hidden,
      time(p.hiddenAt),
      p.hiddenBy,
      p.merged?.into ?? null,
      p.merged ? time(p.merged.at) : null,
      p.merged?.by ?? null,
      p.forgotten ? time(p.forgotten.at) : null,
      p.forgotten?.by ?? null,
    ],
  );
}

/** A fact is stamped on its arrival (team migration 0016): a resend of the kind the server holds writes nothing. */
export async function upsertTeamFact(client: ClientBase, f: TeamFact): Promise<void> {
  await client.query(
    `INSERT INTO team.people_facts AS f (person_uuid, clip_id, kind, time_ms, frame, x, y, w, h, at, seat)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
      WHERE NOT EXISTS (SELECT 1 FROM team.people p WHERE p.uuid = $1 AND p.forgotten_at IS NOT NULL)
     ON CONFLICT (person_uuid, clip_id, time_ms, x, y, w, h) DO UPDATE SET kind = excluded.kind, frame = excluded.frame, at = excluded.at, seat = excluded.seat
     WHERE (excluded.kind, excluded.frame) IS DISTINCT FROM (f.kind, f.frame)`,
    [f.personUuid, f.clipId, f.kind, f.timeMs, f.frame, f.x, f.y, f.w, f.h, time(f.at), f.seat],
  );
}

// Rows read from the server are checked: another seat (or version) wrote them.
const personRow = z.object({
  uuid: z.string().uuid(),
  name: z.string().max(80).nullable(),
  name_at: z.date(),
  name_by: z.string().uuid(),
  hidden: z.boolean(),
  hidden_at: z.date(),
  hidden_by: z.string().uuid(),
  merged_into: z.string().uuid().nullable(),
  merged_at: z.date().nullable(),
  merged_by: z.string().uuid().nullable(),
  forgotten_at: z.date().nullable(),
  forgotten_by: z.string().uuid().nullable(),
});

const personOf = (raw: unknown): TeamPerson => {
  const r = personRow.parse(raw);
  return {
    uuid: r.uuid,
    name: r.name,
    nameAt: r.name_at.getTime(),
    nameBy: r.name_by,
    hidden: r.hidden,
    hiddenAt: r.hidden_at.getTime(),
    hiddenBy: r.hidden_by,
    merged: r.merged_into && r.merged_at && r.merged_by ? { into: r.merged_into, at: r.merged_at.getTime(), by: r.merged_by } : null,
    forgotten: r.forgotten_at && r.forgotten_by ? { at: r.forgotten_at.getTime(), by: r.forgotten_by } : null,
  };
};

const unit = z.number().int().min(0).max(10000);
const factRow = z.object({
  person_uuid: z.string().uuid(),
  clip_id: z.coerce.number().int().positive(),
  kind: z.enum(['is', 'is_not']),
  time_ms: z.number().int().min(0),
  frame: z.number().int().min(0).nullable(),
  x: unit,
  y: unit,
  w: unit,
  h: unit,
  at: z.date(),
  seat: z.string().uuid(),
});

const factOf = (raw: unknown): TeamFact => {
  const r = factRow.parse(raw);
  return { personUuid: r.person_uuid, clipId: r.clip_id, kind: r.kind, timeMs: r.time_ms, frame: r.frame, x: r.x, y: r.y, w: r.w, h: r.h, at: r.at.getTime(), seat: r.seat };
};

const PEOPLE = 'SELECT uuid, name, name_at, name_by, hidden, hidden_at, hidden_by, merged_into, merged_at, merged_by, forgotten_at, forgotten_by FROM team.people';
const FACTS = 'SELECT person_uuid, clip_id, kind, time_ms, frame, x, y, w, h, at, seat FROM team.people_facts';

/** The people the feed named (by uuid). */
export async function readTeamPeople(client: ClientBase, uuids: readonly string[]): Promise<TeamPerson[]> {
  return (await client.query(`${PEOPLE} WHERE uuid = ANY($1::uuid[])`, [uuids])).rows.map(personOf);
}

/** The facts the feed named (by row id; rows erased by a forget since are simply absent). */
export async function readTeamFacts(client: ClientBase, ids: readonly number[]): Promise<TeamFact[]> {
  return (await client.query(`${FACTS} WHERE id = ANY($1::bigint[])`, [ids])).rows.map(factOf);
}

/** Every fact about faces of these team clips: what a seat takes when it links a clip whose facts it skipped. */
export async function readTeamFactsOfClips(client: ClientBase, clipIds: readonly number[]): Promise<TeamFact[]> {
  return (await client.query(`${FACTS} WHERE clip_id = ANY($1::bigint[])`, [clipIds])).rows.map(factOf);
}
