import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { saveRange } from '../../../../src-main/core/marks/marks-repository';
import { rangesForClips } from '../../../../src-main/core/marks/range-store';
import { TeamMarksSync } from '../../../../src-main/core/team/syncs/marks-sync';
import { EventBus } from '../../../../src-main/core/rpc/event-bus';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { pruneTeamFeed } from '../../../../src-main/core/team/server/change-store';
import { lookAtClipJob } from '../../../../src-main/core/team/server/team-job-store';
import { publishClipResults } from '../../../../src-main/core/team/server/clip-results-store';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { linkTeamClip } from '../../../../src-main/core/team/team-replica-store';
import { silentLogger, type Logger } from '../../../../src-main/core/util/logger';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster, type SeatLogin } from '../../../helpers/team/pg-cluster';
import { insertClip, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';

const SEAT_A = '00000000-0000-4000-8000-0000000000aa';
const SEAT_B = '00000000-0000-4000-8000-0000000000bb';
const RATE = { num: 25, den: 1 };
const CLIPS = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  link: TeamSeat;
  sync: TeamMarksSync;
  /** Team clip ids the seat's feed named in `clip_results` (what ClipSharing and the arrivals are handed). */
  results: Set<number>;
  /** Pulls that read the tables whole. */
  snapshots: number;
}

/**
 * The feed pruned (issue 40 item 3) on a real PostgreSQL, with two real seat runtimes (TeamSeat,
 * TeamMarksSync, SQLite catalogs): each seat reports how far it has read when it stores its cursor; a
 * prune deletes what both have read and keeps what the seat that is away has not; once that seat has
 * been away longer than the retention it holds nothing back, and when it comes back its cursor is older
 * than what the feed keeps, so it reads the tables whole and gets every clip and mark made meanwhile.
 */
