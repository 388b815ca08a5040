import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { createCollectionStore, type CollectionStore } from '../../../../src-main/core/collections/collection-store';
import { LeaseKeeper } from '../../../../src-main/core/team/seat/lease-keeper';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { claimCollectionUpload } from '../../../../src-main/core/team/server/team-collection-store';
import { TeamCollectionsSync } from '../../../../src-main/core/team/syncs/collections-sync';
import { linkTeamClip } from '../../../../src-main/core/team/team-replica-store';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { insertClip, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';
import { closeSeats, seatLinkOf } from '../../../helpers/team/sync-seats';

/**
 * A clip's presence in a collection between two seats, stamped by the server (team migration 0016):
 * two real SQLite catalogs, two seat links (TeamSeat), their collections syncs, one PostgreSQL. No
 * upload runs (the syncs' work hooks are left empty): what travels is the add and the removal, and the
 * claims and video ids a test plays by hand. B's clock is years ahead, A's set back where a test says,
 * as a seat's clock may be; the server's clock is the one that counts.
 */
const SEAT_A = '00000000-0000-4000-8000-00000000000a';
const SEAT_B = '00000000-0000-4000-8000-00000000000b';
const Y9999 = Date.parse('9999-01-01T00:00:00Z');
const REGION = 'asia';
const COLLECTION = 'col-1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_MS = 30_000;
/** How far A's clock is behind (a test sets it). */
let aSkewMs = 0;

interface Seat {
  db: CatalogDb;
  store: CollectionStore;
  clipId: number;
  link: TeamSeat;
  sync: TeamCollectionsSync;
  /** The members this seat was told its change lost (the sync's `team.collections.lost`). */
  lost: string[];
}

describeWithPostgres('a clip added to and removed from a collection on two seats, stamped by the server', () => {
  const tmp = tempDir('rs-team-presence-');
  let cluster: PgCluster;
  let teamClip = 0;
  let a: Seat;
  let b: Seat;

  async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(20);
    }
  }

  async function online(seatId: string, name: string, db: CatalogDb, store: CollectionStore): Promise<Pick<Seat, 'link' | 'sync' | 'lost'>> {
    const link = await seatLinkOf(cluster, seatId, name, db);
    const lost: string[] = [];
    const logger = { ...silentLogger, info: (msg: string, data?: Record<string, unknown>) => void (msg === 'team.collections.lost' && lost.push(...(data?.members as string[]))) };
    const leases = new LeaseKeeper({ link, scheduler: link.scheduler, log: silentLogger });
    const none = () => undefined;
    const sync = new TeamCollectionsSync({ db: () => db, link, scheduler: link.scheduler, store: () => store, notify: none, listChanged: none, schedule: none, cancel: none, leases, debounceMs: 10, everyMs: 60_000, logger });
    sync.start();
    link.start();
    return { link, sync, lost };
  }

  async function seat(seatId: string, name: string, clock: () => number): Promise<Seat> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const clipId = insertClip(db, { volumeId: insertVolume(db, `/mnt/${name}`), relPath: 'C.mov' });
    linkTeamClip(db, clipId, teamClip);
    const store = createCollectionStore(db, clock);
    return { db, store, clipId, ...(await online(seatId, name, db, store)) };
  }

  const isIn = (s: Seat) => s.store.row({ collectionId: COLLECTION, region: REGION, clipId: s.clipId }) !== undefined;
  const serverRow = async () => {
    const c = await cluster.connect(cluster.adminConfig());
    try {
      return (await c.query('SELECT added_at, added_by, removed_at, removed_by, clock_timestamp() AS now FROM team.collection_videos WHERE clip_id = $1', [teamClip])).rows[0];
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    for (const [id, name] of [[SEAT_A, 'Edit A'], [SEAT_B, 'Edit B']] as const) {
      const c = await cluster.connectSeat(id);
      await joinSeat(c, { seatId: id, name, roots: [] });
      if (id === SEAT_A) teamClip = (await adoptTeamClip(c, { fingerprint: 'd'.repeat(64), sizeBytes: 1, fileName: 'C.mov', seatId: SEAT_A })).id;
      await c.end();
    }
    a = await seat(SEAT_A, 'a', () => Date.now() - aSkewMs);
    b = await seat(SEAT_B, 'b', () => Y9999);
  });
  afterAll(() => closeSeats([a, b], cluster, tmp));

  it('B, offline and its clock in 9999, removes a clip A removed and added again meanwhile: it stays in on both, B is told once; B\'s removal over the version it holds lands, by the server\'s clock', async () => {
    a.store.attach(REGION, COLLECTION, [a.clipId]);
    await a.sync.sync();
    await until('the clip in on B', () => isIn(b));

    // B's link goes down; A takes the clip out and puts it back, and the server has both
    await b.sync.stop();
    await b.link.stop();
    a.store.remove(REGION, COLLECTION, [a.clipId]);
    await a.sync.sync();
    a.store.attach(REGION, COLLECTION, [a.clipId]);
    await a.sync.sync();
    // B, offline, removes it over the add it saw first, with a clock that says 9999
    expect(b.store.remove(REGION, COLLECTION, [b.clipId])).toEqual([b.clipId]);
    expect(isIn(b)).toBe(false);
    Object.assign(b, await online(SEAT_B, 'b', b.db, b.store));
    await b.sync.sync();
    await until('the clip back in on B', () => isIn(b));
    expect(isIn(a)).toBe(true);
    expect(b.lost).toEqual([`${REGION}/${COLLECTION}/${teamClip}`]);
    const kept = await serverRow();
    expect([kept.added_by, kept.removed_by]).toEqual([SEAT_A, SEAT_A]);
    expect(kept.added_at.getTime()).toBeGreaterThan(kept.removed_at.getTime());

    // over the version it now holds, B's removal lands on both seats, stamped by the server, not by B's clock
    b.store.remove(REGION, COLLECTION, [b.clipId]);
    await b.sync.sync();
    await until('the clip out on A', () => !isIn(a));
    const removed = await serverRow();
    expect(removed.removed_by).toBe(SEAT_B);
    expect(removed.removed_at.getTime()).toBeLessThanOrEqual(removed.now.getTime());
    expect(removed.removed_at.getTime()).toBeGreaterThan(kept.added_at.getTime());
    expect(b.lost).toHaveLength(1);
  });

  it("the service fails the team's video: A's Retry, its clock an hour behind the server's, names that video and takes the upload; B's retry waits for A's, then adopts it; a retry naming a video already replaced uploads nothing", async () => {
    const col = 'col-2';
    const keyOf = (s: Seat) => ({ collectionId: col, region: REGION, clipId: s.clipId });
    const rowOf = (s: Seat) => s.store.row(keyOf(s));
    const claim = async (s: Seat) => s.sync.claim(rowOf(s)!);

    // A uploads vid-1 into the collection for the team; the service fails it; B learns both
    a.store.attach(REGION, col, [a.clipId]);
    const first = await claim(a);
    if (first.kind !== 'upload' || !first.hold) throw new Error(`A's first claim: ${first.kind}`);
    expect(a.store.startUpload(keyOf(a))).toBe(true);
    a.store.recordVideoId(keyOf(a), 'vid-1', 'original');
    first.hold.end(true);
    a.store.update(keyOf(a), { status: 'failed', errorKind: 'media', errorMessage: 'the service could not read it' });
    await a.sync.sync();
    await until('vid-1 failed on B', () => rowOf(b)?.videoId === 'vid-1' && rowOf(b)?.status === 'failed');

    // both editors press Retry; A's clock is an hour behind the server's (the failure's time there is later than A's "now")
    aSkewMs = 3_600_000;
    a.store.attach(REGION, col, [a.clipId]);
    b.store.attach(REGION, col, [b.clipId]);
    expect([rowOf(a)?.status, rowOf(a)?.videoId, rowOf(a)?.replacesVideoId]).toEqual(['queued', null, 'vid-1']);
    await a.sync.sync();
    await b.sync.sync();
    // the team's member, sent back with vid-1 failed, does not undo either retry
    expect([rowOf(a)?.status, rowOf(a)?.replacesVideoId]).toEqual(['queued', 'vid-1']);
    expect([rowOf(b)?.status, rowOf(b)?.replacesVideoId]).toEqual(['queued', 'vid-1']);

    const retryA = await claim(a);
    if (retryA.kind !== 'upload' || !retryA.hold) throw new Error(`A's retry claim: ${retryA.kind}`);
    const retryB = await claim(b);
    expect(retryB.kind).toBe('wait');
    expect(retryB.kind === 'wait' && retryB.note).toMatch(/^being uploaded by Edit a$/i);

    expect(a.store.startUpload(keyOf(a))).toBe(true);
    a.store.recordVideoId(keyOf(a), 'vid-2', 'original');
    retryA.hold.end(true);
    await until('vid-2 on B', () => rowOf(b)?.videoId === 'vid-2');
    expect([rowOf(a)?.videoId, rowOf(a)?.replacesVideoId]).toEqual(['vid-2', null]);
    expect([rowOf(b)?.status, rowOf(b)?.replacesVideoId]).toEqual(['uploaded', null]);

    // a late retry of vid-1 (a third seat's view, offline meanwhile) finds vid-2: adopted, nothing uploaded
    const c = await cluster.connectSeat(SEAT_B);
    try {
      const key = { collectionId: col, region: REGION, teamClipId: teamClip };
      expect(await claimCollectionUpload(c, SEAT_B, key, 'vid-1', LEASE_MS)).toEqual({ kind: 'adopt', videoId: 'vid-2', state: 'uploaded', by: SEAT_A });
      expect(await claimCollectionUpload(c, SEAT_B, key, null, LEASE_MS)).toEqual({ kind: 'adopt', videoId: 'vid-2', state: 'uploaded', by: SEAT_A });
    } finally {
      await c.end();
    }
  });
});
