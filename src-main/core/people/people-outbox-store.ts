import { z } from 'zod';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';

/**
 * The owner of `people_outbox`, `people_gone` and `people_waiting` (catalog migration 0054). Every
 * change of the editor's naming is offline first: the store that makes it (people-store.ts for a
 * person, people-facts-store.ts for a fact) lists it here in the same transaction, joined to a team or
 * not; team/syncs/people-sync.ts sends the list when a team server is reachable. A person merged or
 * forgotten keeps a row in `people_gone` after their `people` row is deleted, so facts about them that
 * arrive later are read as the other person's, or dropped.
 */
export type PeopleOutboxKind = 'person' | 'fact';

/** Lists a person (uuid) or a fact (row id) changed at `at` for the team. */
export function listForTeam(db: CatalogDb, kind: PeopleOutboxKind, key: string | number, at: number): void {
  statement(db, 'INSERT INTO people_outbox (kind, key, at) VALUES (?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET at = excluded.at').run(kind, String(key), at);
}

const entryRow = z.object({ kind: z.enum(['person', 'fact']), key: z.string(), at: z.number() });
export type PeopleOutboxEntry = z.infer<typeof entryRow>;

export function outboxEntries(db: CatalogDb): PeopleOutboxEntry[] {
  return statement(db, 'SELECT kind, key, at FROM people_outbox ORDER BY kind DESC, at').all().map((r) => entryRow.parse(r));
}

/** The server has these: each entry is cleared unless a change listed it again since it was read. */
export function outboxSent(db: CatalogDb, entries: readonly PeopleOutboxEntry[]): void {
  db.transaction(() => {
    const clear = statement(db, 'DELETE FROM people_outbox WHERE kind = ? AND key = ? AND at = ?');
    for (const e of entries) clear.run(e.kind, e.key, e.at);
  })();
}

/** A change listed and not sent yet: the team has not heard of it. */
export function isListed(db: CatalogDb, kind: PeopleOutboxKind, key: string | number): boolean {
  return statement(db, 'SELECT 1 FROM people_outbox WHERE kind = ? AND key = ?').get(kind, String(key)) !== undefined;
}

export function unsentPeopleCount(db: CatalogDb): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM people_outbox').get() as { n: number }).n;
}

const goneRow = z.object({ uuid: z.string(), merged_into: z.string().nullable(), at: z.number(), by_seat: z.string().nullable() });
export type GoneRow = z.infer<typeof goneRow>;

/** A person merged into another (`mergedInto`) or forgotten (null); the first forget stays. */
export function recordGone(db: CatalogDb, uuid: string, mergedInto: string | null, at: number, bySeat: string | null): void {
  statement(
    db,
    `INSERT INTO people_gone (uuid, merged_into, at, by_seat) VALUES (?, ?, ?, ?)
     ON CONFLICT (uuid) DO UPDATE SET merged_into = excluded.merged_into, at = excluded.at, by_seat = excluded.by_seat WHERE people_gone.merged_into IS NOT NULL`,
  ).run(uuid, mergedInto, at, bySeat);
}

export function goneOf(db: CatalogDb, uuid: string): GoneRow | null {
  const r = statement(db, 'SELECT uuid, merged_into, at, by_seat FROM people_gone WHERE uuid = ?').get(uuid);
  return r ? goneRow.parse(r) : null;
}

/**
 * Who a uuid names now: itself, the person it was merged into (followed to the end), or null when
 * it (or where it leads) was forgotten. A loop of merges (two seats merging each into the other
 * while apart) ends where it would come back.
 */
export function currentUuid(db: CatalogDb, uuid: string): string | null {
  const seen = new Set<string>();
  let at: string = uuid;
  for (;;) {
    const g = goneOf(db, at);
    if (!g) return at;
    if (g.merged_into === null) return null;
    seen.add(at);
    if (seen.has(g.merged_into)) return at;
    at = g.merged_into;
  }
}

/** A team clip this seat does not have linked (yet): its facts are read again, whole, once it is. */
export function waitForTeamClip(db: CatalogDb, teamClipId: number): void {
  statement(db, 'INSERT OR IGNORE INTO people_waiting (team_clip_id) VALUES (?)').run(teamClipId);
}

/** Team clips whose facts arrived before this seat had the clip, and that it has now. */
export function waitingClipsNowLinked(db: CatalogDb): number[] {
  return (statement(db, 'SELECT w.team_clip_id FROM people_waiting w JOIN team_clips t ON t.team_clip_id = w.team_clip_id').all() as { team_clip_id: number }[]).map((r) => r.team_clip_id);
}

export function doneWaiting(db: CatalogDb, teamClipIds: readonly number[]): void {
  const unwait = statement(db, 'DELETE FROM people_waiting WHERE team_clip_id = ?');
  for (const id of teamClipIds) unwait.run(id);
}
