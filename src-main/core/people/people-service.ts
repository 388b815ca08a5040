import { AppError } from '../../../src-shared/errors';
import { forgetFaces } from '../analysis/face-identity-store';
import type { CatalogDb } from '../catalog/open-catalog';
import { assignableFacesOfClip, clipsWithFaces, faceViews, placesOf, placesOfClip, poolFaces, unassignedFaces, type FaceRecord } from './face-read-store';
import { iou } from '../analysis/workers/yunet.cjs';
import { faceTracks } from './face-tracks';
import { dbscan, DEFAULT_THRESHOLDS, dot, keepGroupIds, linkGroups, matchFace, prototypeOf, type GroupingThresholds } from './grouping';
import { addFact, clipsWithRefusals, factsOfClip, forgetPerson, repointFacts } from './people-facts-store';
import * as people from './people-store';
import { PrototypeCache } from './prototypes';
import type { Held } from '../util/take-field';

export interface PeopleServiceDeps {
  db: CatalogDb;
  /** The embedding model the analysis writes now: faces of another model are not compared. */
  model: () => string;
  thresholds?: GroupingThresholds;
  now?: () => number;
  /** People or their faces changed (the views read them again). */
  changed?: (clipIds?: number[]) => void;
}

/** When and by which seat a change made elsewhere was made (team/syncs/people-sync.ts applies it). */
export interface TeamStamp {
  at: number;
  by: string;
}

/** Most faces the editor's naming of a group records as facts: the best ones carry the name through any regroup. */
const FACTS_PER_NAMING = 200;
/** The grouping's pool: the best faces nobody holds. DBSCAN is quadratic: 1,000 faces are 0.5 M dot products, ~70 ms in the analysis stage that calls it. */
const POOL_LIMIT = 1000;

/** Samples of one track are at most this far apart (two missed detections at 2 samples a second). */
const TRACK_GAP_S = 1.25;
/** Boxes of one face on consecutive samples overlap at least this much (a head moving a third of its width). */
const TRACK_IOU = 0.3;

/** Boxes of one face in two analyses overlap this much (intersection over union) or they are two faces. */
const SAME_FACE_IOU = 0.4;

/**
 * People: faces grouped into people and the editor's naming of them. Every choice of the editor is
 * recorded as a fact about a face's place (people-facts-store.ts) and applied to the faces found
 * there, so it survives re-analysis, new footage, another threshold and another model; the
 * assignment of faces (`face_people`) is derived and may be rebuilt (`regroupAll`).
 */
