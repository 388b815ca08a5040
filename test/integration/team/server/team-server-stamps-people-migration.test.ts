import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { publishCollectionMember, readCollectionMembersByKey } from '../../../../src-main/core/team/server/team-collection-store';
import { readTeamPeople, upsertTeamFact, upsertTeamPerson } from '../../../../src-main/core/team/server/team-people-store';
import { memberPresent } from '../../../../src-main/core/collections/collection-member-merge';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { serverNow } from '../../../helpers/team/pg-seat-attempts';

/**
 * Team migration 0016 (people and collection members stamped by the server's clock) on a team at
 * 0015 whose seats wrote them under the old rule (the editor's clock, the later (time, seat) winning):
 * `team:migrate` moves it with nothing lost, the old stamps stay (in whole milliseconds, so a seat's
 * base meets them; a member whose add and removal share a millisecond keeps its presence), and from
 * then on the new rule holds.
 */
describeWithPostgres('team library: an existing team moves to server-stamped people and collection members with nothing lost', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  // fixed, so that B's id is the larger: under the old rule B's add wins a tie with A's removal
  const A = '00000000-0000-4000-8000-00000000000a';
  const B = '00000000-0000-4000-8000-00000000000b';
  const ana = '10000000-0000-4000-8000-000000000001';
  const byHand = '10000000-0000-4000-8000-000000000002';
  let clip = 0;
  const hourAgo = Date.now() - 3_600_000;
  const key = (collectionId: string) => ({ collectionId, region: 'asia', teamClipId: clip });
  const everything = async () => ({
    people: (await admin.query('SELECT * FROM team.people ORDER BY uuid')).rows,
    facts: (await admin.query('SELECT * FROM team.people_facts ORDER BY id')).rows,
    members: (await admin.query('SELECT id, collection_id, added_at, added_by, removed_at, removed_by, status FROM team.collection_videos ORDER BY id')).rows,
  });
  /** Each member's presence by the old rule (the later (time, seat)) before, by the new (the later time) after. */
  const presence = async (rule: 'old' | 'new') =>
    (
      await admin.query<{ collection_id: string; present: boolean }>(
        rule === 'old'
          ? 'SELECT collection_id, removed_at IS NULL OR (added_at, added_by) > (removed_at, removed_by) AS present FROM team.collection_videos ORDER BY id'
          : 'SELECT collection_id, removed_at IS NULL OR added_at > removed_at AS present FROM team.collection_videos ORDER BY id',
      )
    ).rows;
  const fractions = async () =>
    (await admin.query<{ n: string }>("SELECT (SELECT count(*) FROM team.people WHERE name_at <> date_trunc('milliseconds', name_at)) + (SELECT count(*) FROM team.collection_videos WHERE added_at <> date_trunc('milliseconds', added_at)) AS n")).rows[0]!.n;

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    await migrateTeamSchema(admin, readTeamMigrations().filter((m) => m.version <= 15));
    a = await cluster.connect((await cluster.addSeat()).config);
    b = await cluster.connect((await cluster.addSeat()).config);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: [] });
    clip = (await adoptTeamClip(a, { fingerprint: 'c'.repeat(32), sizeBytes: 1, fileName: 'C.mov', seatId: A })).id;
    // A's naming under the old rule: the editor's own clock, an hour back
    await upsertTeamPerson(a, { uuid: ana, name: 'Ana', nameAt: hourAgo, nameBy: A, hidden: false, hiddenAt: hourAgo, hiddenBy: A, merged: null, forgotten: null });
    await upsertTeamFact(a, { personUuid: ana, clipId: clip, kind: 'is', timeMs: 500, frame: 12, x: 10, y: 20, w: 300, h: 400, at: hourAgo, seat: A });
    await publishCollectionMember(a, { ...key('col-added'), version: { added: { at: hourAgo, by: A }, removed: null, video: null } });
    // by hand, stamped now() (microseconds); and two members whose add and removal share an instant
    await admin.query(
      'INSERT INTO team.people (uuid, name, name_at, name_by, hidden, hidden_at, hidden_by, merged_into, merged_at, merged_by) VALUES ($1, NULL, now(), $2, false, now(), $2, $3, now(), $2)',
      [byHand, A, ana],
    );
    await admin.query(
      `INSERT INTO team.collection_videos (collection_id, region, clip_id, status, added_at, added_by, removed_at, removed_by)
       VALUES ('col-tie-added', 'asia', $1, 'queued', now(), $3, now(), $2), ('col-tie-removed', 'asia', $1, 'queued', now(), $2, now(), $3)`,
      [clip, A, B],
    );
  }, 120_000);

  afterAll(() => closePg([a, b, admin], cluster));

  it('team:migrate applies 0016: every person, fact and member kept with its stamps and presence; then the new rule holds', async () => {
    const before = await everything();
    const presentBefore = await presence('old');
    expect(presentBefore.map((m) => m.present)).toEqual([true, true, false]);
    expect(Number(await fractions())).toBeGreaterThan(0);
    expect((await migrateTeamSchema(admin, readTeamMigrations())).applied).toEqual(readTeamMigrations().filter((m) => m.version >= 16).map((m) => m.version));
    expect(await presence('new')).toEqual(presentBefore);
    expect(await fractions()).toBe('0');
    // read through node-postgres (whole milliseconds) nothing differs but the tied stamp moved a millisecond back
    const after = await everything();
    expect({ ...after, members: after.members.slice(0, 1) }).toEqual({ ...before, members: before.members.slice(0, 1) });
    const ms = (r: Record<string, Date>, c: string) => r[c]!.getTime();
    expect(ms(after.members[1], 'removed_at')).toBe(ms(before.members[1], 'removed_at') - 1);
    expect(ms(after.members[1], 'added_at')).toBe(ms(before.members[1], 'added_at'));
    expect(ms(after.members[2], 'added_at')).toBe(ms(before.members[2], 'added_at') - 1);

    // An edit A had waiting at the upgrade carries its edit time as its base: later than the field's last change, it lands, stamped by the server
    const t0 = await serverNow(admin);
    await upsertTeamPerson(a, { uuid: ana, name: 'Ana', nameAt: hourAgo, nameBy: A, hidden: true, hiddenAt: t0 - 1000, hiddenBy: A, merged: null, forgotten: null });
    let [held] = await readTeamPeople(b, [ana]);
    expect([held!.hidden, held!.hiddenBy, held!.hiddenAt >= t0]).toEqual([true, A, true]);
    // B renames over the version it read and sends a stale hidden flag: the rename lands, the flag does not
    const t1 = await serverNow(admin);
    await upsertTeamPerson(b, { ...held!, name: 'Ana Lima', hidden: false, hiddenAt: held!.hiddenAt - 1 });
    [held] = await readTeamPeople(b, [ana]);
    expect([held!.name, held!.nameBy, held!.nameAt >= t1, held!.hidden]).toEqual(['Ana Lima', B, true, true]);
    // B removes A's member over the add it read: removed, by B, now; A's stale add of the same member changes nothing
    const [member] = await readCollectionMembersByKey(b, [key('col-added')]);
    await publishCollectionMember(b, { ...key('col-added'), version: { added: member!.version.added, removed: member!.version.added, video: null } });
    const [removed] = await readCollectionMembersByKey(b, [key('col-added')]);
    expect([memberPresent(removed!.version), removed!.version.removed?.by, (removed!.version.removed?.at ?? 0) >= t1]).toEqual([false, B, true]);
    await publishCollectionMember(a, { ...key('col-added'), version: { added: { at: hourAgo, by: A }, removed: null, video: null } });
    expect((await readCollectionMembersByKey(b, [key('col-added')]))[0]).toEqual(removed);
  });
});
