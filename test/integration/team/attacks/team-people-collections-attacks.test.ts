import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { publishCollectionMember, readCollectionMembersByKey } from '../../../../src-main/core/team/server/team-collection-store';
import { readTeamPeople, upsertTeamFact, upsertTeamPerson, type TeamFact, type TeamPerson } from '../../../../src-main/core/team/server/team-people-store';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { serverNow, rolledBack } from '../../../helpers/team/pg-seat-attempts';

/**
 * Issue 40's attacks on people and collection members (item 1: "timestamps taken from the server's
 * clock, never the client's"), team migration 0016, on a real PostgreSQL: seat A, with its own login,
 * through the app's upserts and plain SQL, sends stamps of the year 9999 and 1970, stale stamps and
 * B's seat. Every stamp written is the server's clock and A's seat; a stamp wins A no conflict, and
 * nothing of B's person, fact or member changes. (Deleting facts, claims and video ids: team-attacks.test.ts.)
 */
describeWithPostgres('team people and collection members: a seat\'s stamps are the server\'s, and win it nothing', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  const A = randomUUID();
  const B = randomUUID();
  const personB = randomUUID();
  let clipB = 0;
  const Y9999 = Date.parse('9999-01-01T00:00:00Z');
  const SB = { at: Date.now() - 60_000, by: B };
  const memberB = () => ({ collectionId: 'col-1', region: 'asia', teamClipId: clipB });
  const personOfB = (): TeamPerson => ({ uuid: personB, name: 'Ana', nameAt: SB.at, nameBy: B, hidden: false, hiddenAt: SB.at, hiddenBy: B, merged: null, forgotten: null });
  const factOfB = (): TeamFact => ({ personUuid: personB, clipId: clipB, kind: 'is', timeMs: 1000, frame: 25, x: 100, y: 100, w: 500, h: 500, at: SB.at, seat: B });
  const ofB = async () => ({
    people: (await admin.query('SELECT * FROM team.people WHERE uuid = $1', [personB])).rows,
    facts: (await admin.query('SELECT * FROM team.people_facts WHERE clip_id = $1 ORDER BY id', [clipB])).rows,
    members: (await admin.query('SELECT * FROM team.collection_videos WHERE clip_id = $1 ORDER BY id', [clipB])).rows,
  });
  /** As A, in a transaction rolled back after `check`: what the server made of A's write. */
  const asA = <T>(attempt: (c: pg.Client) => Promise<unknown>, check: () => Promise<T>): Promise<T> => rolledBack(a, attempt, check);
  const within = (t: Date, t0: number, t1: number) => t.getTime() >= t0 && t.getTime() <= t1;

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    a = await cluster.connect((await cluster.addSeat()).config);
    b = await cluster.connect((await cluster.addSeat()).config);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: [] });
    clipB = (await adoptTeamClip(b, { fingerprint: 'b'.repeat(32), sizeBytes: 10, fileName: 'B.mov', seatId: B })).id;
    await upsertTeamPerson(b, personOfB());
    await upsertTeamFact(b, factOfB());
    await publishCollectionMember(b, { ...memberB(), version: { added: SB, removed: null, video: null } });
  }, 120_000);

  afterAll(() => closePg([a, b, admin], cluster));

  it('B\'s own rows carry the server\'s stamps, not the time B sent', async () => {
    const rows = await ofB();
    expect(rows.people[0].name_at.getTime()).toBeGreaterThan(SB.at);
    expect(rows.facts[0].at.getTime()).toBeGreaterThan(SB.at);
    expect(rows.members[0].added_at.getTime()).toBeGreaterThan(SB.at);
  });

  it('stale or forged bases (9999, 1970, the time B sent, just before the held stamp) change nothing of B', async () => {
    const [held] = await readTeamPeople(a, [personB]);
    const [member] = await readCollectionMembersByKey(a, [memberB()]);
    for (const base of [Y9999, 0, SB.at, held!.nameAt - 1]) {
      const before = await ofB();
      const stamp = { at: base, by: B };
      await upsertTeamPerson(a, { ...personOfB(), name: 'Eve', nameAt: base, hidden: true, hiddenAt: base });
      await publishCollectionMember(a, { ...memberB(), version: { added: stamp, removed: stamp, video: null } });
      expect(await ofB(), `base ${new Date(base).toISOString()}`).toEqual(before);
    }
    expect((await readCollectionMembersByKey(a, [memberB()]))[0]).toEqual(member);
  });

  it('A\'s new person, fact and member dated 9999 or 1970, or named as B\'s, get the server\'s time and A\'s seat', async () => {
    for (const at of [Y9999, 0]) {
      const uuid = randomUUID();
      const t0 = await serverNow(admin);
      const rows = await asA(
        async (c) => {
          await upsertTeamPerson(c, { ...personOfB(), uuid, name: 'Eve', nameAt: at, hiddenAt: at, merged: null, forgotten: null });
          await upsertTeamFact(c, { ...factOfB(), personUuid: uuid, at, seat: B });
          await publishCollectionMember(c, { collectionId: 'col-2', region: 'asia', teamClipId: clipB, version: { added: { at, by: B }, removed: null, video: null } });
        },
        async () => ({
          person: (await a.query('SELECT name_at, name_by, hidden_at, hidden_by FROM team.people WHERE uuid = $1', [uuid])).rows[0],
          fact: (await a.query('SELECT at, seat FROM team.people_facts WHERE person_uuid = $1', [uuid])).rows[0],
          member: (await a.query("SELECT added_at, added_by FROM team.collection_videos WHERE collection_id = 'col-2'")).rows[0],
        }),
      );
      const t1 = await serverNow(admin);
      expect([rows.person.name_by, rows.person.hidden_by, rows.fact.seat, rows.member.added_by]).toEqual([A, A, A, A]);
      for (const t of [rows.person.name_at, rows.person.hidden_at, rows.fact.at, rows.member.added_at] as Date[]) expect(within(t, t0, t1), t.toISOString()).toBe(true);
    }
  });

  it('by hand over the version held, an editor\'s right: A\'s, now, whatever A writes in the stamp columns; the first merge and forget stay', async () => {
    const t0 = await serverNow(admin);
    const renamed = await asA(
      (c) => c.query("UPDATE team.people SET name = 'Eve', name_by = $1 WHERE uuid = $2", [B, personB]),
      async () => (await a.query('SELECT name, name_at, name_by FROM team.people WHERE uuid = $1', [personB])).rows[0],
    );
    expect([renamed.name, renamed.name_by, renamed.name_at.getTime() >= t0]).toEqual(['Eve', A, true]);
    const flipped = await asA(
      (c) => c.query("UPDATE team.people_facts SET kind = 'is_not', at = '1970-01-01', seat = $1 WHERE clip_id = $2", [B, clipB]),
      async () => (await a.query('SELECT kind, at, seat FROM team.people_facts WHERE clip_id = $1', [clipB])).rows[0],
    );
    expect([flipped.kind, flipped.seat, within(flipped.at, t0, await serverNow(admin))]).toEqual(['is_not', A, true]);
    const removed = await asA(
      (c) => c.query("UPDATE team.collection_videos SET removed_at = '9999-01-01', removed_by = $1, added_at = added_at WHERE clip_id = $2", [B, clipB]),
      async () => (await a.query('SELECT removed_at, removed_by FROM team.collection_videos WHERE clip_id = $1', [clipB])).rows[0],
    );
    expect([removed.removed_by, within(removed.removed_at, t0, await serverNow(admin))]).toEqual([A, true]);
    const other = randomUUID();
    const merged = await asA(
      async (c) => {
        await c.query("UPDATE team.people SET merged_into = $1, merged_at = '1970-01-01', merged_by = $2 WHERE uuid = $3", [other, B, personB]);
        await c.query("UPDATE team.people SET merged_into = $1, merged_at = '9999-01-01', merged_by = $2 WHERE uuid = $3", [randomUUID(), B, personB]);
        await c.query("UPDATE team.people SET forgotten_at = '9999-01-01', forgotten_by = $1 WHERE uuid = $2", [B, personB]);
      },
      async () => (await a.query('SELECT merged_into, merged_at, merged_by, forgotten_at, forgotten_by FROM team.people WHERE uuid = $1', [personB])).rows[0],
    );
    const t1 = await serverNow(admin);
    expect([merged.merged_into, merged.merged_by, merged.forgotten_by]).toEqual([other, A, A]);
    expect([within(merged.merged_at, t0, t1), within(merged.forgotten_at, t0, t1)]).toEqual([true, true]);
    // a change by hand keeping an older stamp: not taken
    const before = await ofB();
    await a.query("UPDATE team.people SET name = 'Eve', name_at = name_at - interval '1 hour' WHERE uuid = $1", [personB]);
    await a.query("UPDATE team.collection_videos SET removed_at = now(), removed_by = $1, added_at = added_at - interval '1 hour' WHERE clip_id = $2", [A, clipB]);
    expect(await ofB()).toEqual(before);
  });
});
