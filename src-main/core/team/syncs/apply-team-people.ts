import type { CatalogDb } from '../../catalog/open-catalog';
import { compareStamps, type Stamp } from '../../marks/marks-merge';
import type { TeamFact, TeamPerson } from '../server/team-people-store';
import { addFact, factById, forgetPerson, heldFactAt, repointFacts, type FacePlace } from '../../people/people-facts-store';
import { currentUuid, doneWaiting, goneOf, recordGone, waitForTeamClip, type PeopleOutboxEntry } from '../../people/people-outbox-store';
import type { PeopleService } from '../../people/people-service';
import * as people from '../../people/people-store';
import { localClipOfTeamClip, teamLinkOf } from '../team-replica-store';

/**
 * Other seats' naming applied to this catalog, and this catalog's put in the team's terms. The team
 * names a face by its place on the team's clip (milliseconds, a box in 1/10,000 of the frame); a fact
 * here by its place on the local clip. A change stamped by this seat is its own, echoed back: it
 * changes nothing (its stamp is not later than the one held).
 */

const BOX = 10_000;
const toUnit = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * BOX);

/**
 * People of the team applied here, each by its stamps: a forget forgets this seat's faces of the
 * person too (their embeddings go); a merge merges; a later name or hidden flag replaces the one held.
 * Returns whether anything changed here.
 */
export function applyTeamPeople(db: CatalogDb, service: PeopleService, seatId: string, incoming: readonly TeamPerson[], now: number): boolean {
  let changed = false;
  for (const p of incoming) {
    const gone = goneOf(db, p.uuid);
    const local = people.personByUuid(db, p.uuid);
    if (p.forgotten) {
      if (gone?.merged_into === null) continue;
      changed = true;
      if (local) service.forget(local.id, p.forgotten);
      else {
        // no person here (their group emptied), but facts about them may be: they go too
        forgetPerson(db, p.uuid, [], now);
        recordGone(db, p.uuid, null, p.forgotten.at, p.forgotten.by);
      }
      continue;
    }
    if (p.merged) {
      if (gone) continue;
      changed = true;
      const into = currentUuid(db, p.merged.into);
      if (into === null) {
        // merged into someone forgotten here: forgotten with them
        if (local) service.forget(local.id, p.merged);
        continue;
      }
      if (into === p.uuid) continue; // merges made apart that lead back here (each seat merged into the other)
      if (local) {
        const target = people.personByUuid(db, into) ?? people.createPerson(db, { uuid: into, now });
        service.merge(local.id, target.id, p.merged);
      } else {
        repointFacts(db, p.uuid, into);
        recordGone(db, p.uuid, into, p.merged.at, p.merged.by);
      }
      continue;
    }
    if (gone) continue; // merged or forgotten here: the server hears of it from this seat's outbox
    const held = (at: number, by: string | null): Stamp => ({ at, by: by ?? seatId });
    const nameWins = p.name !== null && (!local || (local.name !== p.name && compareStamps({ at: p.nameAt, by: p.nameBy }, held(local.named_at ?? 0, local.name_by)) > 0));
    const hiddenWins = local ? (local.hidden === 1) !== p.hidden && compareStamps({ at: p.hiddenAt, by: p.hiddenBy }, held(local.hidden_at, local.hidden_by)) > 0 : p.hidden;
    if (!nameWins && !hiddenWins) continue;
    changed = true;
    const person = local ?? people.createPerson(db, { uuid: p.uuid, now });
    if (nameWins && p.name !== null) {
      // One person per name: someone already called so here is the same person (two seats named one
      // person while apart). Every seat keeps the smaller uuid of the two, so their merges agree.
      const holder = people.otherWithName(db, p.name, person.id);
      if (holder !== null && people.personById(db, holder).uuid < person.uuid) {
        service.merge(person.id, holder);
        continue;
      }
      if (holder !== null) service.merge(holder, person.id);
      service.nameFromTeam(person.id, p.name, { at: p.nameAt, by: p.nameBy });
    }
    if (hiddenWins) people.setPersonHidden(db, person.id, p.hidden, p.hiddenAt, p.hiddenBy);
  }
  return changed;
}

