import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TeamChangeListener, type TeamWake } from '../../../../src-main/core/team/seat/change-listener';
import { endStallingSessions, joinSeat, reportFeedRead } from '../../../../src-main/core/team/server/seat-store';
import { currentTeamCursor } from '../../../../src-main/core/team/server/change-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { lookAtClipJob, renewTeamLeases, type ClaimedTeamJob } from '../../../../src-main/core/team/server/team-job-store';
import { closePg, describeWithPostgres, startPgCluster, type PgCluster, type SeatLogin } from '../../../helpers/team/pg-cluster';

const STAGE = 'analysis' as const;
const PROFILE = 'default';
const LEASE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a seat could still do to the others with its own login after team migrations 0011-0016, and
 * what 0017 does about each (issue 40, items 1, 3 and 6), on a real PostgreSQL set up as the README
 * says: holding another seat's lease renewal behind a row lock, moving its read position back so the
 * feed is never pruned, waking the other seats on the team's channel, and leasing for 15 minutes.
 */
describeWithPostgres('team library: a seat with its own credentials cannot hold the others up', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let a: pg.Client;
  let b: pg.Client;
  let loginA: SeatLogin;
  let loginB: SeatLogin;
  const A = randomUUID();
  const B = randomUUID();
  let jobB: ClaimedTeamJob;

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    loginA = await cluster.addSeat();
    loginB = await cluster.addSeat();
    a = await cluster.connect(loginA.config);
    b = await cluster.connect(loginB.config);
    await joinSeat(a, { seatId: A, name: 'Bay A', roots: ['share'] });
    await joinSeat(b, { seatId: B, name: 'Bay B', roots: ['share'] });
    const clipB = (await adoptTeamClip(b, { fingerprint: 'b'.repeat(32), sizeBytes: 10, fileName: 'B.mov', seatId: B })).id;
    const look = await lookAtClipJob(b, { seat: B, clipId: clipB, stage: STAGE, profileId: PROFILE, leaseMs: LEASE_MS });
    if (look.kind !== 'claimed') throw new Error(`B could not claim its clip: ${look.kind}`);
    jobB = look.job;
  });
  afterAll(() => closePg([a, b, admin], cluster));

  it("A locks B's job row and stays in its transaction, its statement timeout raised on its own role: B's renewal waits until a seat's reaper round ends A's session, then goes through", async () => {
    // what a seat may set for itself (PostgreSQL lets any role ALTER ROLE itself SET); it protects no one now
    await a.query(`ALTER ROLE ${loginA.role} SET statement_timeout = 0`);
    await a.query('SET idle_in_transaction_session_timeout = 0');
    await a.query('BEGIN');
    await a.query('SELECT id FROM team.jobs FOR UPDATE');
    let aEnded: Error | null = null;
    a.on('error', (e) => (aEnded = e));

    const renewal = renewTeamLeases(b, B, [jobB], LEASE_MS);
    let renewed: number[] | null = null;
    void renewal.then((ids) => (renewed = ids));
    // a third session (a seat's reaper) before the wait has lasted 10 s: nobody is ended yet
    const reaper = await cluster.connect(loginB.config);
    expect(await endStallingSessions(reaper)).toBe(0);
    expect(renewed).toBeNull();
    await sleep(10_500);
    expect(await endStallingSessions(reaper)).toBe(1);
    expect(await renewal).toEqual([jobB.id]);
    await expect(a.query('SELECT 1')).rejects.toThrow(/terminat|Connection terminated|not queryable/i);
    expect(aEnded).not.toBeNull();
    await reaper.end();
    a = await cluster.connect(loginA.config);
  }, 30_000);

  it("A moves its feed read position back to the beginning: the server keeps it where it was, so the feed is still pruned past it", async () => {
    await reportFeedRead(a, A, await currentTeamCursor(a));
    const readTo = async () => (await admin.query<{ to: string }>('SELECT feed_read_to::text AS to FROM team.seats WHERE seat_id = $1', [A])).rows[0]!.to;
    const held = await readTo();
    await a.query("UPDATE team.seats SET feed_read_to = '1'::xid8, feed_read_at = now() WHERE seat_id = $1", [A]);
    expect(await readTo()).toBe(held);
  });

  it("A cannot learn B's channel, and neither the team's old channel nor its own wakes B; a real change does", async () => {
    await expect(a.query('SELECT channel FROM team.seat_channels')).rejects.toThrow(/permission denied for table seat_channels/);
    const wakes: TeamWake[] = [];
    const listener = new TeamChangeListener({ newClient: () => new pg.Client(loginB.config), onWake: (w) => wakes.push(w) });
    listener.start();
    try {
      for (let i = 0; i < 200 && wakes.length === 0; i++) await sleep(25);
      expect(wakes).toEqual([{ reason: 'connected' }]);
      const own = (await a.query<{ channel: string }>('SELECT team.seat_feed_channel() AS channel')).rows[0]!.channel;
      await a.query("NOTIFY team_changes, 'ranges'");
      await a.query(`NOTIFY ${own}, 'ranges'`);
      await sleep(500);
      expect(wakes).toEqual([{ reason: 'connected' }]);
      // a real change (A's own clip) wakes B on B's channel
      await adoptTeamClip(a, { fingerprint: 'a'.repeat(32), sizeBytes: 11, fileName: 'A.mov', seatId: A });
      for (let i = 0; i < 200 && wakes.length === 1; i++) await sleep(25);
      expect(wakes[1]).toEqual({ reason: 'notified', table: 'clips' });
    } finally {
      await listener.stop();
    }
  });

  it("A's lease runs at most the team's lease length (30 s, what the app asks), not 15 minutes; the administrator may raise it", async () => {
    const clipA = (await adoptTeamClip(a, { fingerprint: 'c'.repeat(32), sizeBytes: 12, fileName: 'C.mov', seatId: A })).id;
    const ask = (ms: number) => lookAtClipJob(a, { seat: A, clipId: clipA, stage: STAGE, profileId: PROFILE, leaseMs: ms });
    await expect(ask(14 * 60_000)).rejects.toThrow(/a lease runs at most 00:00:30 from now/);
    await expect(a.query('UPDATE team.lease_length SET seconds = 900')).rejects.toThrow(/permission denied for table lease_length/);
    const look = await ask(LEASE_MS);
    expect(look.kind).toBe('claimed');
    if (look.kind !== 'claimed') return;
    await expect(renewTeamLeases(a, A, [look.job], 60_000)).rejects.toThrow(/a lease runs at most 00:00:30 from now/);
    await cluster.setLeaseLength(60);
    expect(await renewTeamLeases(a, A, [look.job], 60_000)).toEqual([look.job.id]);
    await cluster.setLeaseLength(30);
  });
});
