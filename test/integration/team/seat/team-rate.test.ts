import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { createServiceClient, type ServiceClient } from '../../../../src-main/core/service/client';
import { resetSharedKeyStates } from '../../../../src-main/core/service/key-state';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { noteTeamRateLimit, teamPauseLeftMs } from '../../../../src-main/core/team/server/team-pace-store';
import { TeamPace } from '../../../../src-main/core/team/seat/team-pace';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { openTestCatalog } from '../../../helpers/catalog/search-catalog';

/**
 * The team-wide rate on the shared key (issue 40, item 4; team migration 0012): two seats, each with
 * its own catalog, its own TeamSeat (pool, LISTEN/NOTIFY, cursor) and its own service emulator (so
 * the two keys' limiters are apart as on two workstations: one process would share one limiter by
 * key), one real PostgreSQL. Seat A is answered 429 with Retry-After; seat B, which heard nothing from
 * its own service, holds its next send until the team's `until`.
 */
const SEAT_A = '00000000-0000-4000-8000-0000000000aa';
const SEAT_B = '00000000-0000-4000-8000-0000000000bb';
const KEY = 'team-rate-shared-key';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  db: CatalogDb;
  link: TeamSeat;
  pace: TeamPace;
  emulator: EmulatorHandle;
  client: ServiceClient;
}

describeWithPostgres('team-wide rate on the shared key, on PostgreSQL', () => {
  const tmp = tempDir('rs-team-rate-');
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: Seat;
  let b: Seat;

  async function until(what: string, done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(20);
    }
  }

  async function seat(seatId: string, name: string): Promise<Seat> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const emulator = await startEmulator({ keys: [KEY] });
    const client = createServiceClient({ region: 'asia', baseUrls: { asia: emulator.url }, apiKey: KEY, authHeader: 'x-api-key', qps: 50, concurrency: 4, timeoutMs: 20_000, retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200 } });
    const login = await cluster.seatLogin(seatId);
    const link = new TeamSeat({ settings: login.settings(`Edit ${name}`), password: login.password, seatId, db, appSchemaVersion: readTeamMigrations().at(-1)!.version });
    const pace = new TeamPace({ link, scheduler: link.scheduler, key: () => client.transport.keyState, logger: silentLogger });
    pace.start();
    link.start();
    return { db, link, pace, emulator, client };
  }

  beforeAll(async () => {
    resetSharedKeyStates();
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    for (const [seatId, name] of [[SEAT_A, 'Edit A'], [SEAT_B, 'Edit B']] as const) {
      const c = await cluster.connectSeat(seatId);
      await joinSeat(c, { seatId, name, roots: [] });
      await c.end();
    }
    a = await seat(SEAT_A, 'a');
    b = await seat(SEAT_B, 'b');
    await until('both seats online', () => a.link.online() && b.link.online());
  });
  afterAll(async () => {
    for (const s of [a, b]) {
      await s?.pace.stop();
      await s?.link.stop();
      s?.db.close();
      await s?.emulator.close();
    }
    await admin?.end();
    await cluster?.stop();
    resetSharedKeyStates();
    tmp.cleanup();
  });

  it('seat A is answered 429 with Retry-After 3 s: seat B holds its next send until the team\'s until, then sends it', async () => {
    a.emulator.admin.failNext({ status: 429, count: 1, endpoint: 'POST /video_embedding/encode_text', retryAfterSeconds: 3 });
    const aCall = a.client.encodeText('shot of the harbour at dawn');
    await until('the team holds its sends (team.rate_pause written by A)', async () => (await admin.query('SELECT 1 FROM team.rate_pause')).rowCount === 1);
    const row = await admin.query<{ until_ms: number; set_by: string }>('SELECT extract(epoch FROM until) * 1000 AS until_ms, set_by FROM team.rate_pause');
    const untilMs = Number(row.rows[0]!.until_ms);
    expect(row.rows[0]!.set_by).toBe((await cluster.seatLogin(SEAT_A)).role); // A's own login, as the server saw it
    await until('B has read the team\'s hold', () => b.client.state().limiter.pausedForMs > 0);

    await b.client.encodeText('a boat leaving the quay');
    const bSends = b.emulator.stats().requestLog.filter((r) => r.endpoint === 'POST /video_embedding/encode_text');
    expect(bSends.map((r) => r.status)).toEqual([200]); // B was never refused: it waited instead
    // Arrival on B's service against the server's until (one machine, one clock; a small allowance for the two clocks' rounding).
    expect(bSends[0]!.t).toBeGreaterThanOrEqual(untilMs - 50);

    await aCall;
    const aSends = a.emulator.stats().requestLog.filter((r) => r.endpoint === 'POST /video_embedding/encode_text');
    expect(aSends.map((r) => r.status)).toEqual([429, 200]);
  }, 30_000);

  it('the server clamps what a seat asks: ten minutes at most, never moved earlier, and a seat cannot write the row itself', async () => {
    const c = await cluster.connectSeat(SEAT_A);
    try {
      const long = await noteTeamRateLimit(c, 3_600_000);
      expect(long).toBeLessThanOrEqual(600_000);
      expect(long).toBeGreaterThan(590_000);
      const shorter = await noteTeamRateLimit(c, 1_000);
      expect(shorter).toBeGreaterThan(590_000); // another seat's 1 s does not cut the team's hold short
      expect(await teamPauseLeftMs(c)).toBeGreaterThan(590_000);
      await expect(c.query("UPDATE team.rate_pause SET until = now() + interval '1 year'")).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('DELETE FROM team.rate_pause')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query("INSERT INTO team.rate_pause (until, set_by, set_at) VALUES (now(), 'x', now())")).rejects.toMatchObject({ code: '42501' });
    } finally {
      await c.end();
    }
  });
});
