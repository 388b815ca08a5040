import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { LeaseKeeper } from '../../../../src-main/core/team/seat/lease-keeper';
import { SeatScheduler } from '../../../../src-main/core/team/seat/seat-scheduler';
import type { TeamLink } from '../../../../src-main/core/team/seat/team-link';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import type { TeamMemberKey } from '../../../../src-main/core/collections/collection-member-merge';
import { claimCollectionUpload } from '../../../../src-main/core/team/server/team-collection-store';
import { claimTeamwideJob, reapExpiredTeamLeases, type TeamLease } from '../../../../src-main/core/team/server/team-job-store';
import type { Logger } from '../../../../src-main/core/util/logger';
import { QUERY_BANK_STAGE } from '../../../../src-shared/contract/stage-graph';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

/**
 * The seat's one lease keeper (team/seat/lease-keeper.ts) on a real PostgreSQL: a job's lease and a
 * collection upload's claim held through it outlive their length while held; one dropped runs out;
 * one the server gave to another seat is reported lost; and what the seat still holds when it stops
 * goes back to the team at once. What is asserted is the server's rows, never how long anything took.
 */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
/** Renewed every second (a third of it, at least 1 s): a held lease outlives two of its lengths below. */
const LEASE_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithPostgres('the lease keeper on PostgreSQL', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let seat: pg.Client;
  let teamClipId: number;
  const logged: Array<{ msg: string; data?: Record<string, unknown> }> = [];
  const log: Logger = { debug() {}, info: (msg, data) => void logged.push({ msg, data }), warn: (msg, data) => void logged.push({ msg, data }), error() {}, addSecret() {} };
  const link: TeamLink = { seatId: A, withClient: (fn) => fn(seat), onChanges: () => () => undefined, online: () => true, onOnline: () => () => undefined };
  const keeper = () => new LeaseKeeper({ link, scheduler: new SeatScheduler({ link, log }), leaseMs: LEASE_MS, log });

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    // Each seat on its own login (team migration 0011); the keeper works as A.
    for (const [id, name] of [[B, 'Edit B'], [A, 'Edit A']] as const) {
      const c = await cluster.connectSeat(id);
      await joinSeat(c, { seatId: id, name, roots: ['nas'] });
      if (id === A) seat = c;
      else await c.end();
    }
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    await admin.query('TRUNCATE team.jobs, team.collection_videos, team.clip_locations, team.clips, team.changes CASCADE');
    teamClipId = (await adoptTeamClip(seat, { fingerprint: 'f'.repeat(64), sizeBytes: 1000, fileName: 'A001.mov', seatId: A })).id;
    logged.length = 0;
  });

  async function bankJob(): Promise<TeamLease> {
    const job = await claimTeamwideJob(seat, A, QUERY_BANK_STAGE, LEASE_MS);
    if (!job) throw new Error('the bank job was not free');
    return { id: job.id, token: job.token };
  }
  async function uploadClaim(): Promise<TeamMemberKey> {
    const key = { collectionId: 'col-1', region: 'asia', teamClipId };
    expect((await claimCollectionUpload(seat, A, key, null, LEASE_MS)).kind).toBe('claimed');
    return key;
  }
  const jobRow = async (id: number) => (await admin.query<{ state: string; lease_owner: string | null }>('SELECT state, lease_owner FROM team.jobs WHERE id = $1', [id])).rows[0]!;
  const uploadAlive = async () => (await admin.query<{ alive: boolean }>('SELECT upload_expires_at > now() AS alive FROM team.collection_videos WHERE clip_id = $1', [teamClipId])).rows[0]!.alive;
  const uploadRow = async () => (await admin.query<{ status: string; uploaded_by: string | null }>('SELECT status, uploaded_by FROM team.collection_videos WHERE clip_id = $1', [teamClipId])).rows[0]!;

  it('keeps a job and an upload claim past their length while held, and gives both back when the seat stops', async () => {
    const k = keeper();
    const lease = await bankJob();
    const key = await uploadClaim();
    k.keep({ kind: 'job', lease }, { jobId: lease.id });
    k.keep({ kind: 'upload', key }, { teamClipId });
    k.start();
    await sleep(LEASE_MS * 2.5);
    // Nothing ran out: the reaper finds nothing, and both are still this seat's.
    expect(await reapExpiredTeamLeases(admin, 20)).toEqual([]);
    expect(await jobRow(lease.id)).toEqual({ state: 'running', lease_owner: A });
    expect(await uploadRow()).toEqual({ status: 'uploading', uploaded_by: A });
    expect(await uploadAlive()).toBe(true);
    expect(logged.filter((l) => l.msg === 'team.lease.lost')).toEqual([]);

    await k.stop();
    expect(await jobRow(lease.id)).toEqual({ state: 'queued', lease_owner: null });
    expect(await uploadRow()).toEqual({ status: 'queued', uploaded_by: null });
    expect(logged.filter((l) => l.msg === 'team.lease.released')).toHaveLength(2);
  });

  it('renews no lease that was dropped: it runs out, and stopping gives nothing back', async () => {
    const k = keeper();
    const lease = await bankJob();
    k.keep({ kind: 'job', lease }, { jobId: lease.id }).drop();
    k.start();
    await sleep(LEASE_MS * 1.5);
    expect((await reapExpiredTeamLeases(admin, 20)).map((r) => r.id)).toEqual([lease.id]);
    await k.stop();
    expect(logged.filter((l) => l.msg === 'team.lease.released')).toEqual([]);
  });

  it('reports a lease another seat took over as lost, once, and stops renewing it', async () => {
    const k = keeper();
    const lease = await bankJob();
    const key = await uploadClaim();
    const lost: string[] = [];
    k.keep({ kind: 'job', lease }, { jobId: lease.id }, () => lost.push('job'));
    k.keep({ kind: 'upload', key }, { teamClipId }, () => lost.push('upload'));
    // The server hands both to seat B (as its reaper and a claim after expiry would).
    await admin.query("UPDATE team.jobs SET lease_owner = $1, lease_token = lease_token + 1 WHERE id = $2", [B, lease.id]);
    await admin.query('UPDATE team.collection_videos SET uploaded_by = $1 WHERE clip_id = $2', [B, teamClipId]);
    k.start();
    const deadline = Date.now() + 10_000;
    while (lost.length < 2 && Date.now() < deadline) await sleep(20);
    expect(lost.sort()).toEqual(['job', 'upload']);
    expect(logged.filter((l) => l.msg === 'team.lease.lost').map((l) => l.data)).toEqual(expect.arrayContaining([{ jobId: lease.id }, { teamClipId }]));
    await k.stop();
    // Nothing of B's was given back in A's name.
    expect(await jobRow(lease.id)).toEqual({ state: 'running', lease_owner: B });
    expect(await uploadRow()).toEqual({ status: 'uploading', uploaded_by: B });
    expect(lost).toHaveLength(2);
  });
});