/**
 * Facts of the team stored here with their seat (the person resolved through merges; a forgotten
 * person's dropped; a fact of a clip not linked here waits), each only over an older one about the
 * same face and person. `caughtUp`: waiting team clips these are all the facts of. Returns the local
 * clips whose facts changed (their faces are matched again).
 */
export function applyTeamFacts(db: CatalogDb, seatId: string, facts: readonly TeamFact[], caughtUp: readonly number[]): number[] {
  return db.transaction(() => {
    const touched = new Set<number>();
    for (const f of facts) {
      if (f.seat === seatId) continue;
      const clipId = linkedClipOrWait(db, f.clipId);
      if (clipId === null) continue;
      const uuid = currentUuid(db, f.personUuid);
      if (uuid === null) continue;
      const place: FacePlace = { clipId, frame: f.frame, timeS: f.timeMs / 1000, x: f.x / BOX, y: f.y / BOX, w: f.w / BOX, h: f.h / BOX };
      const held = heldFactAt(db, uuid, place);
      if (held !== null && held >= f.at) continue;
      addFact(db, f.kind, uuid, place, f.at, f.seat);
      touched.add(clipId);
    }
    doneWaiting(db, caughtUp);
    return [...touched];
  })();
}

/** What the outbox lists, in the team's terms; entries whose clip is not linked yet stay listed (not in `sent`). */
export function unsentPeople(db: CatalogDb, seatId: string, entries: readonly PeopleOutboxEntry[]): { people: TeamPerson[]; facts: TeamFact[]; sent: PeopleOutboxEntry[] } {
  const out = { people: [] as TeamPerson[], facts: [] as TeamFact[], sent: [] as PeopleOutboxEntry[] };
  for (const e of entries) {
    if (e.kind === 'person') {
      const gone = goneOf(db, e.key);
      const p = people.personByUuid(db, e.key);
      if (gone) {
        const stamp = { at: gone.at, by: gone.by_seat ?? seatId };
        // name and hidden at time 0: what the team holds of them is never replaced by a person gone
        out.people.push({
          uuid: e.key,
          name: null,
          nameAt: 0,
          nameBy: seatId,
          hidden: false,
          hiddenAt: 0,
          hiddenBy: seatId,
          merged: gone.merged_into === null ? null : { into: gone.merged_into, ...stamp },
          forgotten: gone.merged_into === null ? stamp : null,
        });
      } else if (p) {
        out.people.push({
          uuid: p.uuid,
          name: p.name,
          nameAt: p.named_at ?? 0,
          nameBy: p.name_by ?? seatId,
          hidden: p.hidden === 1,
          hiddenAt: p.hidden_at,
          hiddenBy: p.hidden_by ?? seatId,
          merged: null,
          forgotten: null,
        });
      }
      out.sent.push(e);
      continue;
    }
    const f = factById(db, Number(e.key));
    if (f && f.kind !== 'forget') {
      const teamClipId = teamLinkOf(db, f.clip_id)?.teamClipId ?? null;
      if (teamClipId === null) continue;
      out.facts.push({
        personUuid: f.person_uuid,
        clipId: teamClipId,
        kind: f.kind,
        timeMs: Math.round(f.time_s * 1000),
        frame: f.frame,
        x: toUnit(f.x),
        y: toUnit(f.y),
        w: toUnit(f.w),
        h: toUnit(f.h),
        at: f.at,
        seat: f.by_seat ?? seatId,
      });
    }
    out.sent.push(e);
  }
  return out;
}

/** The local clip of a team clip; one this seat does not have linked (yet) waits, and answers null. */
function linkedClipOrWait(db: CatalogDb, teamClipId: number): number | null {
  const clipId = localClipOfTeamClip(db, teamClipId);
  if (clipId === null) waitForTeamClip(db, teamClipId);
  return clipId;
}