export function createPeopleService(d: PeopleServiceDeps) {
  const { db } = d;
  const t = d.thresholds ?? DEFAULT_THRESHOLDS;
  const now = d.now ?? Date.now;
  const protos = new PrototypeCache(db, d.model);
  const changed = (clipIds?: number[]) => d.changed?.(clipIds);

  /** The facts about a clip's faces, each with the face it is about now (the same sample, the box that overlaps most). */
  function attachedFacts(clipId: number) {
    const places = placesOfClip(db, clipId);
    const out: Array<{ fact: ReturnType<typeof factsOfClip>[number]; face: (typeof places)[number] }> = [];
    for (const f of factsOfClip(db, clipId)) {
      let best: (typeof places)[number] | null = null;
      let bestIou = SAME_FACE_IOU;
      for (const p of places) {
        if (Math.abs(p.timeS - f.time_s) > 0.001) continue;
        const o = iou(p, f);
        if (o >= bestIou) {
          best = p;
          bestIou = o;
        }
      }
      if (best) out.push({ fact: f, face: best });
    }
    return out;
  }

  /** The people the editor said each face of these clips is not. */
  function refusalsOf(clipIds: Iterable<number>, into = new Map<number, Set<number>>()): Map<number, Set<number>> {
    for (const clipId of clipIds) {
      for (const { fact, face } of attachedFacts(clipId)) {
        if (fact.kind !== 'is_not') continue;
        const person = people.personByUuid(db, fact.person_uuid);
        if (person) (into.get(face.faceId) ?? into.set(face.faceId, new Set()).get(face.faceId)!).add(person.id);
      }
    }
    return into;
  }

  /** The facts about a clip's faces applied to the faces there now; returns each face's refused people. */
  function applyFacts(clipId: number): Map<number, Set<number>> {
    const refused = new Map<number, Set<number>>();
    for (const { fact: f, face: best } of attachedFacts(clipId)) {
      if (f.kind === 'forget') {
        forgetFaces(db, [best.faceId]);
        people.unassignFace(db, best.faceId);
        best.assignable = false;
        continue;
      }
      if (!best.assignable) continue;
      const person = people.personByUuid(db, f.person_uuid) ?? people.createPerson(db, { uuid: f.person_uuid, now: now() });
      if (f.kind === 'is') {
        people.assignFace(db, best.faceId, person.id, 'confirmed', 1);
        protos.stale(person.id);
      } else {
        (refused.get(best.faceId) ?? refused.set(best.faceId, new Set()).get(best.faceId)!).add(person.id);
      }
    }
    return refused;
  }

  /**
   * New faces of a clip join the people the editor holds (named, hidden, or with confirmed faces)
   * they match; the rest go to the pool. Faces already someone's stay. Only held people are matched:
   * a proposed group is the pool's, made again with it (`regroupPool`), so which clip came first
   * does not decide it. Each track (one face seen over consecutive samples, face-tracks.ts) is judged
   * by its mean embedding first, then its faces one by one: a face too small or turned to match
   * alone joins the person its track is.
   */
  function matchClip(clipId: number): number {
    const refused = applyFacts(clipId);
    const taken = new Set(people.allMembersOfClip(db, clipId));
    const prototypes = protos.list(people.heldPeople(db));
    const named = new Set(people.allPeople(db).filter((p) => p.name !== null).map((p) => p.id));
    const faces = assignableFacesOfClip(db, clipId, d.model()).filter((f) => !taken.has(f.faceId));
    let left = 0;
    const assign = (face: FaceRecord, personId: number, similarity: number) => {
      people.assignFace(db, face.faceId, personId, named.has(personId) ? 'matched' : 'grouped', similarity);
      // A hidden group's prototype is all its faces; a named person's only what the editor confirmed.
      if (!named.has(personId)) protos.stale(personId);
    };
    for (const track of faceTracks(faces, TRACK_GAP_S, TRACK_IOU)) {
      const members = track.map((k) => faces[k]!);
      const noes = new Set(members.flatMap((f) => [...(refused.get(f.faceId) ?? [])]));
      const mean = prototypeOf(members.map((f) => f.embedding));
      const m = mean ? matchFace(mean, prototypes, noes, t) : null;
      if (m) {
        for (const f of members) {
          if (!refused.get(f.faceId)?.has(m.personId)) assign(f, m.personId, dot(f.embedding, prototypes.find((p) => p.personId === m.personId)!.vector));
          else left++;
        }
        continue;
      }
      for (const f of members) {
        const one = matchFace(f.embedding, prototypes, refused.get(f.faceId) ?? new Set(), t);
        if (one) assign(f, one.personId, one.similarity);
        else left++;
      }
    }
    return left;
  }

  /**
   * The pool (faces nobody holds: unassigned or in a proposed group) grouped again as a whole, in
   * the faces' own order (face-read-store.ts `poolFaces`), so the groups depend on which faces there
   * are, not on the order their clips arrived in. A group keeps its id where most of its faces stay
   * together (`keepGroupIds`); a face the editor refused stays out of that person. Costs at most
   * POOL_LIMIT^2 / 2 dot products, once per clip that left faces in the pool.
   */
  function regroupPool(): void {
    const pool = poolFaces(db, d.model(), POOL_LIMIT);
    const before = new Map<number, number>();
    for (const f of pool) if (f.personId !== null) before.set(f.faceId, f.personId);
    const inPool = new Set(pool.map((f) => f.clipId));
    const refused = refusalsOf(clipsWithRefusals(db).filter((c) => inPool.has(c)));
    // Grouped track by track (a track is one person), each by its mean: a small or turning face's
    // samples agree with each other less than their mean agrees with the same person's other tracks.
    const tracks = faceTracks(pool, TRACK_GAP_S, TRACK_IOU).sort((a, b) => Math.min(...a) - Math.min(...b));
    const means = tracks.map((tr) => prototypeOf(tr.map((k) => pool[k]!.embedding))!);
    const dense = dbscan(
      means,
      t,
      tracks.map((tr) => tr.length),
    ).map((units) => units.flatMap((u) => tracks[u]!));
    // One person's worse copies (small, compressed, mirrored) can make a group of their own: joined
    // to their clearly nearest group when close enough (`linkGroups`).
    const clusters = linkGroups(
      dense.map((g) => prototypeOf(g.map((k) => pool[k]!.embedding))!),
      t,
    ).map((joined) => joined.flatMap((c) => dense[c]!).sort((a, b) => a - b).map((k) => pool[k]!.faceId));
    const after = new Map<number, number>();
    for (const g of keepGroupIds(clusters, before, refused, t.minFaces)) {
      const personId = g.personId ?? people.createPerson(db, { now: now() }).id;
      for (const f of g.faces) after.set(f, personId);
    }
    for (const f of pool) {
      const p = after.get(f.faceId);
      if (p === f.personId || (p === undefined && f.personId === null)) continue;
      if (p === undefined) people.unassignFace(db, f.faceId);
      else people.assignFace(db, f.faceId, p, 'grouped', 1);
    }
  }

  function recordIs(personUuid: string, faceIds: readonly number[]): void {
    const places = placesOf(db, faceIds);
    for (const [, place] of places) addFact(db, 'is', personUuid, place, now());
  }

  return {
    /** A clip's faces were stored (analysed here, or re-analysed): match them, then group what is left. */
    clipAnalysed(clipId: number): void {
      db.transaction(() => {
        if (matchClip(clipId) > 0) regroupPool();
        people.deleteEmptyGroups(db);
      })();
      changed([clipId]);
    },

    /** Another threshold or model: every derived assignment is made again from the facts. */
    regroupAll(): void {
      db.transaction(() => {
        people.clearDerived(db);
        protos.clear();
        for (const clipId of clipsWithFaces(db, d.model())) matchClip(clipId);
        regroupPool();
        people.deleteEmptyGroups(db);
      })();
      changed();
    },

    name(personId: number, name: string): void {
      db.transaction(() => {
        const p = people.personById(db, personId);
        people.setPersonName(db, personId, name, now());
        // Naming a group says its faces are this person: the best of them become facts.
        const best = faceViews(db, personId, 0, FACTS_PER_NAMING).faces.map((f) => f.faceId);
        recordIs(p.uuid, best);
        for (const id of best) people.assignFace(db, id, personId, 'confirmed', 1);
        protos.stale(personId);
      })();
      changed();
    },

    /** `team`: another seat's merge, applied here (its name and facts come as that seat sent them). */
    merge(from: number, into: number, team?: TeamStamp): void {
      if (from === into) throw new AppError('invalid', 'A person cannot be merged into itself.');
      db.transaction(() => {
        const a = people.personById(db, from);
        const b = people.personById(db, into);
        const moved = people.membersOf(db, from).map((m) => m.face_id);
        people.moveMembers(db, from, into);
        repointFacts(db, a.uuid, b.uuid);
        people.personGone(db, from, b.uuid, team?.at ?? now(), team?.by ?? null);
        if (!team) {
          // A name merged into a group goes with it (`from` is gone, so the name is free).
          if (a.name !== null && b.name === null) people.setPersonName(db, into, a.name, now());
          // Merging says the faces are one person: if that person has a name, the moved faces are confirmed.
          if (a.name !== null || b.name !== null) {
            const best = moved.slice(0, FACTS_PER_NAMING);
            recordIs(b.uuid, best);
            for (const id of best) people.assignFace(db, id, into, 'confirmed', 1);
          }
          // Two proposed groups merged are one person by the editor's word: the pool's regroup leaves them be.
          else people.holdMembers(db, into);
        }
        protos.stale(from);
        protos.stale(into);
      })();
      changed();
    },

    split(personId: number, faceIds: readonly number[], into: number | null): number {
      if (into === personId) throw new AppError('invalid', 'Those faces are already this person’s.');
      const target = db.transaction(() => {
        const p = people.personById(db, personId);
        const members = new Set(people.membersOf(db, personId).map((m) => m.face_id));
        const moving = faceIds.filter((id) => members.has(id));
        if (moving.length === 0) throw new AppError('invalid', 'None of those faces is this person’s.');
        const places = placesOf(db, moving);
        for (const [, place] of places) addFact(db, 'is_not', p.uuid, place, now());
        const target = into === null ? people.createPerson(db, { now: now() }) : people.personById(db, into);
        // Confirmed, in a new group too: the editor put these faces together, the pool's regroup leaves them be.
        for (const id of moving) people.assignFace(db, id, target.id, 'confirmed', 1);
        if (into !== null) recordIs(target.uuid, moving);
        protos.stale(personId);
        protos.stale(target.id);
        return target.id;
      })();
      changed();
      return target;
    },

    hide(personId: number, hidden: boolean): void {
      db.transaction(() => {
        people.personById(db, personId);
        people.setPersonHidden(db, personId, hidden, now());
      })();
      changed();
    },

    confirm(faceId: number, personId: number, yes: boolean): void {
      const place = db.transaction(() => {
        const p = people.personById(db, personId);
        const at = placesOf(db, [faceId]).get(faceId);
        if (!at) throw new AppError('not_found', 'That face is no longer in the library.');
        addFact(db, yes ? 'is' : 'is_not', p.uuid, at, now());
        if (yes) people.assignFace(db, faceId, personId, 'confirmed', 1);
        else if (people.personOfFace(db, faceId) === personId) people.unassignFace(db, faceId);
        protos.stale(personId);
        return at;
      })();
      changed([place.clipId]);
    },

    /** `team`: another seat's forget, applied here: this seat's faces of the person lose their embeddings too. */
    forget(personId: number, team?: TeamStamp): void {
      db.transaction(() => {
        const p = people.personById(db, personId);
        const faceIds = people.membersOf(db, personId).map((m) => m.face_id);
        forgetPerson(db, p.uuid, [...placesOf(db, faceIds).values()], now());
        forgetFaces(db, faceIds);
        people.personGone(db, personId, null, team?.at ?? now(), team?.by ?? null);
        protos.stale(personId);
      })();
      changed();
    },

    /** The team's name and hidden flag for a person, as the team's rule left them (a person named so here is merged into them first, by the caller). */
    takeTeamFields(personId: number, fields: { name: Held<string | null>; hidden: Held<boolean> }): void {
      db.transaction(() => {
        people.writeTeamPersonFields(db, personId, fields);
        // a named person's prototype is their confirmed faces only
        protos.stale(personId);
      })();
      changed();
    },

    /** "Is this <name>?": faces nobody has that look most like the person, then the matcher's least sure. */
    suggestions(personId: number, limit: number): number[] {
      const prototypes = protos.list(new Set([...people.heldPeople(db), personId]));
      const proto = prototypes.find((x) => x.personId === personId);
      if (!proto) return [];
      const near = unassignedFaces(db, d.model(), POOL_LIMIT)
        .map((f: FaceRecord) => ({ f, s: dot(f.embedding, proto.vector) }))
        .filter(({ f, s }) => s >= t.suggest && prototypes.every((o) => o.personId === personId || dot(f.embedding, o.vector) < s))
        .sort((a, b) => b.s - a.s)
        .map(({ f }) => f.faceId);
      const unsure = people
        .membersOf(db, personId)
        .filter((m) => m.how === 'matched')
        .sort((a, b) => a.similarity - b.similarity)
        .map((m) => m.face_id);
      return [...near, ...unsure].slice(0, limit);
    },
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
