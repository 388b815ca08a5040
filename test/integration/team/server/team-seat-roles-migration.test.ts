import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateTeamSchema, readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { addSeatLogin } from '../../../../src-main/core/team/server/seat-login-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { upsertTeamRange } from '../../../../src-main/core/team/server/team-marks-store';
import { describeWithPostgres, startPgCluster, TEAM_DATABASE, type PgCluster } from '../../../helpers/team/pg-cluster';
import { REPO_ROOT } from '../../../helpers/paths';

/**
 * The one step of README "Team library" that moves a team from the shared role `reelscout_seat` to a
 * role per seat (issue 40 item 1), on a real PostgreSQL: a team at migration 0010 whose seats wrote
 * through the shared login; the administrator runs the set-up script again, the migrations (0011) and
 * `team:seat add` per seat. Nothing the seats wrote is lost, each seat joins again as itself with its
 * own login, and the shared login stops working, an open session of it included.
 */
describeWithPostgres('team library: an existing team moves to a role per seat in one step', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let old: pg.Client;
  const A = randomUUID();
  const sharedPassword = randomBytes(18).toString('base64url');
  const sharedConfig = () => ({ host: '127.0.0.1', port: cluster.port, user: 'reelscout_seat', password: sharedPassword, database: TEAM_DATABASE });
  const everything = async () => ({
    seats: (await admin.query('SELECT seat_id, name FROM team.seats ORDER BY seat_id')).rows,
    clips: (await admin.query('SELECT * FROM team.clips ORDER BY id')).rows,
    jobs: (await admin.query('SELECT id, clip_id, stage, state, lease_owner, lease_token FROM team.jobs ORDER BY id')).rows,
    ranges: (await admin.query('SELECT * FROM team.ranges ORDER BY id')).rows,
  });

  beforeAll(async () => {
    cluster = await startPgCluster();
    admin = await cluster.connect(cluster.adminConfig());
    // The team as it was: migrations up to 0010, one shared login with a password, what the old set-up
    // script and README step 2 gave it (CONNECT, USAGE on the schema, LOGIN).
    await migrateTeamSchema(admin, readTeamMigrations().filter((m) => m.version <= 10));
    await admin.query(`GRANT CONNECT ON DATABASE ${TEAM_DATABASE} TO reelscout_seat; GRANT USAGE ON SCHEMA team TO reelscout_seat`);
    await admin.query("SELECT set_config('reelscout.shared_password', $1, false)", [sharedPassword]);
    await admin.query("DO $$ BEGIN EXECUTE format('ALTER ROLE reelscout_seat LOGIN PASSWORD %L', current_setting('reelscout.shared_password')); END $$");
    old = await cluster.connect({ ...sharedConfig(), options: `-c reelscout.seat_id=${A}` });
    await old.query("INSERT INTO team.seats (seat_id, name) VALUES ($1, 'Bay A')", [A]);
    const clip = (await old.query<{ id: string }>("INSERT INTO team.clips (fingerprint, size_bytes, file_name, created_by) VALUES ($1, 1, 'A001.mov', $2) RETURNING id", ['a'.repeat(32), A])).rows[0]!.id;
    await old.query("INSERT INTO team.jobs (clip_id, stage) VALUES ($1, 'analysis')", [clip]);
    await old.query(
      `INSERT INTO team.ranges (id, clip_id, in_frame, out_frame, rate_num, rate_den, span_at, span_by, name, name_at, name_by, note, note_at, note_by, rating_at, rating_by, created_at, created_by)
       VALUES ($1, $2, 0, 25, 25, 1, now(), $3, 'take 1', now(), $3, '', now(), $3, now(), $3, now(), $3)`,
      [randomUUID(), clip, A],
    );
  }, 120_000);

  afterAll(async () => {
    await old?.end().catch(() => undefined);
    await admin?.end();
    await cluster?.stop();
  });

  it('set-up script, team:migrate, team:seat add: nothing lost, the seat joins as itself, the shared login is refused', async () => {
    const before = await everything();
    await admin.query(fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'team-server-setup.sql'), 'utf8'));
    expect((await migrateTeamSchema(admin, readTeamMigrations())).applied).toEqual(readTeamMigrations().filter((m) => m.version > 10).map((m) => m.version));
    const login = await addSeatLogin(admin, { name: 'bay_a' });
    expect(await everything()).toEqual(before);

    // The shared login is refused from the first step on; a session of it still open may write nothing.
    await expect(cluster.connect(sharedConfig())).rejects.toThrow(/not permitted to log in/);
    await expect(old.query("UPDATE team.seats SET name = 'still here' WHERE seat_id = $1", [A])).rejects.toThrow(/permission denied/);
    await expect(old.query('SELECT count(*) FROM team.clips')).rejects.toThrow(/permission denied/);

    // The seat, on its own login and the id it has always had: bound at its first join, its rows its own.
    const a = await cluster.connect({ host: '127.0.0.1', port: cluster.port, user: login.role, password: login.password, database: TEAM_DATABASE });
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: [] });
    expect((await admin.query('SELECT seat_id FROM team.seat_logins WHERE role_name = $1', [login.role])).rows).toEqual([{ seat_id: A }]);
    const range = (await admin.query('SELECT id, clip_id, span_at, name_at FROM team.ranges')).rows[0]!;
    // over the name's stamp as the seat reads it (team migration 0014: a change lands only over the version the server holds)
    const s = { at: range.name_at.getTime(), by: A };
    await upsertTeamRange(a, {
      id: range.id,
      clipId: Number(range.clip_id),
      span: { value: { inFrame: 0, outFrame: 25, rateNum: 25, rateDen: 1 }, stamp: { at: range.span_at.getTime(), by: A } },
      name: { value: 'take 1, renamed', stamp: s },
      note: { value: '', stamp: { at: 0, by: A } },
      rating: { value: null, stamp: { at: 0, by: A } },
      created: { at: range.span_at.getTime(), by: A },
      deleted: null,
    });
    expect((await admin.query('SELECT name FROM team.ranges')).rows).toEqual([{ name: 'take 1, renamed' }]);
    await a.end();
  });
});