describeWithPostgres('team library: the feed pruned once every active seat has read it', () => {
  const tmp = tempDir('rs-team-prune-');
  let cluster: PgCluster;
  let admin: pg.Client;
  let seatConn: pg.Client;
  const logins = new Map<string, SeatLogin>();
  const dbs: Record<'a' | 'b', CatalogDb | null> = { a: null, b: null };
  const localClips: Record<'a' | 'b', number[]> = { a: [], b: [] };
  const teamClips: number[] = [];
  let a: Seat | null = null;
  let b: Seat | null = null;

  async function until(what: string, done: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(25);
    }
  }

  function start(seatId: string, name: 'a' | 'b', pruneEveryMs = Number.POSITIVE_INFINITY): Seat {
    const seat: Seat = { link: null as unknown as TeamSeat, sync: null as unknown as TeamMarksSync, results: new Set(), snapshots: 0 };
    const logger: Logger = { ...silentLogger, info: (msg) => void (msg === 'team.pull.snapshot' && seat.snapshots++) };
    const db = dbs[name]!;
    seat.link = new TeamSeat({
      settings: logins.get(seatId)!.settings(`Edit ${name}`),
      password: logins.get(seatId)!.password,
      seatId,
      db,
      logger,
      appSchemaVersion: readTeamMigrations().at(-1)!.version,
      // A seat reports how far it read at each pull; a pull whose snapshot met another seat's write
      // still running reports short of it, and the next pull (not the default 30 s away) catches up.
      pullEveryMs: 500,
      // Only the test prunes unless told: a seat's own prune (at its first pull, which may come after the test's
      // first range) would delete the rows the test then looks for, and no seat could be seen reading past them.
      pruneEveryMs,
    });
    seat.sync = new TeamMarksSync({ db: () => db, link: seat.link, scheduler: seat.link.scheduler, events: new EventBus(), debounceMs: 10, everyMs: 60_000 });
    seat.link.onChanges('clip_results', async (changes) => void changes.forEach((c) => seat.results.add(Number(c.rowKey))));
    seat.sync.start();
    seat.link.start();
    return seat;
  }

  async function stop(s: Seat | null): Promise<void> {
    await s?.sync.stop();
    await s?.link.stop();
  }

  /** A publishes a clip's results, as the holder of its job (the server takes results from no one else). */
  const publish = async (i: number) => {
    const look = await lookAtClipJob(seatConn, { seat: SEAT_A, clipId: teamClips[i]!, stage: 'analysis', profileId: 'default', leaseMs: 30_000 });
    if (look.kind !== 'claimed') throw new Error(`A could not claim clip ${i}: ${look.kind}`);
    return publishClipResults(seatConn, SEAT_A, look.job, { clipId: teamClips[i]!, profileId: 'default', model: 'm', region: 'asia', shots: [], segments: [], thumbnails: [] });
  };
  const feedRowsOf = async (table: string) => Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM team.changes WHERE table_name = $1', [table])).rows[0]!.n);
  /** Whether the seat has reported a read position past every feed row of `table`. */
  const readPast = async (seatId: string, table: string) =>
    (
      await admin.query<{ past: boolean }>(
        'SELECT coalesce(bool_and(c.xid < s.feed_read_to), false) AS past FROM team.changes c, team.seats s WHERE c.table_name = $1 AND s.seat_id = $2',
        [table, seatId],
      )
    ).rows[0]!.past;
  const rangeNames = (name: 'a' | 'b') => rangesForClips(dbs[name]!, localClips[name]).map((r) => r.name).sort();

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    for (const [seatId, name] of [[SEAT_A, 'Edit a'], [SEAT_B, 'Edit b']] as const) {
      logins.set(seatId, await cluster.seatLogin(seatId));
      const c = await cluster.connectSeat(seatId);
      await joinSeat(c, { seatId, name, roots: [] });
      await c.end();
    }
    seatConn = await cluster.connectSeat(SEAT_A);
    for (let i = 0; i < CLIPS; i++) teamClips.push((await adoptTeamClip(seatConn, { fingerprint: (i + 1).toString(16).padStart(32, 'c'), sizeBytes: i, fileName: `C${i}.mov`, seatId: SEAT_A })).id);
    for (const name of ['a', 'b'] as const) {
      const dir = path.join(tmp.dir, name);
      fs.mkdirSync(dir);
      const db = openTestCatalog(dir);
      const vol = insertVolume(db, `/mnt/${name}`);
      localClips[name] = teamClips.map((teamId, i) => {
        const id = insertClip(db, { volumeId: vol, relPath: `C${i}.mov` });
        linkTeamClip(db, id, teamId);
        return id;
      });
      dbs[name] = db;
    }
    await publish(0);
    a = start(SEAT_A, 'a');
    b = start(SEAT_B, 'b');
  }, 120_000);

  afterAll(async () => {
    await stop(a);
    await stop(b);
    dbs.a?.close();
    dbs.b?.close();
    await cluster?.stop();
    tmp.cleanup();
  });

  it('a prune deletes what both seats have read and keeps what the seat away has not', async () => {
    saveRange(dbs.a!, { clipId: localClips.a[0]!, inFrame: 0, outFrame: 25, rate: RATE, name: 'seen by both', note: '', rating: null, keywords: [] });
    await a!.sync.sync();
    await until('B lists the range', () => rangeNames('b').includes('seen by both'));
    await until('both seats report reading past it', async () => (await readPast(SEAT_A, 'ranges')) && (await readPast(SEAT_B, 'ranges')));
    expect(b!.results.has(teamClips[0]!)).toBe(true);

    await stop(b);
    b = null;
    saveRange(dbs.a!, { clipId: localClips.a[1]!, inFrame: 0, outFrame: 25, rate: RATE, name: 'made while B was away', note: '', rating: null, keywords: ['kept'] });
    await a!.sync.sync();
    await publish(1);
    await until('A reports reading its own range', async () => (await feedRowsOf('ranges')) === 2 && (await readPast(SEAT_A, 'ranges')));

    await pruneTeamFeed(seatConn);
    // The row both had read is gone; the one B has not read stays, whatever A has read.
    expect(await feedRowsOf('ranges')).toBe(1);
    expect(await feedRowsOf('keywords')).toBe(1);
    expect(await feedRowsOf('clip_results')).toBe(1);
  });

  it('a seat away longer than the retention holds nothing back; back, it reads the tables whole and has every clip and mark', async () => {
    await admin.query("UPDATE team.seats SET feed_read_at = now() - interval '8 days' WHERE seat_id = $1", [SEAT_B]);
    await until('A reports reading past the results', () => readPast(SEAT_A, 'clip_results'));
    await pruneTeamFeed(seatConn);
    for (const table of ['ranges', 'keywords', 'clip_results']) expect(await feedRowsOf(table), table).toBe(0);
    expect(rangeNames('b')).toEqual(['seen by both']);

    b = start(SEAT_B, 'b');
    // a pull hands its tables over one at a time: the range, then its keyword
    await until('B lists the range made while it was away, with its keyword', () => rangesForClips(dbs.b!, [localClips.b[1]!])[0]?.keywords.length === 1);
    expect(rangesForClips(dbs.b!, [localClips.b[1]!]).map((r) => [r.name, r.keywords])).toEqual([['made while B was away', ['kept']]]);
    expect(rangeNames('b')).toEqual(['made while B was away', 'seen by both']);
    await until("B is handed both clips' results", () => b!.results.has(teamClips[1]!) && b!.results.has(teamClips[0]!));
    expect(b.snapshots).toBe(1);
    // Back at work, it is an active seat again: what it reads from now on comes through the feed.
    await until('B reports its read position again', async () => (await admin.query<{ fresh: boolean }>("SELECT feed_read_at > now() - interval '1 day' AS fresh FROM team.seats WHERE seat_id = $1", [SEAT_B])).rows[0]!.fresh);
  });

  it('a seat prunes at its own pulls what every active seat has read', async () => {
    await stop(a);
    a = start(SEAT_A, 'a', 0);
    saveRange(dbs.b!, { clipId: localClips.b[2]!, inFrame: 0, outFrame: 25, rate: RATE, name: 'pruned by a seat', note: '', rating: null, keywords: [] });
    await b!.sync.sync();
    await until('A lists the range', () => rangeNames('a').includes('pruned by a seat'));
    await until("A's pulls prune it once both seats have read it", async () => (await feedRowsOf('ranges')) === 0);
    expect(rangeNames('b')).toContain('pruned by a seat');
  });
});
