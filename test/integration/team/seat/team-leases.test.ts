import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { nextLease, type LeaseEvent, type LeaseState } from '../../../../src-main/core/team/rules/lease';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import {
  claimTeamwideJob,
  completeTeamJob,
  enqueueTeamJob,
  failTeamJob,
  lookAtClipJob,
  reapExpiredTeamLeases,
  renewTeamLeases,
  type ClaimedTeamJob,
} from '../../../../src-main/core/team/server/team-job-store';
import { QUERY_BANK_STAGE } from '../../../../src-shared/contract/stage-graph';
import { seededRandom } from '../../../../src-main/core/util/seeded-random';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';

/**
 * The shared queue on a real PostgreSQL, every seat on its own connection as the seat role, through
 * the claims the app makes (a clip's job in the look before its work, `lookAtClipJob`; the team-wide
 * job, `claimTeamwideJob`):
 * FOR UPDATE SKIP LOCKED never hands one job to two seats, an expired lease goes to another seat
 * and fences the old holder off, and the store's statements make the transitions `nextLease` defines.
 * No order among clips is tested: a seat claims the clip its own queue is at, never "the next one".
 */
const seatIds = Array.from({ length: 10 }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
const fingerprint = (n: number) => n.toString(16).padStart(64, '0');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithPostgres('team job leases on PostgreSQL', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let seat: pg.Client;

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    await cluster.setLeaseLength(600); // the random walk's long leases (LONG_MS) never expire during it
    admin = await cluster.connect(cluster.adminConfig());
    // Every seat with its own login, joined once; `seat` is the first one's connection.
    for (const [i, seatId] of seatIds.entries()) {
      const c = await cluster.connectSeat(seatId);
      await joinSeat(c, { seatId, name: `Edit ${i + 1}`, roots: ['nas-footage'] });
      await c.end();
    }
    seat = await cluster.connectSeat(seatIds[0]!);
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    await admin.query('TRUNCATE team.jobs, team.clip_locations, team.clips, team.changes CASCADE');
  });

  const STAGES = ['probe', 'poster', 'analysis', 'upload'] as const;
  type Job = { id: number; clipId: number; stage: (typeof STAGES)[number] };

  /**
   * `clips` clips with the four indexing stages each, or only the first `stages`; the jobs of the
   * stages from `queued` on are not made: a seat's first look at them makes them.
   */
  async function enqueueCard(clips: number, stages = 4, queued = stages): Promise<Job[]> {
    const jobs: Job[] = [];
    for (let n = 0; n < clips; n++) {
      const clip = await adoptTeamClip(seat, { fingerprint: fingerprint(n + 1), sizeBytes: 1000 + n, fileName: `C${n}.mov`, seatId: seatIds[0]! });
      for (const [i, stage] of STAGES.slice(0, stages).entries()) {
        const id = i < queued ? await enqueueTeamJob(seat, { clipId: clip.id, stage, payload: { n } }) : null;
        jobs.push({ id: id ?? 0, clipId: clip.id, stage });
      }
    }
    return jobs;
  }

  /** A seat's claim of a clip's job: its look, when the job was free. */
  async function claim(c: pg.ClientBase, me: string, j: Job, leaseMs: number): Promise<ClaimedTeamJob | null> {
    const look = await lookAtClipJob(c, { seat: me, clipId: j.clipId, stage: j.stage, profileId: 'test-profile', leaseMs });
    return look.kind === 'claimed' ? look.job : null;
  }

  /** The job's lease as `nextLease` sees it, read by the test itself (times aside). */
  async function storedLease(id: number): Promise<LeaseState & { expiresAt?: number }> {
    const { rows } = await admin.query<{ state: LeaseState['state']; lease_owner: string | null; lease_token: string; lease_expires_at: Date | null; recoveries: number }>(
      'SELECT state, lease_owner, lease_token, lease_expires_at, recoveries FROM team.jobs WHERE id = $1',
      [id],
    );
    const r = rows[0]!;
    const token = Number(r.lease_token);
    return r.state === 'running'
      ? { state: 'running', owner: r.lease_owner!, token, expiresAt: r.lease_expires_at!.getTime(), recoveries: r.recoveries }
      : ({ state: r.state, token, recoveries: r.recoveries } as LeaseState);
  }

  it('10 seats with the same card in their queues claim its 1,000 jobs at once, each its own walk: 0 double claims, 0 lost', async () => {
    // Half the jobs queued before, half made by the seats' first looks (racing to make them).
    const jobs = await enqueueCard(250, 4, 2);
    expect(jobs).toHaveLength(1000);
    // A second enqueue of the same clip and stage (another seat importing the card) adds nothing.
    const other = await cluster.connectSeat(seatIds[1]!);
    expect(await enqueueTeamJob(other, { clipId: (await adoptTeamClip(other, { fingerprint: fingerprint(1), sizeBytes: 1000, fileName: 'other/C0.mov', seatId: seatIds[1]! })).id, stage: 'probe', payload: {} })).toBeNull();
    await other.end();

    const claimers = await Promise.all(seatIds.map((id) => cluster.connectSeat(id)));
    const claimsOf = new Map<number, string[]>();
    let refusedCompletions = 0;
    await Promise.all(
      claimers.map(async (c, i) => {
        const me = seatIds[i]!;
        // Half the seats walk the card in import order (racing for the same rows), half from their own offset.
        const walk = i % 2 ? [...jobs.slice(i * 100), ...jobs.slice(0, i * 100)] : jobs;
        for (const j of walk) {
          const job = await claim(c, me, j, 30_000);
          if (!job) continue; // held or done by another seat: its waiting clip would look again later
          expect(job).toMatchObject({ clipId: j.clipId, stage: j.stage });
          if (j.id) expect(job.id).toBe(j.id);
          claimsOf.set(job.id, [...(claimsOf.get(job.id) ?? []), me]);
          if (!(await completeTeamJob(c, me, job)).ok) refusedCompletions++;
        }
      }),
    );
    await Promise.all(claimers.map((c) => c.end()));

    expect([...claimsOf.values()].filter((by) => by.length > 1)).toEqual([]);
    expect(claimsOf.size).toBe(1000);
    const { rows: made } = await admin.query<{ id: string }>('SELECT id FROM team.jobs');
    expect(new Set(claimsOf.keys())).toEqual(new Set(made.map((r) => Number(r.id))));
    expect(refusedCompletions).toBe(0);
    // The server's own count: every job done, each claimed exactly once (the token counts claims).
    const { rows } = await admin.query<{ state: string; lease_token: string; n: string }>('SELECT state, lease_token, count(*) AS n FROM team.jobs GROUP BY 1, 2');
    expect(rows).toEqual([{ state: 'done', lease_token: '1', n: '1000' }]);
    // Work was shared: more than one seat claimed.
    expect(new Set([...claimsOf.values()].flat()).size).toBeGreaterThan(1);
  });

  it('10 seats asking for the team-wide job at once: one holds it, the others are told to wait', async () => {
    const claimers = await Promise.all(seatIds.map((id) => cluster.connectSeat(id)));
    const got = await Promise.all(claimers.map((c, i) => claimTeamwideJob(c, seatIds[i]!, QUERY_BANK_STAGE, 30_000)));
    await Promise.all(claimers.map((c) => c.end()));
    const holders = got.flatMap((g, i) => (g ? [{ seat: seatIds[i]!, g }] : []));
    expect(holders).toHaveLength(1);
    expect(holders[0]!.g).toMatchObject({ clipId: null, stage: QUERY_BANK_STAGE, token: 1 });
    const { rows } = await admin.query('SELECT state, lease_owner, lease_token FROM team.jobs WHERE clip_id IS NULL');
    expect(rows).toEqual([{ state: 'running', lease_owner: holders[0]!.seat, lease_token: '1' }]);
  });

  it('a holder that stops renewing: another seat claims the job after its lease expires, and the old completion is refused', async () => {
    const [job] = await enqueueCard(1, 1);
    const [a, b] = [await cluster.connectSeat(seatIds[0]!), await cluster.connectSeat(seatIds[1]!)];
    const [seatA, seatB] = [seatIds[0]!, seatIds[1]!];
    const LEASE_MS = 1500;
    const held = (await claim(a, seatA, job!, LEASE_MS))!;
    expect(held).toMatchObject({ id: job!.id, token: 1 });
    expect(await renewTeamLeases(a, seatA, [held], LEASE_MS)).toEqual([held.id]);
    const { expiresAt } = (await storedLease(held.id)) as Extract<LeaseState, { state: 'running' }>;
    // A "crashes": its connection stays open, it just stops renewing. B runs its reaper and claim loop.
    let taken = null;
    let triesWhileHeld = 0;
    for (let tries = 0; !taken && tries < 100; tries++) {
      await sleep(100);
      await reapExpiredTeamLeases(b, 20);
      taken = await claim(b, seatB, job!, 30_000);
      if (!taken) triesWhileHeld++;
    }
    expect(taken).toMatchObject({ id: held.id, token: 2 });
    expect(triesWhileHeld).toBeGreaterThan(0); // B found the job held while A's lease ran
    const { rows } = await admin.query<{ claimed_at: Date; recoveries: number }>('SELECT updated_at AS claimed_at, recoveries FROM team.jobs WHERE id = $1', [held.id]);
    expect(rows[0]!.claimed_at.getTime()).toBeGreaterThanOrEqual(expiresAt); // by the server's clock, not before the lease ended
    expect(rows[0]!.recoveries).toBe(1);

    // A wakes up: its renew, completion and failure name token 1 and are refused.
    expect(await renewTeamLeases(a, seatA, [held], LEASE_MS)).toEqual([]);
    expect(await completeTeamJob(a, seatA, held)).toEqual({ ok: false, refused: 'lease-lost' });
    expect(await failTeamJob(a, seatA, held, { retry: false, errorKind: 'io', message: 'late' })).toEqual({ ok: false, refused: 'lease-lost' });
    expect(await completeTeamJob(b, seatB, taken!)).toEqual({ ok: true });
    expect((await admin.query('SELECT state, lease_token FROM team.jobs WHERE id = $1', [held.id])).rows).toEqual([{ state: 'done', lease_token: '2' }]);
    await Promise.all([a.end(), b.end()]);
  });

  it('the store makes the transitions nextLease defines, refusals included (300 random events)', async () => {
    const [job] = await enqueueCard(1, 1);
    const jobId = job!.id;
    const random = seededRandom(28);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const seats = [seatIds[0]!, seatIds[1]!];
    const SHORT_MS = 1; // expired by the next event; LONG never expires during the test
    const LONG_MS = 600_000;
    // Each seat on its own login: the server refuses a lease in another seat's name.
    const conn = new Map<string, pg.Client>([
      [seats[0]!, seat],
      [seats[1]!, await cluster.connectSeat(seats[1]!)],
    ]);
    let model: LeaseState = { state: 'queued', token: 0, recoveries: 0 };
    let accepted = 0;
    for (let i = 0; i < 300; i++) {
      const t = (i + 1) * 1000; // the model's clock: one second per event
      const s = pick(seats);
      const token = model.token + pick([0, 0, 0, -1]); // mostly the current claim's token, sometimes an older one
      const short = random() < 0.3;
      const kind = pick(['claim', 'claim', 'renew', 'complete', 'fail', 'expire'] as const);
      let e: LeaseEvent;
      let storeOk: boolean;
      if (kind === 'claim') {
        e = { type: 'claim', seat: s, now: t, leaseMs: short ? SHORT_MS : LONG_MS };
        const got = await claim(conn.get(s)!, s, job!, short ? SHORT_MS : LONG_MS);
        if (got) expect(got.id).toBe(jobId);
        storeOk = got !== null;
      } else if (kind === 'renew') {
        e = { type: 'renew', seat: s, token, now: t, leaseMs: short ? SHORT_MS : LONG_MS };
        storeOk = (await renewTeamLeases(conn.get(s)!, s, [{ id: jobId, token }], short ? SHORT_MS : LONG_MS)).length === 1;
      } else if (kind === 'complete') {
        e = { type: 'complete', seat: s, token, now: t };
        const out = await completeTeamJob(conn.get(s)!, s, { id: jobId, token });
        storeOk = out.ok;
        if (!out.ok) expect(out.refused).toBe(nextLease(model, e).refused);
      } else if (kind === 'fail') {
        e = { type: 'fail', seat: s, token, now: t, retry: random() < 0.8 };
        const out = await failTeamJob(conn.get(s)!, s, { id: jobId, token }, { retry: e.retry, errorKind: 'upstream', message: 'busy' });
        storeOk = out.ok;
        if (!out.ok) expect(out.refused).toBe(nextLease(model, e).refused);
      } else {
        e = { type: 'expire', now: t, maxRecoveries: 20 };
        storeOk = (await reapExpiredTeamLeases(seat, 20)).some((r) => r.id === jobId);
      }
      const step = nextLease(model, e);
      expect(storeOk, `event ${i}: ${JSON.stringify(e)} on ${JSON.stringify(model)}`).toBe(step.refused === undefined);
      model = step.state;
      if (storeOk) accepted++;
      const { expiresAt: _s, ...stored } = await storedLease(jobId);
      const { expiresAt: _m, ...expected } = model as LeaseState & { expiresAt?: number };
      expect(stored, `after event ${i}`).toEqual(expected);
      // A done or failed job is put back in the queue so the walk goes on.
      if (model.state === 'done' || model.state === 'failed') {
        await admin.query("UPDATE team.jobs SET state = 'queued' WHERE id = $1", [jobId]);
        model = { ...model, state: 'queued' };
      }
      if (short) await sleep(3); // let a 1 ms lease run out on the server's clock too
    }
    expect(accepted).toBeGreaterThan(60);
  });
});
