import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { ClipSharing } from '../../../../src-main/core/team/syncs/clip-sharing';
import { createSegmentStore } from '../../../../src-main/core/pipeline/service-cache/segment-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { lookAtClipJob } from '../../../../src-main/core/team/server/team-job-store';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import type { TeamLink } from '../../../../src-main/core/team/seat/team-link';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster, type SeatLogin } from '../../../helpers/team/pg-cluster';
import { insertClip, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';
import { SeatScheduler } from '../../../../src-main/core/team/seat/seat-scheduler';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { LeaseKeeper } from '../../../../src-main/core/team/seat/lease-keeper';

/**
 * The look a seat makes before a clip's analysis (ClipSharing.beforeAnalysis) against a real
 * PostgreSQL: a clip another seat holds looks again every few seconds, so each look after the first
 * (which links the clip by fingerprint) is one round trip, counted on the seat's client, with the
 * outcomes a seat acts on: claim, wait for the holder, try a clip that failed elsewhere.
 */
const SEAT_A = '00000000-0000-4000-8000-00000000000a';
const SEAT_B = '00000000-0000-4000-8000-00000000000b';
const PROFILE = 'test-profile';
const FINGERPRINT = 'c'.repeat(64);

/** A seat's link whose clients count the queries sent through them. */
class CountingLink implements TeamLink {
  queries = 0;
  constructor(private readonly inner: TeamSeat) {}
  get seatId(): string {
    return this.inner.seatId;
  }
  withClient<T>(fn: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.inner.withClient((client) => {
      const counted = new Proxy(client, {
        get: (target, key) => {
          if (key === 'query') {
            return (...args: unknown[]) => {
              this.queries++;
              return (target.query as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return fn(counted);
    });
  }
  onChanges: TeamLink['onChanges'] = (table, handler) => this.inner.onChanges(table, handler);
  online = (): boolean => this.inner.online();
  onOnline: TeamLink['onOnline'] = (listener) => this.inner.onOnline(listener);
}

interface Seat {
  db: CatalogDb;
  link: CountingLink;
  inner: TeamSeat;
  sharing: ClipSharing;
  clipId: number;
}

describeWithPostgres('the look before a clip\'s analysis on PostgreSQL', () => {
  const tmp = tempDir('rs-team-look-');
  let cluster: PgCluster;
  let admin: pg.Client;
  const seats: Seat[] = [];
  const logins = new Map<string, SeatLogin>();

  function seat(seatId: string, name: string): Seat {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const clipId = insertClip(db, { volumeId: insertVolume(db, `/mnt/${name}`), relPath: 'A001.mov', fingerprint: FINGERPRINT, sizeBytes: 4242 });
    const inner = new TeamSeat({
      settings: logins.get(seatId)!.settings(`Edit ${name}`),
      password: logins.get(seatId)!.password,
      seatId,
      db,
      appSchemaVersion: readTeamMigrations().at(-1)!.version,
    });
    const link = new CountingLink(inner);
    // Not started: no renewals, reaper or catch-up send queries of their own while the test counts.
    const sharing = new ClipSharing({
      db,
      cacheDir: dir,
      store: createSegmentStore(db),
      link,
      profileId: PROFILE,
      identity: () => ({ region: 'asia', model: 'test-model' }),
      ...withClock(link),
      wake: () => undefined,
      working: () => true,
    });
    const s = { db, link, inner, sharing, clipId };
    seats.push(s);
    return s;
  }

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    for (const [seatId, name] of [[SEAT_A, 'Edit A'], [SEAT_B, 'Edit B']] as const) {
      logins.set(seatId, await cluster.seatLogin(seatId));
      const c = await cluster.connectSeat(seatId);
      await joinSeat(c, { seatId, name, roots: [] });
      await c.end();
    }
  });
  afterAll(async () => {
    for (const s of seats) {
      await s.inner.stop();
      s.db.close();
    }
    await admin?.end();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('a clip another seat holds: each look is one round trip, and says who holds it, then claims once it is free', async () => {
    const a = seat(SEAT_A, 'a');
    const b = seat(SEAT_B, 'b');
    expect(await a.sharing.beforeAnalysis(a.clipId)).toEqual({ kind: 'here' });
    // B's first look links the clip by fingerprint (found, its place recorded), then looks.
    const first = await b.sharing.beforeAnalysis(b.clipId);
    expect(first).toMatchObject({ kind: 'wait', note: 'being indexed by Edit A' });

    const look = async () => {
      b.link.queries = 0;
      const decision = await b.sharing.beforeAnalysis(b.clipId);
      return { decision, queries: b.link.queries };
    };
    const waiting = await look();
    expect(waiting).toMatchObject({ queries: 1, decision: { kind: 'wait', note: 'being indexed by Edit A' } });
    // The next look is due when A's lease (30 s) would end, at most 15 s away.
    expect((waiting.decision as { delayMs: number }).delayMs).toBe(15_000);

    // A's attempt failed for good (its copy of the file, its tools): B tries its own copy.
    await admin.query(
      "UPDATE team.jobs SET state = 'failed', lease_owner = NULL, lease_expires_at = NULL, last_error_message = 'decoder crashed' WHERE stage = 'analysis'",
    );
    expect(await look()).toEqual({ queries: 1, decision: { kind: 'wait', delayMs: 0, note: 'failed on another seat (decoder crashed): trying here' } });
    expect(await look()).toEqual({ queries: 1, decision: { kind: 'here' } });
    expect(b.sharing.takenOver(b.clipId)).toBe(true); // A held it before: what A sent is in the journal

    // Released by its holder (paused there): not claimable for a moment; the look says when it may be.
    await admin.query(
      "UPDATE team.jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, not_before = now() + interval '4 s' WHERE stage = 'analysis'",
    );
    a.link.queries = 0;
    const paused = await a.sharing.beforeAnalysis(a.clipId);
    expect(a.link.queries).toBe(1);
    expect(paused).toMatchObject({ kind: 'wait', note: 'waiting for the team' });
    expect((paused as { delayMs: number }).delayMs).toBeLessThanOrEqual(4500);
  });

  it('the look itself: a clip the team has results of is adopted, and no job is made for it', async () => {
    const c = await cluster.connectSeat(SEAT_B);
    const clip = await adoptTeamClip(c, { fingerprint: 'd'.repeat(64), sizeBytes: 1, fileName: 'B001.mov', seatId: SEAT_B });
    const look = { seat: SEAT_B, clipId: clip.id, stage: 'analysis' as const, profileId: PROFILE, leaseMs: 30_000 };
    // The team has its results (written as the administrator: a seat publishes only under a job it holds).
    await admin.query("INSERT INTO team.clip_results (clip_id, profile_id, model, region, shots, segment_count, published_by) VALUES ($1, $2, 'm', 'asia', '[]', 0, $3)", [clip.id, PROFILE, SEAT_A]);
    expect(await lookAtClipJob(c, look)).toEqual({ kind: 'published' });
    expect((await admin.query('SELECT id FROM team.jobs WHERE clip_id = $1', [clip.id])).rows).toEqual([]);
    // In another profile the team has nothing yet: the first look makes the job, already this seat's.
    expect(await lookAtClipJob(c, { ...look, profileId: 'other-profile' })).toMatchObject({ kind: 'claimed', job: { clipId: clip.id, stage: 'analysis', token: 1 } });
    expect((await admin.query('SELECT state, lease_owner FROM team.jobs WHERE clip_id = $1', [clip.id])).rows).toEqual([{ state: 'running', lease_owner: SEAT_B }]);
    await c.end();
  });
});

/** The seat's clock and lease keeper, not started here (ClipSharing registers its rounds with them). */
function withClock(link: TeamLink): { scheduler: SeatScheduler; leases: LeaseKeeper } {
  const scheduler = new SeatScheduler({ link, log: silentLogger });
  return { scheduler, leases: new LeaseKeeper({ link, scheduler, log: silentLogger }) };
}
