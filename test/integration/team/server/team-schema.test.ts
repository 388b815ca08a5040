import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { MIGRATION_LOCK_KEY } from '../../../../src-main/core/team/server/migration-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { lookAtClipJob } from '../../../../src-main/core/team/server/team-job-store';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

/**
 * The team schema on a real PostgreSQL: numbered migrations applied once however many seats start
 * together, and the seat role limited to the app's work (docs/notes-team-library.md section 9).
 */
describeWithPostgres('team schema on PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('two seats migrating at once apply each migration once; a later start applies nothing', async () => {
    const known = readTeamMigrations();
    // A third session holds the runner's lock, so both runners are waiting when it is let go: they race for real.
    const holder = await cluster.connect(cluster.adminConfig());
    await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    const [a, b] = [await cluster.connect(cluster.adminConfig()), await cluster.connect(cluster.adminConfig())];
    const runs = Promise.all([migrateTeamSchema(a, known), migrateTeamSchema(b, known)]);
    await new Promise((r) => setTimeout(r, 200));
    await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
    const [ra, rb] = await runs;

    const all = known.map((m) => m.version);
    expect([ra.applied, rb.applied].sort((x, y) => y.length - x.length)).toEqual([all, []]);
    const rows = (await holder.query<{ version: number; n: string }>('SELECT version, count(*) AS n FROM team.schema_migrations GROUP BY version ORDER BY version')).rows;
    expect(rows).toEqual(all.map((v) => ({ version: v, n: '1' })));
    expect((await migrateTeamSchema(a, known)).applied).toEqual([]);
    // Objects belong to the owner role, not to whoever ran the migration.
    const owners = (await holder.query<{ owner: string }>("SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'team'")).rows;
    expect(owners).toEqual([{ owner: 'reelscout_owner' }]);
    await Promise.all([a.end(), b.end(), holder.end()]);
  });

  it("a seat's connection cannot migrate, and says so; a database the administrator has not prepared is named as such", async () => {
    const seat = await cluster.connectSeat('00000000-0000-4000-8000-000000000009');
    await expect(migrateTeamSchema(seat, readTeamMigrations())).rejects.toMatchObject({ kind: 'auth', message: expect.stringContaining("administrator's connection") });
    await seat.end();
    const admin = await cluster.connect(cluster.adminConfig());
    await admin.query('CREATE DATABASE unprepared');
    const bare = await cluster.connect(cluster.adminConfig('unprepared'));
    // Roles are the cluster's, so this database has reelscout_owner; its schema `team` is what is missing.
    await expect(migrateTeamSchema(bare, readTeamMigrations())).rejects.toMatchObject({ kind: 'invalid', message: expect.stringContaining('team-server-setup.sql') });
    await Promise.all([bare.end(), admin.end()]);
  });

  it('a migration file changed after the server applied it is refused', async () => {
    const known = readTeamMigrations();
    const edited = known.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited`, sha256: '0'.repeat(64) } : m));
    const c = await cluster.connect(cluster.adminConfig());
    await expect(migrateTeamSchema(c, edited)).rejects.toMatchObject({ kind: 'damaged' });
    // ...and the lock went with the failure: the next runner is not stuck behind it.
    expect((await migrateTeamSchema(c, known)).applied).toEqual([]);
    await c.end();
  });

  it('the seat role does the app work and nothing else: no DROP, ALTER, TRUNCATE, DELETE of clips, DDL or forged changes', async () => {
    const seatId = '00000000-0000-4000-8000-000000000001';
    const seat = await cluster.connectSeat(seatId);
    await joinSeat(seat, { seatId, name: 'Edit 1', roots: ['nas-footage'] });
    const clip = await adoptTeamClip(seat, { fingerprint: 'a'.repeat(64), sizeBytes: 10, fileName: 'A001.mov', seatId });
    expect(await lookAtClipJob(seat, { seat: seatId, clipId: clip.id, stage: 'analysis', profileId: 'p', leaseMs: 30_000 })).toMatchObject({
      kind: 'claimed',
      job: { clipId: clip.id, stage: 'analysis', token: 1 },
    });
    const channel = (await seat.query<{ channel: string }>('SELECT team.seat_feed_channel() AS channel')).rows[0]!.channel;
    await seat.query(`LISTEN ${channel}`);

    const refused = async (sql: string) => {
      const e = await seat.query(sql).then(
        () => null,
        (err: unknown) => err as pg.DatabaseError,
      );
      return e?.code ?? 'allowed';
    };
    const insufficient = '42501';
    for (const sql of [
      'DROP SCHEMA team CASCADE',
      'DROP TABLE team.clips',
      'ALTER SCHEMA team RENAME TO t2',
      'ALTER TABLE team.clips ADD COLUMN x int',
      'ALTER TABLE team.jobs DISABLE TRIGGER ALL',
      'TRUNCATE team.jobs',
      'DELETE FROM team.clips',
      'CREATE TABLE team.x (a int)',
      'CREATE TABLE public.x (a int)',
      'CREATE TEMP TABLE x (a int)',
      'CREATE SCHEMA s2',
      "INSERT INTO team.changes (table_name, row_key, op) VALUES ('clips', '1', 'DELETE')",
      "UPDATE team.schema_migrations SET sha256 = 'x'",
    ]) {
      expect(await refused(sql), sql).toBe(insufficient);
    }
    await seat.end();
  });
});
