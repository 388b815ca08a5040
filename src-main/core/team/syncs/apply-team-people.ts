import type { CatalogDb } from '../../catalog/open-catalog';
import { takeField } from '../../util/take-field';
import type { TeamFact, TeamPerson } from '../server/team-people-store';
import { addFact, factById, forgetPerson, heldFactAt, repointFacts, type FacePlace } from '../../people/people-facts-store';
import { currentUuid, doneWaiting, goneOf, isListed, recordGone, waitForTeamClip, type PeopleOutboxEntry } from '../../people/people-outbox-store';
import type { PeopleService } from '../../people/people-service';
import * as people from '../../people/people-store';
import { localClipOfTeamClip, teamLinkOf } from '../team-replica-store';

/**
 * The team's naming applied to this catalog, and this catalog's put in the team's terms. The team
 * names a face by its place on the team's clip (milliseconds, a box in 1/10,000 of the frame); a fact
 * here by its place on the local clip. Stamps are the server's (team migration 0016): a name and a
 * hidden flag go by the team's one rule (util/take-field.ts) over the version held; a merge and a
 * forget are tombstones; a fact is the latest to reach the server, unless this seat's own is waiting.
 */

const BOX = 10_000;
const toUnit = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * BOX);

/** A pending edit of a person's field that gave way to a newer server version (told once, by the sync's log). */
export interface LostPersonEdit {
  uuid: string;
  field: 'name' | 'hidden';
}

/**
 * People of the team applied here: a forget forgets this seat's faces of the person too (their
 * embeddings go); a merge merges; a name and a hidden flag by the rule (`sent`: what this seat's push
 * sent, when these are its answer). Returns whether anything shown changed here, and the edits that lost.
 */
export function applyTeamPeople(
  db: CatalogDb,
  service: PeopleService,
  seatId: string,
  incoming: readonly TeamPerson[],
  now: number,
  sent: readonly TeamPerson[] = [],
): { changed: boolean; lost: LostPersonEdit[] } {
  const sentByUuid = new Map(sent.map((p) => [p.uuid, p]));
  const lost: LostPersonEdit[] = [];
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
    if (!local && p.name === null && !p.hidden) continue; // nobody to show here
    const held = local ? people.heldPersonFields(local, seatId) : null;
    const s = sentByUuid.get(p.uuid);
    const name = takeField(held?.name ?? null, { value: p.name, stamp: { at: p.nameAt, by: p.nameBy } }, s && { value: s.name });
    const hidden = takeField(held?.hidden ?? null, { value: p.hidden, stamp: { at: p.hiddenAt, by: p.hiddenBy } }, s && { value: s.hidden });
    if (name.lost) lost.push({ uuid: p.uuid, field: 'name' });
    if (hidden.lost) lost.push({ uuid: p.uuid, field: 'hidden' });
    if (held && JSON.stringify([name.field, hidden.field]) === JSON.stringify([held.name, held.hidden])) continue;
    const person = local ?? people.createPerson(db, { uuid: p.uuid, now });
    changed ||= !local || name.field.value !== local.name || hidden.field.value !== (local.hidden === 1);
    if (name.field.value !== null && name.field.value !== person.name) {
      // One person per name: someone already called so here is the same person (two seats named one
      // person while apart). Every seat keeps the smaller uuid of the two, so their merges agree.
      const holder = people.otherWithName(db, name.field.value, person.id);
      if (holder !== null && people.personById(db, holder).uuid < person.uuid) {
        service.merge(person.id, holder);
        continue;
      }
      if (holder !== null) service.merge(holder, person.id);
    }
    service.takeTeamFields(person.id, { name: name.field, hidden: hidden.field });
  }
  return { changed, lost };
}

/**
 * Facts of the team stored here with their seat and server stamp (the person resolved through merges;
 * a forgotten person's dropped; a fact of a clip not linked here waits), each replacing the one held
 * about the same face and person unless that one is this seat's, not sent yet. `caughtUp`: waiting team clips these are all the facts of. Returns the local
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
      // the latest to reach the server holds, unless this seat's own fact here waits to be sent (it will be the latest)
      const held = heldFactAt(db, uuid, place);
      if (held && (isListed(db, 'fact', held.id) || (held.kind === f.kind && held.at === f.at && held.by_seat === f.seat))) continue;
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
