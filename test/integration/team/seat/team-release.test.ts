import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WebApp } from '../../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../../emulator/server';
import { callOk } from '../../../helpers/app/app-call';
import { mediaFile, tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { joinedWebApps } from '../../../helpers/team/team-web-apps';

const KEY = 'team-release-key';
/** One clip the user cancels on the seat that holds it, one they pause there. */
const CANCELLED = 'mdn_flower.mp4';
const PAUSED = 'mdn_friday.mp4';
/**
 * Leases far longer than the test: neither the holder's renewal (every third of it) nor the lease's
 * expiry can hand a clip over while it runs, only the release made when the work stops.
 */
const LEASE_MS = 600_000;

/**
 * Two seats of one team (two app cores in this process, one PostgreSQL, one service): seat A holds
 * two clips (the service takes ten minutes over their tasks, so A keeps them) and B waits for them;
 * the user cancels one on A and pauses the other. A gives both back to the team at once and B claims
 * them long before A's leases would have run out.
 */
describeWithPostgres('team library: a clip stopped on the seat that holds it goes to another seat at once', () => {
  let cluster: PgCluster;
  let emu: EmulatorHandle;
  let admin: pg.Client;
  const apps: WebApp[] = [];
  const tmp = tempDir('rs-team-release-');

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    await cluster.setLeaseLength(LEASE_MS / 1000);
    admin = await cluster.connect(cluster.adminConfig());
    emu = await startEmulator({ keys: [KEY], taskIds: 'upload-request-id', asyncProcessingMs: 600_000 });
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    for (const c of [CANCELLED, PAUSED]) fs.copyFileSync(mediaFile(c), path.join(footage, c));
    apps.push(...(await joinedWebApps({ dir: tmp.dir, names: ['A', 'B'], cluster, emulatorUrl: emu.url, apiKey: KEY, footage, teamLeaseMs: LEASE_MS })).apps);
  }, 120_000);

  afterAll(async () => {
    for (const a of apps) await a.close();
    await emu?.close();
    await admin?.end();
    await cluster?.stop();
    tmp.cleanup();
  });

  /** Waits until `done()` resolves true, or fails after `ms` saying what it waited for (a bound, not a timing assertion). */
  async function until(what: string, done: () => boolean | Promise<boolean>, ms: number): Promise<void> {
    for (const t0 = Date.now(); !(await done()); await sleep(200)) if (Date.now() - t0 > ms) throw new Error(`waited ${ms} ms for: ${what}`);
  }

  /** The team's analysis job of each clip, by file name. */
  async function teamJobs(): Promise<Map<string, { holder: string | null; lease_token: string; recoveries: number; last_error_kind: string | null; lease_expires_at: Date | null; updated_at: Date }>> {
    const { rows } = await admin.query(
      `SELECT c.file_name, s.name AS holder, j.lease_token, j.recoveries, j.last_error_kind, j.lease_expires_at, j.updated_at
         FROM team.jobs j JOIN team.clips c ON c.id = j.clip_id LEFT JOIN team.seats s ON s.seat_id = j.lease_owner
        WHERE j.stage = 'analysis'`,
    );
    return new Map(rows.map((r) => [r.file_name as string, r]));
  }
  const localClip = (app: WebApp, name: string) => (app.core.db.prepare('SELECT id FROM clips WHERE file_name = ?').get(name) as { id: number }).id;

  it('cancelled and paused on A: both leases go back to the team at once, and B claims them', async () => {
    const [a, b] = [apps[0]!, apps[1]!];
    await callOk(a.core, 'library.import', { paths: [path.join(tmp.dir, 'mount-A')] });
    await until('A holding both clips', async () => [...(await teamJobs()).values()].filter((j) => j.holder === 'Bay A').length === 2, 120_000);

    await callOk(b.core, 'library.import', { paths: [path.join(tmp.dir, 'mount-B')] });
    const waitingOnB = () =>
      (b.core.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'analysis' AND state = 'queued' AND note LIKE '%being indexed by Bay A%'").get() as { n: number }).n;
    await until("B's two clips waiting for A", () => waitingOnB() === 2, 120_000);
    const held = await teamJobs();

    await callOk(a.core, 'jobs.cancel', { clipId: localClip(a, CANCELLED) });
    await callOk(a.core, 'jobs.pause', { clipId: localClip(a, PAUSED) });
    await until('B holding both clips', async () => [...(await teamJobs()).values()].filter((j) => j.holder === 'Bay B').length === 2, 60_000);

    const taken = await teamJobs();
    for (const name of [CANCELLED, PAUSED]) {
      const before = held.get(name)!;
      const after = taken.get(name)!;
      // Given back by A (a release says why), not reaped after an expiry (that counts a recovery).
      expect(after).toMatchObject({ holder: 'Bay B', lease_token: String(Number(before.lease_token) + 1), recoveries: 0, last_error_kind: 'cancelled' });
      // B's claim, by the server's clock, came while A's lease still ran.
      expect(after.updated_at.getTime()).toBeLessThan(before.lease_expires_at!.getTime());
    }
    expect(emu.stats().duplicateTaskSubmissions).toBe(0);
  }, 300_000);
});
