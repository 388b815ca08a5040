import { z } from 'zod';
import type { CatalogDb } from '../catalog/open-catalog';
import { statement } from '../catalog/statements';
import { listForTeam } from './people-outbox-store';

/**
 * The one writer of `people_facts` (catalog migration 0053): the editor's choices about faces. A
 * fact names its face by where it is (clip, sample time and frame, box), never by a row id or an
 * embedding, so it outlives a re-analysis and a change of model: people-service.ts re-attaches it
 * to the face found at that place (same sample, boxes overlapping).
 * - `is`: this face is the person (named a group with it in, confirmed a suggestion, moved it in);
 * - `is_not`: this face is not the person (rejected a suggestion, moved it out);
 * - `forget`: the editor had this person forgotten: the face is never grouped again.
 */
export type FactKind = 'is' | 'is_not' | 'forget';

export interface FacePlace {
  clipId: number;
  frame: number | null;
  timeS: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

const factRow = z.object({
  id: z.number(),
  kind: z.enum(['is', 'is_not', 'forget']),
  person_uuid: z.string(),
  clip_id: z.number(),
  frame: z.number().nullable(),
  time_s: z.number(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  at: z.number(),
  by_seat: z.string().nullable(),
});
export type FactRow = z.infer<typeof factRow>;

const SAME_PLACE = 'person_uuid = ? AND clip_id = ? AND abs(time_s - ?) < 0.0005 AND abs(x - ?) < 0.002 AND abs(y - ?) < 0.002';

/**
 * Records a fact; an older fact about the same face and person is replaced (the latest choice holds).
 * The editor's own (`bySeat` null) are listed for the team, but for `forget`: a forget travels as the
 * person's tombstone, never as the places of their faces.
 */
export function addFact(db: CatalogDb, kind: FactKind, personUuid: string, place: FacePlace, at: number, bySeat: string | null = null): void {
  statement(db, `DELETE FROM people_facts WHERE ${SAME_PLACE}`).run(personUuid, place.clipId, place.timeS, place.x, place.y);
  const info = statement(db, 'INSERT INTO people_facts (kind, person_uuid, clip_id, frame, time_s, x, y, w, h, at, by_seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    kind,
    personUuid,
    place.clipId,
    place.frame,
    place.timeS,
    place.x,
    place.y,
    place.w,
    place.h,
    at,
    bySeat,
  );
  if (bySeat === null && kind !== 'forget') listForTeam(db, 'fact', Number(info.lastInsertRowid), at);
}

/** The fact held about this person at this place, if any (the latest, should two be there). */
export function heldFactAt(db: CatalogDb, personUuid: string, place: FacePlace): FactRow | null {
  const r = statement(db, `SELECT * FROM people_facts WHERE ${SAME_PLACE} ORDER BY id DESC LIMIT 1`).get(personUuid, place.clipId, place.timeS, place.x, place.y);
  return r ? factRow.parse(r) : null;
}

export function factById(db: CatalogDb, id: number): FactRow | null {
  const r = statement(db, 'SELECT * FROM people_facts WHERE id = ?').get(id);
  return r ? factRow.parse(r) : null;
}

export function factsOfClip(db: CatalogDb, clipId: number): FactRow[] {
  return statement(db, 'SELECT * FROM people_facts WHERE clip_id = ? ORDER BY at, id').all(clipId).map((r) => factRow.parse(r));
}

/** Clips where the editor said a face is not someone (the pool's regroup keeps those faces out of them). */
export function clipsWithRefusals(db: CatalogDb): number[] {
  return (statement(db, "SELECT DISTINCT clip_id FROM people_facts WHERE kind = 'is_not' ORDER BY clip_id").all() as { clip_id: number }[]).map((r) => r.clip_id);
}

export function allFacts(db: CatalogDb): FactRow[] {
  return statement(db, 'SELECT * FROM people_facts ORDER BY at, id').all().map((r) => factRow.parse(r));
}

/** A merge: every fact about `from` is about `into` from now on. */
export function repointFacts(db: CatalogDb, fromUuid: string, intoUuid: string): void {
  statement(db, 'UPDATE people_facts SET person_uuid = ? WHERE person_uuid = ?').run(intoUuid, fromUuid);
}

/**
 * "Forget this person": every fact naming them goes; the places of their faces stay, as `forget`
 * facts (a place and a random uuid, nothing of the face), so the faces are not grouped again when
 * their clips are analysed again.
 */
export function forgetPerson(db: CatalogDb, uuid: string, places: readonly FacePlace[], at: number): void {
  statement(db, "DELETE FROM people_facts WHERE person_uuid = ? AND kind <> 'forget'").run(uuid);
  for (const p of places) addFact(db, 'forget', uuid, p, at);
}
