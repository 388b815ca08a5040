import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { listForTeam, recordGone } from './people-outbox-store';
import { nameKey } from './person-names';
import type { Held } from '../util/take-field';

/**
 * The one writer of `people` and `face_people` (catalog migration 0053): who the people are, and
 * which person each face belongs to now. `face_people` is derived (people-service.ts rebuilds it
 * from the editor's facts and the grouping); `people` keeps names and the hidden flag, each with
 * the server's stamp of the version this catalog last saw (`named_at`, `hidden_at`; 0 or NULL: none)
 * and that version's seat, NULL while the editor's change of it waits for the team's answer (it is
 * listed for the team in the same transaction; team/syncs/people-sync.ts applies the answers).
 */

export type FaceHow = 'confirmed' | 'grouped' | 'matched';

const personRow = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string().nullable(),
  hidden: z.number(),
  named_at: z.number().nullable(),
  name_by: z.string().nullable(),
  hidden_at: z.number(),
  hidden_by: z.string().nullable(),
});
export type PersonRow = z.infer<typeof personRow>;

const memberRow = z.object({ face_id: z.number(), person_id: z.number(), how: z.enum(['confirmed', 'grouped', 'matched']), similarity: z.number() });
export type MemberRow = z.infer<typeof memberRow>;

/**
 * A person the editor holds, as SQL over `people` aliased `p`: named, hidden, or with a face the editor
 * confirmed (a split's or a merge's group). New footage only joins them (people-service.ts matches
 * faces to them); every other proposed group is the grouping's and is made again with the pool.
 */
export const HELD_SQL = "(p.name IS NOT NULL OR p.hidden = 1 OR EXISTS (SELECT 1 FROM face_people c WHERE c.person_id = p.id AND c.how = 'confirmed'))";

export function heldPeople(db: CatalogDb): Set<number> {
  return new Set((statement(db, `SELECT p.id FROM people p WHERE ${HELD_SQL}`).all() as { id: number }[]).map((r) => r.id));
}

/** The editor said these faces are one person (merged two unnamed groups): they hold as they are. */
export function holdMembers(db: CatalogDb, personId: number): void {
  statement(db, "UPDATE face_people SET how = 'confirmed', similarity = 1 WHERE person_id = ?").run(personId);
}

export function allPeople(db: CatalogDb): PersonRow[] {
  return statement(db, 'SELECT id, uuid, name, hidden, named_at, name_by, hidden_at, hidden_by FROM people ORDER BY id').all().map((r) => personRow.parse(r));
}

export function personById(db: CatalogDb, id: number): PersonRow {
  const r = statement(db, 'SELECT id, uuid, name, hidden, named_at, name_by, hidden_at, hidden_by FROM people WHERE id = ?').get(id);
  if (!r) throw new AppError('not_found', 'That person is no longer in the library.');
  return personRow.parse(r);
}

export function personByUuid(db: CatalogDb, uuid: string): PersonRow | null {
  const r = statement(db, 'SELECT id, uuid, name, hidden, named_at, name_by, hidden_at, hidden_by FROM people WHERE uuid = ?').get(uuid);
  return r ? personRow.parse(r) : null;
}

/** A new person, unnamed (a proposed group until named); `uuid` when the person is known elsewhere already (a fact, a seat). */
export function createPerson(db: CatalogDb, o: { uuid?: string; now: number }): PersonRow {
  const info = statement(db, 'INSERT INTO people (uuid, name, name_key, hidden, named_at, created_at) VALUES (?, NULL, NULL, 0, NULL, ?)').run(o.uuid ?? randomUUID(), o.now);
  return personById(db, Number(info.lastInsertRowid));
}

/** The person who has this name (NFC, case aside) other than `id`, if any. */
export function otherWithName(db: CatalogDb, name: string, id: number): number | null {
  const r = statement(db, 'SELECT id FROM people WHERE name_key = ? AND id <> ?').get(nameKey(name), id) as { id: number } | undefined;
  return r?.id ?? null;
}

/**
 * The editor names a person; a name another person has is refused (the editor merges them instead).
 * The name is pending over the server's stamp held (its base: `named_at`, 0 for none) until the
 * team's answer takes it (`name_by` NULL: pending), and listed for the team at `at`.
 */
export function setPersonName(db: CatalogDb, id: number, name: string, at: number): void {
  if (otherWithName(db, name, id) !== null) throw new AppError('invalid', `Someone is already called “${name}”: merge the two instead.`);
  statement(db, 'UPDATE people SET name = ?, name_key = ?, named_at = COALESCE(named_at, 0), name_by = NULL WHERE id = ?').run(name, nameKey(name), id);
  listForTeam(db, 'person', personById(db, id).uuid, at);
}

/** The editor hides or shows a person: pending over the stamp held, as a name. */
export function setPersonHidden(db: CatalogDb, id: number, hidden: boolean, at: number): void {
  statement(db, 'UPDATE people SET hidden = ?, hidden_by = NULL WHERE id = ?').run(hidden ? 1 : 0, id);
  listForTeam(db, 'person', personById(db, id).uuid, at);
}

/** A person's name and hidden flag as the seat holds them (util/take-field.ts): the server's stamp last seen, and whether an edit waits. */
export function heldPersonFields(p: PersonRow, seatId: string): { name: Held<string | null>; hidden: Held<boolean> } {
  return {
    name: { value: p.name, stamp: { at: p.named_at ?? 0, by: p.name_by ?? seatId }, pending: p.name_by === null && p.named_at !== null },
    hidden: { value: p.hidden === 1, stamp: { at: p.hidden_at, by: p.hidden_by ?? seatId }, pending: p.hidden_by === null && (p.hidden === 1 || p.hidden_at > 0) },
  };
}

