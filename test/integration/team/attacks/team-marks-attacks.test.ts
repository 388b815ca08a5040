import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RangeState } from '../../../../src-main/core/marks/marks-merge';
import type { Stamp } from '../../../../src-main/core/util/take-field';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { readTeamMarks, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { serverNow, rolledBack } from '../../../helpers/team/pg-seat-attempts';

/**
 * Issue 40's attacks on marks (item 1: "timestamps taken from the server's clock, never the client's"),
 * team migration 0014, on a real PostgreSQL: seat A, with its own login, through the app's upserts and
 * plain SQL, sends stamps of the year 9999 and 1970, stale stamps and B's seat. Every stamp written is
 * the server's clock and A's seat; a stamp wins A no conflict, and nothing of B's marks changes.
 * (Deleting marks and repointing keywords: team-attacks.test.ts.)
 */
describeWithPostgres('team marks: a seat\'s stamps are the server\'s, and win it nothing', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  const A = randomUUID();
  const B = randomUUID();
  const rangeB = randomUUID();
  let clipB = 0;
  const Y9999 = Date.parse('9999-01-01T00:00:00Z');
  const SB: Stamp = { at: Date.now() - 60_000, by: B };
  const rangeOfB = (): RangeState => ({
    id: rangeB,
    clipId: clipB,
    span: { value: { inFrame: 0, outFrame: 50, rateNum: 25, rateDen: 1 }, stamp: SB },
    name: { value: 'B take', stamp: SB },
    note: { value: '', stamp: SB },
    rating: { value: null, stamp: SB },
    created: SB,
    deleted: null,
  });
  const ofB = async () => ({
    ranges: (await admin.query('SELECT * FROM team.ranges WHERE clip_id = $1', [clipB])).rows,
    keywords: (await admin.query('SELECT * FROM team.keywords WHERE clip_id = $1 ORDER BY id', [clipB])).rows,
    marks: (await admin.query('SELECT * FROM team.clip_marks WHERE clip_id = $1', [clipB])).rows,
  });
  /** As A, in a transaction rolled back after `check`: what the server made of A's write. */
  const asA = <T>(attempt: (c: pg.Client) => Promise<unknown>, check: () => Promise<T>): Promise<T> => rolledBack(a, attempt, check);
  const rangeRow = async (id: string) => (await a.query('SELECT name, name_at, name_by, deleted_at, deleted_by FROM team.ranges WHERE id = $1', [id])).rows[0];

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    a = await cluster.connect((await cluster.addSeat()).config);
    b = await cluster.connect((await cluster.addSeat()).config);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: [] });
    clipB = (await adoptTeamClip(b, { fingerprint: 'b'.repeat(32), sizeBytes: 10, fileName: 'B.mov', seatId: B })).id;
    await upsertTeamRange(b, rangeOfB());
    await upsertTeamKeyword(b, { clipId: clipB, rangeId: null, norm: 'beach', display: 'Beach', added: SB, removed: null });
    await upsertTeamClipMark(b, { clipId: clipB, rating: { value: 'favorite', stamp: SB } });
  }, 120_000);

  afterAll(() => closePg([a, b, admin], cluster));

  it('stale or forged bases (9999, 1970, B\'s own stamp as B sent it, just before the held one) change nothing of B', async () => {
    // (A base of the server's stamp or later, up to now, is a change over the version held: what A may do anyway by reading the row first.)
    const held = (await readTeamMarks(a, { rangeIds: [rangeB], keywordIds: [], clipIds: [] })).ranges[0]!.name.stamp.at;
    for (const base of [Y9999, 0, SB.at, held - 1]) {
      const before = await ofB();
      await upsertTeamRange(a, { ...rangeOfB(), name: { value: 'mine forever', stamp: { at: base, by: A } } });
      await upsertTeamClipMark(a, { clipId: clipB, rating: { value: 'reject', stamp: { at: base, by: B } } });
      await upsertTeamKeyword(a, { clipId: clipB, rangeId: null, norm: 'beach', display: 'Beach', added: { at: base, by: B }, removed: { at: base, by: B } });
      expect(await ofB(), `base ${new Date(base).toISOString()}`).toEqual(before);
    }
  });

  it('A\'s new marks dated 9999 or 1970, or named as B\'s, get the server\'s time and A\'s seat', async () => {
    for (const at of [Y9999, 0]) {
      const id = randomUUID();
      const t0 = await serverNow(admin);
      const row = await asA(
        (c) => upsertTeamRange(c, { ...rangeOfB(), id, name: { value: 'new', stamp: { at, by: B } }, created: { at, by: B } }),
        async () => (await a.query('SELECT name_at, name_by, created_at, created_by, span_by FROM team.ranges WHERE id = $1', [id])).rows[0],
      );
      const t1 = await serverNow(admin);
      expect([row.name_by, row.created_by, row.span_by]).toEqual([A, A, A]);
      for (const t of [row.name_at as Date, row.created_at as Date]) {
        expect(t.getTime()).toBeGreaterThanOrEqual(t0);
        expect(t.getTime()).toBeLessThanOrEqual(t1);
      }
    }
  });

  it('a rename or delete by hand over the version held is an editor\'s right: A\'s, now, whatever A writes in the stamp columns', async () => {
    const t0 = await serverNow(admin);
    const renamed = await asA((c) => c.query("UPDATE team.ranges SET name = 'forged', name_by = $1, name_at = name_at WHERE id = $2", [B, rangeB]), () => rangeRow(rangeB));
    expect([renamed.name, renamed.name_by]).toEqual(['forged', A]);
    expect((renamed.name_at as Date).getTime()).toBeGreaterThanOrEqual(t0);
    const deleted = await asA((c) => c.query("UPDATE team.ranges SET deleted_at = '9999-01-01', deleted_by = $1 WHERE id = $2", [B, rangeB]), () => rangeRow(rangeB));
    expect(deleted.deleted_by).toBe(A);
    expect((deleted.deleted_at as Date).getTime()).toBeLessThanOrEqual(await serverNow(admin));
    // a rename keeping an older stamp by hand: not taken
    const before = await ofB();
    await a.query("UPDATE team.ranges SET name = 'forged', name_at = name_at - interval '1 hour' WHERE id = $1", [rangeB]);
    expect(await ofB()).toEqual(before);
  });
});
