import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { teamErrorOf } from '../../../../src-main/core/team/server/pg-errors';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import { TEAM_BOUNDS, utf8Bytes } from '../../../../src-main/core/team/rules/team-bounds';
import type { RangeState } from '../../../../src-main/core/marks/marks-merge';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

const MB = 2 ** 20;
/** The budget's burst (team migration 0009): one statement of more rows can never pass. */
const BURST = 200_000;

/**
 * A feed that stays small (issue 40 item 3), on a real PostgreSQL with each seat's own credentials, as
 * the app connects: the server refuses a text or payload over its size however
 * a seat's role writes it, a migration over a team that already holds oversized rows cuts them, and a
 * seat writing beyond its budget is refused with RS429 while another seat's rows and writes are untouched.
 */
describeWithPostgres('team library: sizes and each seat\'s write rate checked by the server', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  const A = randomUUID();
  const B = randomUUID();
  let clipA = 0;
  let clipB = 0;
  const target = { host: '127.0.0.1', port: 0, database: 'team', user: 'reelscout_seat' };

  const range = (clipId: number, seat: string, note: string): RangeState => {
    const s = { at: Date.now(), by: seat };
    return { id: randomUUID(), clipId, span: { value: { inFrame: 0, outFrame: 10, rateNum: 25, rateDen: 1 }, stamp: s }, name: { value: 'take', stamp: s }, note: { value: note, stamp: s }, rating: { value: null, stamp: s }, created: s, deleted: null };
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    // The team as it was before 0009, with a name of 2 MB already written by hand.
    const known = readTeamMigrations();
    await migrateTeamSchema(admin, known.filter((m) => m.version < 9));
    // Written as the administrator: seats have their own logins only from migration 0011 on.
    await admin.query("INSERT INTO team.seats (seat_id, name) VALUES ($1, 'Bay A'), ($2, 'Bay B')", [A, B]);
    await admin.query("INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, 1, $2, $3)", ['f'.repeat(32), 'é'.repeat(MB), A]);
    await migrateTeamSchema(admin, known);
    a = await cluster.connectSeat(A);
    b = await cluster.connectSeat(B);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: [] });
    clipA = (await adoptTeamClip(a, { fingerprint: 'a'.repeat(32), sizeBytes: 1, fileName: 'A.mov', seatId: A })).id;
    clipB = (await adoptTeamClip(b, { fingerprint: 'b'.repeat(32), sizeBytes: 1, fileName: 'B.mov', seatId: B })).id;
  }, 120_000);

  afterAll(async () => {
    for (const c of [a, b, admin]) await c?.end();
    await cluster?.stop();
  });

  it('the migration cuts a name already over its bound instead of failing', async () => {
    const name = (await admin.query<{ file_name: string }>('SELECT file_name FROM team.clips WHERE fingerprint = $1', ['f'.repeat(32)])).rows[0]!.file_name;
    expect(name).toBe('é'.repeat(255));
  });

  it('a 50 MB file_name and a 2 MB note written by hand are refused (23514); the seat\'s own writers cut them to fit', async () => {
    const huge = 'x'.repeat(50 * MB);
    await expect(a.query('INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, 1, $2, $3)', ['c'.repeat(32), huge, A])).rejects.toMatchObject({ code: '23514' });
    // Renaming a clip is no seat's to do at all since team migration 0011.
    await expect(a.query('UPDATE team.clips SET file_name = $1 WHERE id = $2', [huge, clipA])).rejects.toMatchObject({ code: '42501' });
    const note = 'n'.repeat(2 * MB);
    const r = range(clipA, A, note);
    await expect(
      a.query(
        `INSERT INTO team.ranges (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by, rating_at, rating_by, created_at, created_by)
         VALUES ($1, $2, 0, 10, 25, 1, now(), $3, 'take', now(), $3, $4, now(), $3, now(), $3, now(), $3)`,
        [r.id, clipA, A, note],
      ),
    ).rejects.toMatchObject({ code: '23514' });
    // Through the app's stores nothing is refused: the hint and the note arrive cut to the bound.
    const made = await adoptTeamClip(a, { fingerprint: 'd'.repeat(32), sizeBytes: 1, fileName: huge, seatId: A });
    await upsertTeamRange(a, r);
    const kept = (await admin.query<{ file_name: string }>('SELECT file_name FROM team.clips WHERE id = $1', [made.id])).rows[0]!.file_name;
    expect(utf8Bytes(kept)).toBe(TEAM_BOUNDS.fileName);
    const keptNote = (await admin.query<{ n: number }>('SELECT octet_length(note) AS n FROM team.ranges WHERE id = $1', [r.id])).rows[0]!.n;
    expect(keptNote).toBe(TEAM_BOUNDS.rangeNote);
  });

  it('a burst beyond a seat\'s budget is refused with RS429 and written nowhere; the other seat\'s rows and writes are untouched', async () => {
    const rB = range(clipB, B, 'B\'s note');
    await upsertTeamRange(b, rB);
    const ofB = async () =>
      (await admin.query('SELECT c.*, r.note, r.name FROM team.clips c LEFT JOIN team.ranges r ON r.clip_id = c.id WHERE c.created_by = $1 ORDER BY c.id', [B])).rows;
    const before = await ofB();

    // Normal work spends the budget and passes: the seat's bucket holds what it wrote less.
    await a.query("INSERT INTO team.jobs (clip_id, stage) SELECT NULL, 'work-' || g FROM generate_series(1, 1000) g");
    const tokens = Number((await admin.query<{ t: number }>('SELECT tokens AS t FROM team.write_budgets WHERE bucket = $1', [`seat:${A}`])).rows[0]!.t);
    expect(tokens).toBeLessThanOrEqual(BURST - 1000);

    // One statement of more rows than the burst: refused, rolled back, said as the app's retryable kind.
    const burst = a.query("INSERT INTO team.jobs (clip_id, stage) SELECT NULL, 'burst-' || g FROM generate_series(1, $1::int) g", [BURST + 1]);
    const refused = await burst.then(
      () => null,
      (e: unknown) => e as { code?: string; message?: string; hint?: string },
    );
    expect(refused).toMatchObject({ code: 'RS429', message: expect.stringContaining('team write budget spent'), hint: expect.stringMatching(/^retry after \d+ ms$/) });
    expect(teamErrorOf(refused, target)).toMatchObject({ kind: 'rate_limit', retryAfterMs: expect.any(Number) });
    expect(Number((await admin.query<{ n: string }>("SELECT count(*) AS n FROM team.jobs WHERE stage LIKE 'burst-%'")).rows[0]!.n)).toBe(0);

    // B's rows are as they were, and B's budget is its own: B writes at once.
    expect(await ofB()).toEqual(before);
    await b.query("INSERT INTO team.jobs (clip_id, stage) SELECT NULL, 'b-work-' || g FROM generate_series(1, 1000) g");
    const noteAt = (await admin.query<{ t: Date }>('SELECT note_at AS t FROM team.ranges WHERE id = $1', [rB.id])).rows[0]!.t.getTime();
    await upsertTeamRange(b, { ...rB, note: { value: 'B again', stamp: { at: noteAt, by: B } } });
    expect((await admin.query<{ note: string }>('SELECT note FROM team.ranges WHERE id = $1', [rB.id])).rows[0]!.note).toBe('B again');
    // A's refused statement cost it nothing: a normal write of A's passes straight after.
    await upsertTeamRange(a, range(clipA, A, 'A goes on'));
  }, 120_000);
});
