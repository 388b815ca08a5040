import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { startWebApp, type WebApp } from '../../../../src-main/web/web-app';
import type { TeamActivity, TeamConnectionSettings, TeamStatus } from '../../../../src-shared/contract/team';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

const KEY = 'team-held-key';
const LATEST = readTeamMigrations().at(-1)!.version;

/**
 * A joined seat starts only with a server whose schema is the one its app was written for: after
 * the server was migrated past the app (another seat's newer Reelscout and the administrator's
 * `team:migrate`), the seat works alone, says why, writes nothing to the team; once the server is
 * one it knows again, it joins the work by itself and sends what it did meanwhile.
 */
describeWithPostgres('team library: a seat whose server has another schema version works alone', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  let app: WebApp | undefined;
  const tmp = tempDir('rs-team-held-');
  const dataDir = path.join(tmp.dir, 'data');
  const renderer = path.join(tmp.dir, 'renderer');
  const footage = path.join(tmp.dir, 'footage');

  const admin = async <R,>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const c = await cluster.connect(cluster.adminConfig());
    try {
      return (await c.query(sql, params)).rows as R[];
    } finally {
      await c.end();
    }
  };
  const start = async () => {
    app = await startWebApp({ dataDir, rendererDir: renderer, teamRecheckMs: 1000 });
    return app;
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    emu = await startEmulator({ keys: [KEY] });
    fs.mkdirSync(renderer, { recursive: true });
    fs.mkdirSync(footage);
    fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(footage, 'mdn_flower.mp4'));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await emu?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('holds the seat while the schema is newer than the app, indexes alone meanwhile, and joins the work once it matches', async () => {
    const a = await start();
    const login = await cluster.addSeat();
    const settings: TeamConnectionSettings = login.settings('Bay H');
    await callOk(a.core, 'team.configure', { settings, password: login.password });
    await callOk(a.core, 'settings.update', { baseUrls: { asia: emu.url } });
    await callOk(a.core, 'settings.setApiKey', { key: KEY });
    await a.close();

    // A newer Reelscout's migration, applied by the administrator while this seat was closed.
    await admin("INSERT INTO team.schema_migrations (version, name, sha256) VALUES ($1, 'from a newer app', repeat('0', 64))", [LATEST + 1]);
    const b = await start();
    const activity = () => callOk<TeamActivity>(b.core, 'team.activity');
    for (const t0 = Date.now(); !(await activity()).held && Date.now() - t0 < 20_000; ) await sleep(100);
    expect(await activity()).toMatchObject({ joined: true, online: false, held: expect.stringContaining('update Reelscout') });
    // Settings' "Last check" says the same (the join's green check is not left standing under it).
    const lastCheck = async () => ((await callOk<TeamStatus>(b.core, 'team.status')) as Extract<TeamStatus, { mode: 'configured' }>).lastCheck;
    expect(await lastCheck()).toMatchObject({ ok: false, schemaVersion: null, error: { kind: 'invalid', message: expect.stringContaining('update Reelscout') } });

    // It indexes alone, and nothing of it reaches the team's tables.
    await callOk(b.core, 'library.import', { paths: [footage] });
    for (const t0 = Date.now(); Date.now() - t0 < 120_000; await sleep(300)) {
      if ((b.core.db.prepare('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL').get() as { n: number }).n === 1) break;
    }
    expect((b.core.db.prepare('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL').get() as { n: number }).n).toBe(1);
    expect(await admin('SELECT id FROM team.clips')).toEqual([]);
    expect(await admin('SELECT clip_id FROM team.clip_results')).toEqual([]);

    // The newer migration taken back (the seats are updated or the server restored): the seat joins
    // the work at its next check and publishes the clip it indexed alone.
    await admin('DELETE FROM team.schema_migrations WHERE version = $1', [LATEST + 1]);
    for (const t0 = Date.now(); Date.now() - t0 < 30_000; await sleep(250)) {
      if ((await admin('SELECT clip_id FROM team.clip_results')).length === 1) break;
    }
    expect(await admin('SELECT clip_id FROM team.clip_results')).toHaveLength(1);
    expect(await activity()).toMatchObject({ joined: true, online: true, held: null, indexedHere: 1 });
    expect(await lastCheck()).toMatchObject({ ok: true, schemaVersion: LATEST, error: null });
  }, 240_000);
});