/** The team's version of a person's fields, as the rule left them (a pending edit kept stays pending): not listed again. A name taken is free here (the caller merged its holder). */
export function writeTeamPersonFields(db: CatalogDb, id: number, f: { name: Held<string | null>; hidden: Held<boolean> }): void {
  const by = (h: Held<unknown>) => (h.pending ? null : h.stamp.by);
  statement(db, 'UPDATE people SET name = ?, name_key = ?, named_at = ?, name_by = ?, hidden = ?, hidden_at = ?, hidden_by = ? WHERE id = ?').run(
    f.name.value,
    f.name.value === null ? null : nameKey(f.name.value),
    f.name.value === null && f.name.stamp.at === 0 ? null : f.name.stamp.at,
    by(f.name),
    f.hidden.value ? 1 : 0,
    f.hidden.stamp.at,
    by(f.hidden),
    id,
  );
}

/**
 * A person merged into another (`mergedInto`, a uuid) or forgotten (null): their row goes (their face
 * rows with it, ON DELETE CASCADE) and what became of them is kept (people_gone). `by`: another seat's.
 */
export function personGone(db: CatalogDb, id: number, mergedInto: string | null, at: number, by: string | null = null): void {
  const { uuid } = personById(db, id);
  statement(db, 'DELETE FROM people WHERE id = ?').run(id);
  recordGone(db, uuid, mergedInto, at, by);
  if (by === null) listForTeam(db, 'person', uuid, at);
}

export function membersOf(db: CatalogDb, personId: number): MemberRow[] {
  return statement(db, 'SELECT face_id, person_id, how, similarity FROM face_people WHERE person_id = ?').all(personId).map((r) => memberRow.parse(r));
}

export function allMembers(db: CatalogDb): MemberRow[] {
  return statement(db, 'SELECT face_id, person_id, how, similarity FROM face_people').all().map((r) => memberRow.parse(r));
}

/** Faces of a clip that are someone's already. */
export function allMembersOfClip(db: CatalogDb, clipId: number): number[] {
  return (statement(db, 'SELECT fp.face_id FROM face_people fp JOIN face_identity fi ON fi.face_id = fp.face_id WHERE fi.clip_id = ?').all(clipId) as { face_id: number }[]).map((r) => r.face_id);
}

export function personOfFace(db: CatalogDb, faceId: number): number | null {
  const r = statement(db, 'SELECT person_id FROM face_people WHERE face_id = ?').get(faceId) as { person_id: number } | undefined;
  return r?.person_id ?? null;
}

export function assignFace(db: CatalogDb, faceId: number, personId: number, how: FaceHow, similarity: number): void {
  statement(db, 'INSERT INTO face_people (face_id, person_id, how, similarity) VALUES (?, ?, ?, ?) ON CONFLICT (face_id) DO UPDATE SET person_id = excluded.person_id, how = excluded.how, similarity = excluded.similarity').run(
    faceId,
    personId,
    how,
    similarity,
  );
}

export function unassignFace(db: CatalogDb, faceId: number): void {
  statement(db, 'DELETE FROM face_people WHERE face_id = ?').run(faceId);
}

/** Every face of `from` becomes `into`'s, how each was assigned kept. */
export function moveMembers(db: CatalogDb, from: number, into: number): void {
  statement(db, 'UPDATE face_people SET person_id = ? WHERE person_id = ?').run(into, from);
}

/** Unnamed groups left without a face (their faces all moved or forgotten) are no one. */
export function deleteEmptyGroups(db: CatalogDb): void {
  statement(db, 'DELETE FROM people WHERE name IS NULL AND NOT EXISTS (SELECT 1 FROM face_people fp WHERE fp.person_id = people.id)').run();
}

/** A change of thresholds or model regroups from the facts: every assignment but the confirmed goes, and every unnamed group. */
export function clearDerived(db: CatalogDb): void {
  statement(db, "DELETE FROM face_people WHERE how <> 'confirmed'").run();
  deleteEmptyGroups(db);
}

/** Faces, distinct clips and faces the matcher gave without the editor's word ("Is this Maria?"), per person, for the list. */
export function personCounts(db: CatalogDb): Map<number, { faces: number; clips: number; matched: number }> {
  const rows = statement(
    db,
    "SELECT fp.person_id AS id, COUNT(*) AS faces, COUNT(DISTINCT fi.clip_id) AS clips, SUM(fp.how = 'matched') AS matched FROM face_people fp JOIN face_identity fi ON fi.face_id = fp.face_id GROUP BY fp.person_id",
  ).all() as { id: number; faces: number; clips: number; matched: number }[];
  return new Map(rows.map((r) => [r.id, { faces: r.faces, clips: r.clips, matched: r.matched }]));
}

/** Named people seen in each clip, by name. */
export function namesInClips(db: CatalogDb, clipIds: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const q = statement(db, 'SELECT DISTINCT p.name FROM face_people fp JOIN face_identity fi ON fi.face_id = fp.face_id JOIN people p ON p.id = fp.person_id WHERE fi.clip_id = ? AND p.name IS NOT NULL ORDER BY p.name');
  for (const id of clipIds) {
    const names = (q.all(id) as { name: string }[]).map((r) => r.name);
    if (names.length) out.set(id, names);
  }
  return out;
}

/** Known names for completion: hidden people are left out, as the view leaves them out. */
export function knownNames(db: CatalogDb): string[] {
  return (statement(db, 'SELECT name FROM people WHERE name IS NOT NULL AND hidden = 0 ORDER BY name COLLATE NOCASE').all() as { name: string }[]).map((r) => r.name);
}
