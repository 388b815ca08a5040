import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { unsentPeopleCount } from '../../../../src-main/core/people/people-outbox-store';
import { createPeopleService, type PeopleService } from '../../../../src-main/core/people/people-service';
import { allMembers, allPeople } from '../../../../src-main/core/people/people-store';
import { TeamPeopleSync } from '../../../../src-main/core/team/syncs/people-sync';
import { EventBus } from '../../../../src-main/core/rpc/event-bus';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { upsertTeamFact, upsertTeamPerson } from '../../../../src-main/core/team/server/team-people-store';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { linkTeamClip } from '../../../../src-main/core/team/team-replica-store';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { insertClip, insertShot, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';
import { faceSpace, seedFace } from '../../../helpers/people/seed-faces';
import { closeSeats, seatLinkOf } from '../../../helpers/team/sync-seats';

/**
 * People by name shared between two seats of a team library (issue 39 part 5): two real SQLite
 * catalogs, two seat runtimes (TeamSeat: pool, LISTEN/NOTIFY, cursor), one real PostgreSQL. Both
 * seats have the same footage under their own clip ids, linked to the same team clips, and found the
 * same faces at the same places; each seat's embeddings are its own (another random space per seat,
 * so nothing but the places can carry a name across). Edits are made through the people service and
 * sent by an explicit round; what arrives comes through the seat's own pulls, waited for with a bound.
 */
const SEAT_A = '00000000-0000-4000-8000-00000000000a';
const SEAT_B = '00000000-0000-4000-8000-00000000000b';
const MODEL = 'mobilefacenet-a6cc9032';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  db: CatalogDb;
  link: TeamSeat;
  svc: PeopleService;
  sync: TeamPeopleSync;
  /** The edits this seat was told lost (the sync's `team.people.lost`). */
  lost: unknown[];
  /** faces[clip][person]: the face ids of that person in that clip, in place order. */
  faces: number[][][];
}

/** Who is in each clip: four people, six samples each, person k's box at x = 0.05 + 0.3 (k % 3). Clip 2 is linked on A only at first. */
const CAST = [[0, 1], [0, 2], [3]];

