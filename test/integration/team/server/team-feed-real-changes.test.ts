import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

const CLIPS = 300;

/**
 * Only real changes write the feed (issue 40, item 3), on a real PostgreSQL: an UPDATE that changes nothing writes no feed row (before team migration 0008 it wrote
 * one per row touched, which this test also measures), and a real change writes one row per row.
 */
describeWithPostgres('team library: the change feed records real changes only', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let seat: pg.Client;
  const A = randomUUID();
  const feedRows = async () => Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM team.changes')).rows[0]!.n);
  /** Feed rows a statement of the seat adds. */
  const rowsWrittenBy = async (sql: string, params: unknown[] = []) => {
    const before = await feedRows();
    await seat.query(sql, params);
    return (await feedRows()) - before;
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    const known = readTeamMigrations();
    // The schema as it was before 0008, where a no-op wrote the feed.
    await migrateTeamSchema(
      admin,
      known.filter((m) => m.version < 8),
    );
    // The feed's triggers, measured with the administrator's statements: since team migration 0011 a
    // seat may not UPDATE team.clips at all (team-attacks.test.ts), the owner's triggers still fire for anyone.
    seat = await cluster.connect(cluster.adminConfig());
    await seat.query("INSERT INTO team.seats (seat_id, name, roots) VALUES ($1, 'Bay A', '{share}')", [A]);
    for (let i = 0; i < CLIPS; i++) await adoptTeamClip(seat, { fingerprint: i.toString(16).padStart(32, '0'), sizeBytes: 1000 + i, fileName: `A${i}.mov`, seatId: A });
  }, 120_000);

  afterAll(async () => {
    await seat?.end();
    await admin?.end();
    await cluster?.stop();
  });

  it('before migration 0008 a no-op UPDATE wrote one feed row per row touched', async () => {
    expect(await rowsWrittenBy('UPDATE team.clips SET file_name = file_name')).toBe(CLIPS);
  });

  it('after it, a no-op UPDATE writes none, on every replicated table; a real change writes one row per changed row', async () => {
    await migrateTeamSchema(admin, readTeamMigrations());
    expect(await rowsWrittenBy('UPDATE team.clips SET file_name = file_name')).toBe(0);
    expect(await rowsWrittenBy('UPDATE team.clips SET size_bytes = size_bytes, created_by = created_by WHERE id % 2 = 0')).toBe(0);
    // A statement that changes some of the rows it touches names exactly those.
    expect(await rowsWrittenBy("UPDATE team.clips SET file_name = CASE WHEN id % 10 = 0 THEN file_name || '.renamed' ELSE file_name END")).toBe(CLIPS / 10);
    const named = (await admin.query<{ row_key: string }>("SELECT row_key FROM team.changes WHERE op = 'UPDATE' ORDER BY id DESC LIMIT $1", [CLIPS / 10])).rows.map((r) => Number(r.row_key));
    expect(named.every((id) => id % 10 === 0)).toBe(true);
    // Every other table the feed carries has its UPDATE trigger rebuilt the same way.
    const triggers = (
      await admin.query<{ tgname: string; old_rows: string | null }>(
        "SELECT tgname, tgoldtable AS old_rows FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'team' AND tgname LIKE '%\\_changes\\_upd' ORDER BY tgname",
      )
    ).rows;
    expect(triggers.length).toBeGreaterThanOrEqual(7);
    expect(triggers.filter((t) => t.old_rows !== 'old_rows').map((t) => t.tgname)).toEqual([]);
  });
});
