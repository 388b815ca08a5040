import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { readTeamMarksOfClips, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import type { RangeState } from '../../../../src-main/core/marks/marks-merge';
import type { Stamp } from '../../../../src-main/core/util/take-field';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { serverNow } from '../../../helpers/team/pg-seat-attempts';

/**
 * Team migration 0014 (marks stamped by the server's clock) on a team at 0013 whose seats wrote marks
 * under the old rule (the editor's clock): `team:migrate` moves it with nothing lost, the old stamps
 * stay (in whole milliseconds, so a seat's base meets them), and from then on the new rule holds.
 */
describeWithPostgres('team library: an existing team moves to server-stamped marks with nothing lost', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  const A = randomUUID();
  const B = randomUUID();
  let clip = 0;
  const byHand = randomUUID();
  const everything = async () => ({
    ranges: (await admin.query('SELECT * FROM team.ranges ORDER BY id')).rows,
    keywords: (await admin.query('SELECT * FROM team.keywords ORDER BY id')).rows,
    marks: (await admin.query('SELECT * FROM team.clip_marks ORDER BY clip_id')).rows,
  });
  const micros = async () => (await admin.query<{ n: string }>("SELECT count(*) AS n FROM team.ranges WHERE name_at <> date_trunc('milliseconds', name_at)")).rows[0]!.n;

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    await migrateTeamSchema(admin, readTeamMigrations().filter((m) => m.version <= 13));
    a = await cluster.connect((await cluster.addSeat()).config);
    b = await cluster.connect((await cluster.addSeat()).config);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: [] });
    clip = (await adoptTeamClip(a, { fingerprint: 'c'.repeat(32), sizeBytes: 1, fileName: 'C.mov', seatId: A })).id;
    // A's marks under the old rule: the editor's own clock, an hour back
    const s: Stamp = { at: Date.now() - 3_600_000, by: A };
    const range: RangeState = {
      id: randomUUID(),
      clipId: clip,
      span: { value: { inFrame: 0, outFrame: 25, rateNum: 25, rateDen: 1 }, stamp: s },
      name: { value: 'take 1', stamp: s },
      note: { value: 'old note', stamp: s },
      rating: { value: 'favorite', stamp: s },
      created: s,
      deleted: null,
    };
    await upsertTeamRange(a, range);
    await upsertTeamKeyword(a, { clipId: clip, rangeId: range.id, norm: 'dusk', display: 'Dusk', added: s, removed: null });
    await upsertTeamClipMark(a, { clipId: clip, rating: { value: 'reject', stamp: s } });
    // and a range the administrator wrote by hand, stamped now() (microseconds)
    await admin.query(
      `INSERT INTO team.ranges (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by, rating_at, rating_by, created_at, created_by)
       VALUES ($1, $2, 0, 25, 25, 1, now(), $3, 'by hand', now(), $3, '', now(), $3, now(), $3, now(), $3)`,
      [byHand, clip, A],
    );
  }, 120_000);

  afterAll(() => closePg([a, b, admin], cluster));

  it('team:migrate applies 0014: every mark and stamp kept; then a change over the held stamp lands by the server\'s clock and a stale one does not', async () => {
    const before = await everything();
    expect(before.ranges).toHaveLength(2);
    expect(await micros()).toBe('1');
    expect((await migrateTeamSchema(admin, readTeamMigrations())).applied).toEqual(readTeamMigrations().filter((m) => m.version >= 14).map((m) => m.version));
    // read through node-postgres (whole milliseconds) nothing differs, and no stamp keeps a fraction of one
    expect(await everything()).toEqual(before);
    expect(await micros()).toBe('0');

    // An edit A had waiting at the upgrade carries its edit time as the base (the old rule's stamp): later
    // than the field's last change, it lands, stamped by the server
    const waiting = (await readTeamMarksOfClips(a, [clip])).ranges.find((r) => r.id !== byHand)!;
    const t = await serverNow(admin);
    await upsertTeamRange(a, { ...waiting, rating: { value: 'reject', stamp: { at: t - 1000, by: A } } });
    const landed = (await readTeamMarksOfClips(a, [clip])).ranges.find((r) => r.id === waiting.id)!.rating;
    expect([landed.value, landed.stamp.by, landed.stamp.at >= t]).toEqual(['reject', A, true]);

    // B renames both ranges over the versions it reads, and sends a stale note for A's: the renames land, the note does not
    const held = await readTeamMarksOfClips(b, [clip]);
    const t0 = await serverNow(admin);
    for (const r of held.ranges) await upsertTeamRange(b, { ...r, name: { value: `${r.name.value}, renamed`, stamp: r.name.stamp }, note: { value: 'stale', stamp: { at: r.note.stamp.at - 1, by: B } } });
    const after = await readTeamMarksOfClips(b, [clip]);
    for (const r of after.ranges) {
      const was = held.ranges.find((x) => x.id === r.id)!;
      expect(r.name.value).toBe(`${was.name.value}, renamed`);
      expect(r.name.stamp.by).toBe(B);
      expect(r.name.stamp.at).toBeGreaterThanOrEqual(t0);
      expect(r.note).toEqual(was.note);
    }
    expect(after.keywords).toEqual(held.keywords);
    expect(after.ranges.find((r) => r.id === waiting.id)!.rating).toEqual(landed);
    expect(after.clipMarks).toEqual(held.clipMarks);
  });
});