describeWithPostgres('people named on one seat, shared with another on PostgreSQL', () => {
  const tmp = tempDir('rs-team-people-');
  let cluster: PgCluster;
  let a: Seat;
  let b: Seat;
  const teamClips: number[] = [];

  async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(20);
    }
  }

  async function seat(seatId: string, name: string, spaceSeed: number, linked: number): Promise<Seat> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const vol = insertVolume(db, `/mnt/${name}`);
    const space = faceSpace(spaceSeed);
    const who = [space.centre(), space.centre(), space.centre(), space.centre()];
    const faces = CAST.map((cast, i) => {
      const clipId = insertClip(db, { volumeId: vol, relPath: `C${i}.mov`, durationS: 10, fps: 25 });
      if (i < linked) linkTeamClip(db, clipId, teamClips[i]!);
      const shotId = insertShot(db, clipId, 0, 0, 10);
      const byPerson: number[][] = [[], [], [], []];
      for (const p of cast) {
        for (let s = 0; s < 6; s++) byPerson[p]!.push(seedFace(db, { clipId, shotId, timeS: s * 0.5, box: { x: 0.05 + 0.3 * (p % 3), y: 0.3, w: 0.2, h: 0.3 }, embedding: space.around(who[p]!), model: MODEL }));
      }
      return byPerson;
    });
    const svc = createPeopleService({ db, model: () => MODEL });
    for (const clipId of (db.prepare('SELECT id FROM clips ORDER BY id').all() as { id: number }[]).map((r) => r.id)) svc.clipAnalysed(clipId);
    return { ...(await online(seatId, name, db, svc)), db, svc, faces };
  }

  /** A seat's link to the team and its people sync, over its catalog (again after it was offline). */
  async function online(seatId: string, name: string, db: CatalogDb, svc: PeopleService): Promise<Pick<Seat, 'link' | 'sync' | 'lost'>> {
    const link = await seatLinkOf(cluster, seatId, name, db);
    const lost: unknown[] = [];
    const logger = { ...silentLogger, info: (msg: string, data?: Record<string, unknown>) => void (msg === 'team.people.lost' && lost.push(...(data?.lost as unknown[]))) };
    const sync = new TeamPeopleSync({ db: () => db, link, scheduler: link.scheduler, service: () => svc, events: new EventBus(), debounceMs: 10, everyMs: 60_000, logger });
    sync.start();
    link.start();
    return { link, sync, lost };
  }

  const personOf = (s: Seat, faceId: number) => allMembers(s.db).find((m) => m.face_id === faceId)?.person_id ?? null;
  /** The person of person k's faces in every clip they are in, when it is one person; else null. */
  const personAt = (s: Seat, k: number) => {
    const ids = new Set(s.faces.flatMap((clip) => clip[k]!).map((f) => personOf(s, f)));
    const [only] = ids;
    return ids.size === 1 && only !== null && only !== undefined ? allPeople(s.db).find((p) => p.id === only)! : null;
  };
  const byUuid = (s: Seat, uuid: string) => allPeople(s.db).find((p) => p.uuid === uuid) ?? null;
  const admin = async <R,>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const c = await cluster.connect(cluster.adminConfig());
    try {
      return (await c.query(sql, params)).rows as R[];
    } finally {
      await c.end();
    }
  };
  const feedRows = async () => Number((await admin<{ n: string }>('SELECT COUNT(*) AS n FROM team.changes'))[0]!.n);

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    const c = await cluster.connectSeat(SEAT_A);
    await joinSeat(c, { seatId: SEAT_A, name: 'Edit A', roots: [] });
    const cb = await cluster.connectSeat(SEAT_B);
    await joinSeat(cb, { seatId: SEAT_B, name: 'Edit B', roots: [] });
    await cb.end();
    for (let i = 0; i < CAST.length; i++) teamClips.push((await adoptTeamClip(c, { fingerprint: (i + 1).toString(16).padStart(64, 'c'), sizeBytes: i, fileName: `C${i}.mov`, seatId: SEAT_A })).id);
    await c.end();
    a = await seat(SEAT_A, 'a', 3, 3);
    b = await seat(SEAT_B, 'b', 17, 2);
  });
  afterAll(() => closeSeats([a, b], cluster, tmp));

  it('a group named on A: B\'s faces at the same places are that person, by name and uuid; the team holds no face data', async () => {
    // Each seat grouped its own faces: person 0 is one group on each, under a uuid of its own.
    const groupA = personAt(a, 0)!;
    expect(groupA.name).toBeNull();
    expect(personAt(b, 0)!.uuid).not.toBe(groupA.uuid);

    a.svc.name(groupA.id, 'Maria');
    await a.sync.sync();
    await until("Maria on B's faces of person 0", () => personAt(b, 0)?.name === 'Maria');
    expect(personAt(b, 0)!.uuid).toBe(groupA.uuid);
    // the other people are untouched on B
    expect(personAt(b, 1)!.name).toBeNull();
    expect(unsentPeopleCount(a.db)).toBe(0);

    // What the team keeps of people: uuids, names, flags, stamps and places. No column could hold an embedding or a crop.
    const cols = await admin<{ table_name: string; column_name: string; data_type: string }>(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'team' AND table_name IN ('people', 'people_facts') ORDER BY table_name, ordinal_position",
    );
    expect(cols.filter((c) => c.data_type === 'bytea' || c.data_type === 'ARRAY' || c.data_type === 'USER-DEFINED')).toEqual([]);
    expect(cols.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
      ...['uuid', 'name', 'name_at', 'name_by', 'hidden', 'hidden_at', 'hidden_by', 'merged_into', 'merged_at', 'merged_by', 'forgotten_at', 'forgotten_by'].map((c) => `people.${c}`),
      ...['id', 'person_uuid', 'clip_id', 'kind', 'time_ms', 'frame', 'x', 'y', 'w', 'h', 'at', 'seat'].map((c) => `people_facts.${c}`),
    ]);
    const facts = await admin<{ n: string }>("SELECT COUNT(*) AS n FROM team.people_facts WHERE person_uuid = $1 AND kind = 'is'", [groupA.uuid]);
    expect(Number(facts[0]!.n)).toBe(12); // person 0's six faces in each of the two clips
  });

  it('a resend of what the server has writes no row and no feed row', async () => {
    const before = await feedRows();
    // Everything A ever named listed again, as after a restored backup.
    a.db.prepare("INSERT OR REPLACE INTO people_outbox (kind, key, at) SELECT 'person', uuid, named_at FROM people WHERE name IS NOT NULL").run();
    a.db.prepare("INSERT OR REPLACE INTO people_outbox (kind, key, at) SELECT 'fact', CAST(id AS TEXT), at FROM people_facts WHERE by_seat IS NULL").run();
    expect(unsentPeopleCount(a.db)).toBe(13);
    await a.sync.sync();
    expect(unsentPeopleCount(a.db)).toBe(0);
    expect(await feedRows()).toBe(before);
  });

  it('hidden on A is hidden on B', async () => {
    a.svc.hide(personAt(a, 0)!.id, true);
    await a.sync.sync();
    await until('Maria hidden on B', () => personAt(b, 0)?.hidden === 1);
  });

  it('two people merged on A are one on B', async () => {
    const ana = personAt(a, 1)!;
    a.svc.name(ana.id, 'Ana');
    await a.sync.sync();
    await until('Ana on B', () => personAt(b, 1)?.name === 'Ana');
    const maria = personAt(a, 0)!;
    a.svc.merge(ana.id, maria.id);
    await a.sync.sync();
    await until("B's faces of persons 0 and 1 one person", () => byUuid(b, ana.uuid) === null && personAt(b, 1)?.uuid === maria.uuid);
    expect(personAt(b, 0)!.uuid).toBe(maria.uuid);
    expect(personAt(b, 1)!.name).toBe('Maria');
  });

  it('the server stopped while A and B each name one person the same: kept, sent when the links are back, one person on both', async () => {
    await cluster.pause();
    a.svc.name(personAt(a, 2)!.id, 'Zoe');
    b.svc.name(personAt(b, 2)!.id, 'zoe');
    const uuids = [personAt(a, 2)!.uuid, personAt(b, 2)!.uuid].sort();
    await expect(a.sync.sync()).rejects.toMatchObject({ kind: 'offline' });
    expect(unsentPeopleCount(a.db)).toBeGreaterThan(0);
    await cluster.resume();
    // Nothing more is asked of either seat: each link reconnects, turns online, and that starts a round.
    await until('person 2 one person on both seats, the smaller uuid', () => personAt(a, 2)?.uuid === uuids[0] && personAt(b, 2)?.uuid === uuids[0], 30_000);
    await until('both outboxes sent', () => unsentPeopleCount(a.db) + unsentPeopleCount(b.db) === 0);
    for (const s of [a, b]) expect(personAt(s, 2)!.name!.toLowerCase()).toBe('zoe');
    expect(allPeople(b.db).filter((p) => p.name?.toLowerCase() === 'zoe')).toHaveLength(1);
  });

  it('facts of a clip B has not linked wait, and name B\'s faces there once it links it', async () => {
    a.svc.name(personAt(a, 3)!.id, 'Lee');
    await a.sync.sync();
    const waiting = () => (b.db.prepare('SELECT team_clip_id FROM people_waiting').all() as { team_clip_id: number }[]).map((r) => r.team_clip_id);
    await until('B keeps clip 2 waiting', () => waiting().includes(teamClips[2]!));
    expect(personAt(b, 3)?.name ?? null).toBeNull();
    const clip2 = (b.db.prepare("SELECT id FROM clips WHERE rel_path = 'C2.mov'").get() as { id: number }).id;
    linkTeamClip(b.db, clip2, teamClips[2]!);
    await b.sync.sync();
    expect(personAt(b, 3)?.name).toBe('Lee');
    expect(waiting()).toEqual([]);
  });

  // Before server stamps the later editor's clock won; now an edit lands only over the version the server still holds.
  it('B offline renames a person A renamed meanwhile, and hides one nobody changed: A\'s name stands on both, B\'s hide lands on both, B is told once', async () => {
    const lee = personAt(a, 3)!;
    expect(personAt(b, 3)!.uuid).toBe(lee.uuid);
    // B's link goes down; A renames, and the server has it
    await b.sync.stop();
    await b.link.stop();
    a.svc.name(lee.id, 'Lee Chen');
    await a.sync.sync();
    // B, offline and later than A by any clock, renames over the version it last saw, and hides Zoe
    await sleep(5);
    b.svc.name(personAt(b, 3)!.id, 'Lee Park');
    b.svc.hide(personAt(b, 2)!.id, true);
    expect(personAt(b, 3)!.name).toBe('Lee Park');
    // B comes back
    Object.assign(b, await online(SEAT_B, 'b', b.db, b.svc));
    await b.sync.sync();
    await until('on B', () => personAt(b, 3)?.name === 'Lee Chen' && personAt(b, 2)?.hidden === 1);
    await until('on A', () => personAt(a, 2)?.hidden === 1);
    expect(personAt(a, 3)!.name).toBe('Lee Chen');
    expect(b.lost).toEqual([{ uuid: lee.uuid, field: 'name' }]);
    expect(unsentPeopleCount(b.db)).toBe(0);
    const row = async (uuid: string) => (await admin<Record<string, unknown>>('SELECT name, name_by, hidden, hidden_by FROM team.people WHERE uuid = $1', [uuid]))[0];
    expect(await row(lee.uuid)).toMatchObject({ name: 'Lee Chen', name_by: SEAT_A, hidden: false });
    expect(await row(personAt(a, 2)!.uuid)).toMatchObject({ hidden: true, hidden_by: SEAT_B });
  });

  // A fact has no base: stamped when it reaches the server, the latest there holds on every seat.
  it('A and B say opposite things about one face of Zoe: the later to reach the server holds on both seats', async () => {
    const [zoeA, zoeB] = [personAt(a, 2)!, personAt(b, 2)!];
    expect(zoeB.uuid).toBe(zoeA.uuid);
    // Zoe's first face in clip 1 (sample 0, box at x 0.65) on each seat
    const factHere = (s: Seat) => s.db.prepare("SELECT kind, by_seat FROM people_facts WHERE person_uuid = ? AND time_s = 0 AND abs(x - 0.65) < 0.002 AND kind <> 'forget'").all(zoeA.uuid);
    a.svc.confirm(a.faces[1]![2]![0]!, zoeA.id, false);
    await a.sync.sync();
    await until("A's refusal on B", () => JSON.stringify(factHere(b)) === JSON.stringify([{ kind: 'is_not', by_seat: SEAT_A }]));
    b.svc.confirm(b.faces[1]![2]![0]!, zoeB.id, true);
    await b.sync.sync();
    await until("B's later confirmation on A", () => JSON.stringify(factHere(a)) === JSON.stringify([{ kind: 'is', by_seat: SEAT_B }]));
    expect(factHere(b)).toEqual([{ kind: 'is', by_seat: null }]);
    const onServer = await admin<{ kind: string; seat: string }>('SELECT kind, seat FROM team.people_facts WHERE person_uuid = $1 AND time_ms = 0 AND x = 6500', [zoeA.uuid]);
    expect(onServer).toEqual([{ kind: 'is', seat: SEAT_B }]);
  });

  it('forgotten on A: forgotten on B too (no person, no naming fact, no embedding of those faces), and on the server', async () => {
    const maria = personAt(a, 0)!;
    const anaUuid = (await admin<{ uuid: string }>("SELECT uuid FROM team.people WHERE merged_into = $1", [maria.uuid]))[0]!.uuid;
    a.svc.forget(maria.id);
    await a.sync.sync();
    await until('Maria gone on B', () => byUuid(b, maria.uuid) === null);
    const theirFaces = b.faces.flatMap((clip) => [...clip[0]!, ...clip[1]!]);
    const withEmbedding = theirFaces.filter((f) => (b.db.prepare('SELECT embedding IS NOT NULL AS e FROM face_identity WHERE face_id = ?').get(f) as { e: number }).e === 1);
    expect(withEmbedding).toEqual([]);
    expect(theirFaces.map((f) => personOf(b, f)).filter((p) => p !== null)).toEqual([]);
    const naming = b.db.prepare("SELECT COUNT(*) AS n FROM people_facts WHERE kind <> 'forget' AND person_uuid IN (?, ?)").get(maria.uuid, anaUuid) as { n: number };
    expect(naming.n).toBe(0);
    // Zoe, not forgotten, keeps her faces and their embeddings.
    expect(personAt(b, 2)!.name!.toLowerCase()).toBe('zoe');
    const zoeFaces = b.faces.flatMap((clip) => clip[2]!);
    expect(zoeFaces.filter((f) => (b.db.prepare('SELECT embedding IS NOT NULL AS e FROM face_identity WHERE face_id = ?').get(f) as { e: number }).e === 1)).toEqual(zoeFaces);
    // The server keeps the tombstone only: no name, no fact of Maria or of Ana merged into her.
    const row = (await admin<{ name: string | null; forgotten_by: string }>('SELECT name, forgotten_by FROM team.people WHERE uuid = $1', [maria.uuid]))[0]!;
    expect(row).toEqual({ name: null, forgotten_by: SEAT_A });
    const left = await admin<{ n: string }>('SELECT COUNT(*) AS n FROM team.people_facts WHERE person_uuid IN ($1, $2)', [maria.uuid, anaUuid]);
    expect(Number(left[0]!.n)).toBe(0);
    // A seat that had not heard of the forget cannot bring a fact of her back, nor her name; no seat may delete.
    const c = await cluster.connectSeat(SEAT_A);
    await upsertTeamFact(c, { personUuid: maria.uuid, clipId: teamClips[0]!, kind: 'is', timeMs: 0, frame: null, x: 500, y: 3000, w: 2000, h: 3000, at: Date.now(), seat: SEAT_B });
    await upsertTeamPerson(c, { uuid: maria.uuid, name: 'Maria', nameAt: Date.now(), nameBy: SEAT_B, hidden: false, hiddenAt: 0, hiddenBy: SEAT_B, merged: null, forgotten: null });
    await expect(c.query('DELETE FROM team.people_facts')).rejects.toMatchObject({ code: '42501' });
    await expect(c.query('DELETE FROM team.people')).rejects.toMatchObject({ code: '42501' });
    await c.end();
    expect((await admin<{ name: string | null }>('SELECT name FROM team.people WHERE uuid = $1', [maria.uuid]))[0]!.name).toBeNull();
    expect(Number((await admin<{ n: string }>('SELECT COUNT(*) AS n FROM team.people_facts WHERE person_uuid = $1', [maria.uuid]))[0]!.n)).toBe(0);
  });
});
