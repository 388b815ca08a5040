import { EMBEDDING_MODEL_FILE } from '../../../src-main/core/analysis/resource-paths';
import { describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { createPeopleService } from '../../../src-main/core/people/people-service';
import { createPresenceStore } from '../../../src-main/core/people/presence-store';
import { allMembers, allPeople } from '../../../src-main/core/people/people-store';
import { catalogPerTest } from '../../helpers/catalog/catalog-per-test';
import { insertClip, insertShot, insertVolume } from '../../helpers/catalog/search-catalog';
import { dropFacesOfClip, faceSpace, seedFace } from '../../helpers/people/seed-faces';

/**
 * The people service on a real catalog file, over faces seeded as the analysis stores them (the
 * embeddings are synthetic here: three people as points of a 128-d space, each face a noisy copy;
 * test/integration/people/face-identity.test.ts and bench:people use real faces). What the editor decides
 * must survive new footage, re-analysis, a regroup and a new model.
 */
describe('people service', () => {
  let db!: CatalogDb;
  catalogPerTest((d) => (db = d));

  function library(seedNumber = 3) {
    const space = faceSpace(seedNumber);
    const who = [space.centre(), space.centre(), space.centre()];
    const vol = insertVolume(db, '/footage');
    const seedFaces = (clipId: number, shotId: number, people: number[], model: string, centres: Float32Array[], around: (c: Float32Array) => Float32Array) => {
      const faces: Record<number, number[]> = {};
      people.forEach((p, k) => {
        faces[p] = [];
        for (let i = 0; i < 6; i++) {
          const box = { x: 0.05 + 0.3 * k, y: 0.3, w: 0.2, h: 0.3 };
          faces[p]!.push(seedFace(db, { clipId, shotId, timeS: i * 0.5, box, embedding: around(centres[p]!), model }));
        }
      });
      return faces;
    };
    const clip = (name: string, people: number[]) => {
      const clipId = insertClip(db, { volumeId: vol, relPath: name, durationS: 10, fps: 25 });
      const shotId = insertShot(db, clipId, 0, 0, 10);
      db.prepare('UPDATE shots SET start_frame = 0, end_frame = 250 WHERE id = ?').run(shotId);
      return { clipId, shotId, people, faces: seedFaces(clipId, shotId, people, EMBEDDING_MODEL_FILE, who, space.around) };
    };
    /** The clip analysed again: new face rows at the same places, in `model`'s space. */
    const reanalyse = (c: ReturnType<typeof clip>, model = EMBEDDING_MODEL_FILE, centres = who, around = space.around) => {
      dropFacesOfClip(db, c.clipId);
      return seedFaces(c.clipId, c.shotId, c.people, model, centres, around);
    };
    return { who, clip, reanalyse, space };
  }

  const personOf = (faceId: number) => allMembers(db).find((m) => m.face_id === faceId)?.person_id ?? null;
  const named = (name: string) => allPeople(db).find((p) => p.name === name)!;

  it('proposes one group per person, names survive a second batch, a re-analysis and a new model', () => {
    const lib = library();
    let model = EMBEDDING_MODEL_FILE;
    const svc = createPeopleService({ db, model: () => model });
    const a = lib.clip('a.mov', [0, 1]);
    const b = lib.clip('b.mov', [1, 2]);
    svc.clipAnalysed(a.clipId);
    svc.clipAnalysed(b.clipId);
    const groups = allPeople(db);
    expect(groups).toHaveLength(3);
    expect(groups.every((g) => g.name === null)).toBe(true);
    // Every face of a person in one group, across clips.
    expect(new Set([...a.faces[1]!, ...b.faces[1]!].map(personOf)).size).toBe(1);

    svc.name(personOf(a.faces[0]![0]!)!, 'Maria');
    svc.name(personOf(a.faces[1]![0]!)!, 'Ana María');
    const before = new Map(allMembers(db).map((m) => [m.face_id, m.person_id]));

    // A second batch: Maria's new faces join her, no face named before moves.
    const c = lib.clip('c.mov', [0, 2]);
    svc.clipAnalysed(c.clipId);
    expect(c.faces[0]!.map(personOf).every((p) => p === named('Maria').id)).toBe(true);
    const moved = [...before].filter(([face, person]) => personOf(face) !== person);
    expect(moved).toEqual([]);

    // Re-analysis of clip a: its faces are new rows at the same places; the names come back through the facts.
    const a2 = lib.reanalyse(a);
    svc.clipAnalysed(a.clipId);
    expect(a2[0]!.map(personOf).every((p) => p === named('Maria').id)).toBe(true);

    // Another model: every embedding in another space. The confirmed faces carry the names over.
    model = 'another-model-v2';
    const rotate = faceSpace(99);
    const who2 = [rotate.centre(), rotate.centre(), rotate.centre()];
    for (const x of [a, b, c]) lib.reanalyse(x, model, who2, rotate.around);
    svc.regroupAll();
    const maria = named('Maria');
    const ana = named('Ana María');
    const facesOf = (id: number) => allMembers(db).filter((m) => m.person_id === id).length;
    expect(facesOf(maria.id)).toBe(12);
    expect(facesOf(ana.id)).toBe(12);
  });

  it('judges a track by its mean: faces too noisy to match alone join the person their track is', () => {
    const lib = library(13);
    const svc = createPeopleService({ db, model: () => EMBEDDING_MODEL_FILE });
    const a = lib.clip('a.mov', [0, 1]);
    svc.clipAnalysed(a.clipId);
    svc.name(personOf(a.faces[0]![0]!)!, 'Maria');
    // A wide, soft clip: each of Maria's six samples alone is about as close to her as the threshold.
    const b = lib.clip('b.mov', [0]);
    const noisy = lib.reanalyse(b, EMBEDDING_MODEL_FILE, lib.who, (c) => lib.space.around(c, 0.3));
    const proto = allMembers(db).filter((m) => m.person_id === named('Maria').id);
    expect(proto.length).toBe(6);
    svc.clipAnalysed(b.clipId);
    expect(noisy[0]!.map(personOf)).toEqual(Array(6).fill(named('Maria').id));
  });

  it('merges, splits, hides, confirms and forgets as facts', () => {
    const lib = library(5);
    const svc = createPeopleService({ db, model: () => EMBEDDING_MODEL_FILE });
    const a = lib.clip('a.mov', [0, 1]);
    svc.clipAnalysed(a.clipId);
    const p0 = personOf(a.faces[0]![0]!)!;
    const p1 = personOf(a.faces[1]![0]!)!;
    expect(() => svc.merge(p0, p0)).toThrow(/itself/);
    svc.name(p0, 'Tom');
    expect(() => svc.name(p1, 'tom')).toThrow(/already called/);

    // Two faces moved out of Tom: a group of their own, and a re-analysis keeps them out.
    const out = a.faces[0]!.slice(0, 2);
    const g = svc.split(p0, out, null);
    expect(out.map(personOf)).toEqual([g, g]);
    const again = { faces: lib.reanalyse(a) };
    svc.clipAnalysed(a.clipId);
    const tom = named('Tom');
    expect(again.faces[0]!.slice(0, 2).map(personOf).some((p) => p === tom.id)).toBe(false);
    expect(again.faces[0]!.slice(2).every((f) => personOf(f) === tom.id)).toBe(true);

    // "Is this Tom?" answered yes for a face of the split group: it is Tom's, as a fact.
    svc.confirm(again.faces[0]![0]!, tom.id, true);
    expect(personOf(again.faces[0]![0]!)).toBe(tom.id);

    // Merge the other group into Tom: one person, named Tom.
    const other = personOf(again.faces[1]![0]!)!;
    svc.merge(other, tom.id);
    expect(allPeople(db).find((p) => p.id === other)).toBeUndefined();
    expect(again.faces[1]!.every((f) => personOf(f) === tom.id)).toBe(true);

    svc.hide(tom.id, true);
    expect(named('Tom').hidden).toBe(1);

    // Forget: no embedding left, no fact naming Tom, never grouped again.
    svc.forget(tom.id);
    expect(allPeople(db).some((p) => p.name === 'Tom')).toBe(false);
    // The one face left out of Tom (split away, never confirmed back) keeps its embedding.
    expect((db.prepare('SELECT face_id FROM face_identity WHERE embedding IS NOT NULL').all() as { face_id: number }[]).map((r) => r.face_id)).toEqual([again.faces[0]![1]]);
    expect((db.prepare("SELECT COUNT(*) AS n FROM people_facts WHERE kind <> 'forget'").get() as { n: number }).n).toBe(0);
    svc.regroupAll();
    expect(allMembers(db)).toEqual([]);
  });

  it('keeps the editor’s word on proposed groups when the pool is grouped again', () => {
    const lib = library(7);
    const svc = createPeopleService({ db, model: () => EMBEDDING_MODEL_FILE });
    const a = lib.clip('a.mov', [0, 1]);
    svc.clipAnalysed(a.clipId);
    const g0 = personOf(a.faces[0]![0]!)!;
    const g1 = personOf(a.faces[1]![0]!)!;
    // "Not this person" for one face of an unnamed group; the other group hidden.
    svc.confirm(a.faces[0]![5]!, g0, false);
    svc.hide(g1, true);
    const b = lib.clip('b.mov', [0, 1, 2]);
    svc.clipAnalysed(b.clipId);
    // The regrouped pool: group 0 grew and kept its id, the refused face stays out of it.
    expect([...a.faces[0]!.slice(0, 5), ...b.faces[0]!].map(personOf)).toEqual(Array(11).fill(g0));
    expect(personOf(a.faces[0]![5]!)).not.toBe(g0);
    // The hidden group is held: new faces of that person join it, it stays hidden.
    expect(b.faces[1]!.map(personOf)).toEqual(Array(6).fill(g1));
    expect(allPeople(db).find((p) => p.id === g1)?.hidden).toBe(1);
    expect(new Set(b.faces[2]!.map(personOf)).size).toBe(1);
    expect([g0, g1, null]).not.toContain(personOf(b.faces[2]![0]!));
  });

  it('finds a person by name with or without accents, and where they are', () => {
    const lib = library(11);
    const svc = createPeopleService({ db, model: () => EMBEDDING_MODEL_FILE });
    const a = lib.clip('a.mov', [0]);
    svc.clipAnalysed(a.clipId);
    svc.name(personOf(a.faces[0]![0]!)!, 'Ana María');
    const presence = createPresenceStore(db, 0.5);
    expect(presence.personByName('ana maría')?.name).toBe('Ana María');
    expect(presence.personByName('Ana Maria')?.name).toBe('Ana María');
    expect(presence.personByName('Ana')).toBeNull();
    const spans = presence.spansOf(presence.personByName('Ana María')!.id);
    // Six samples 0.5 s apart from 0 s: one span from 0 to 2.75 s, frames 0-69 at 25 fps.
    expect(spans.map((s) => [s.startS, s.endS, s.inFrame, s.outFrame])).toEqual([[0, 2.75, 0, 69]]);
  });
});
