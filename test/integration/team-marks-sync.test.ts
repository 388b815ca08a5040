import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../src-main/core/catalog/open-catalog';
import { addKeywords, clipMarks, deleteRange, rangesForClips, rate, removeKeyword, saveRange, unsentCount, updateRange } from '../../src-main/core/marks/marks-repository';
import { TeamMarksSync } from '../../src-main/core/marks/team-marks-sync';
import { EventBus } from '../../src-main/core/rpc/event-bus';
import { upsertSeat } from '../../src-main/core/team/seat-store';
import { adoptTeamClip } from '../../src-main/core/team/team-clip-store';
import { tempDir } from '../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { PoolTeamLink } from '../helpers/pool-team-link';
import { insertClip, insertVolume, openTestCatalog } from '../helpers/search-catalog';

/**
 * Marks shared between two seats of a team library, offline first: two real SQLite catalogs, two
 * links, one real PostgreSQL (docs/notes-team-library.md section 5). Each seat's catalog holds the same
 * footage under its own clip ids; team_clips says which team clip each is.
 */
const SEAT_A = '00000000-0000-4000-8000-00000000000a';
const SEAT_B = '00000000-0000-4000-8000-00000000000b';
const RATE = { num: 25, den: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  db: CatalogDb;
  link: PoolTeamLink;
  sync: TeamMarksSync;
  /** clipIds of every `catalog.changed` with reason `marks` the sync emitted. */
  changed: number[][];
  clips: number[];
}

describeWithPostgres('team marks between two seats on PostgreSQL', () => {
  const tmp = tempDir('rs-team-marks-');
  let cluster: PgCluster;
  let a: Seat;
  let b: Seat;
  /** Team clip ids of the shared footage (clips[i] on each seat is teamClips[i]). */
  const teamClips: number[] = [];

  const link = (db: CatalogDb, clipId: number, teamClipId: number) =>
    db.prepare('INSERT INTO team_clips (clip_id, team_clip_id, linked_at) VALUES (?, ?, ?)').run(clipId, teamClipId, Date.now());

  async function seat(seatId: string, name: string, linkedClips: number): Promise<Seat> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const vol = insertVolume(db, `/mnt/${name}`);
    const clips = teamClips.map((_, i) => insertClip(db, { volumeId: vol, relPath: `C${i}.mov` }));
    clips.slice(0, linkedClips).forEach((id, i) => link(db, id, teamClips[i]!));
    const l = new PoolTeamLink(seatId, cluster.seatConfig());
    await l.startFeedNow();
    const events = new EventBus();
    const changed: number[][] = [];
    events.subscribe((e, p) => {
      const payload = p as { reason: string; clipIds?: number[] };
      if (e === 'catalog.changed' && payload.reason === 'marks') changed.push(payload.clipIds ?? []);
    });
    const sync = new TeamMarksSync({ db: () => db, link: l, events, debounceMs: 10, everyMs: 60_000 });
    sync.start();
    return { db, link: l, sync, changed, clips };
  }

  /** Both seats send what they have, then both read the feed (twice: the second pull takes the other's sends). */
  async function exchange(): Promise<void> {
    await a.sync.sync();
    await b.sync.sync();
    for (const s of [a, b, a, b]) await s.link.pull();
  }

  const byName = (s: Seat, clip: number) => rangesForClips(s.db, [s.clips[clip]!]);

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    const c = await cluster.connect(cluster.seatConfig());
    await upsertSeat(c, { seatId: SEAT_A, name: 'Edit A', roots: [] });
    await upsertSeat(c, { seatId: SEAT_B, name: 'Edit B', roots: [] });
    for (let i = 0; i < 8; i++) teamClips.push((await adoptTeamClip(c, { fingerprint: (i + 1).toString(16).padStart(64, 'a'), sizeBytes: i, fileName: `C${i}.mov`, seatId: SEAT_A })).id);
    await c.end();
    a = await seat(SEAT_A, 'a', 8);
    b = await seat(SEAT_B, 'b', 6); // B has clips 6 and 7 in its catalog, not linked yet
  });
  afterAll(async () => {
    for (const s of [a, b]) {
      await s?.sync.stop();
      await s?.link.end();
      s?.db.close();
    }
    await cluster?.stop();
    tmp.cleanup();
  });

  it('a range made on A is listed by B, with its keywords; B\'s views are told; A\'s own echo changes nothing on A', async () => {
    const r = saveRange(a.db, { clipId: a.clips[0]!, inFrame: 10, outFrame: 60, rate: RATE, name: 'hero', note: 'wide', rating: 'favorite', keywords: ['beach'] });
    a.changed.length = 0;
    await exchange();
    const onB = byName(b, 0);
    expect(onB.map((x) => [x.name, x.note, x.rating, x.inFrame, x.outFrame, x.rate, x.keywords])).toEqual([['hero', 'wide', 'favorite', 10, 60, RATE, ['beach']]]);
    expect(b.changed).toContainEqual([b.clips[0]]);
    expect(a.changed).toEqual([]);
    expect(byName(a, 0).map((x) => x.id)).toEqual([r.id]);
    expect(unsentCount(a.db)).toBe(0);
  });

  it('A and B change different fields of one range at once: both changes survive on both seats', async () => {
    const [onA] = byName(a, 0);
    const [onB] = byName(b, 0);
    updateRange(a.db, onA!.id, { name: 'hero take' });
    updateRange(b.db, onB!.id, { note: 'soft focus' });
    rate(b.db, { clipIds: [], rangeIds: [onB!.id] }, 'reject');
    await exchange();
    for (const s of [a, b]) expect(byName(s, 0).map((x) => [x.name, x.note, x.rating])).toEqual([['hero take', 'soft focus', 'reject']]);
  });

  it('A and B change the same field: the later change wins on both seats, whichever is sent first', async () => {
    const [onA] = byName(a, 0);
    const [onB] = byName(b, 0);
    updateRange(a.db, onA!.id, { name: 'from A' });
    rate(a.db, { clipIds: [a.clips[1]!], rangeIds: [] }, 'favorite');
    await sleep(5); // B's edits are later than A's by the clock, not only by the seat-id tie-break
    updateRange(b.db, onB!.id, { name: 'from B' });
    rate(b.db, { clipIds: [b.clips[1]!], rangeIds: [] }, 'reject');
    // B sends first, A (the older edit) after
    await b.sync.sync();
    await a.sync.sync();
    for (const s of [a, b, a, b]) await s.link.pull();
    for (const s of [a, b]) {
      expect(byName(s, 0).map((x) => x.name)).toEqual(['from B']);
      expect(clipMarks(s.db, s.clips[1]!).rating).toBe('reject');
    }
  });

  it('keywords added on both seats while apart are one set after; a removal later than the add removes on both', async () => {
    addKeywords(a.db, { clipIds: [a.clips[2]!], rangeIds: [] }, ['beach', 'day 1']);
    addKeywords(b.db, { clipIds: [b.clips[2]!], rangeIds: [] }, ['Beach', 'night']);
    await exchange();
    for (const s of [a, b]) expect(clipMarks(s.db, s.clips[2]!).keywords.map((k) => k.toLowerCase())).toEqual(['beach', 'day 1', 'night']);
    const c = await cluster.connect(cluster.seatConfig());
    const rows = await c.query('SELECT keyword_norm FROM team.keywords WHERE clip_id = $1 ORDER BY keyword_norm', [teamClips[2]]);
    expect(rows.rows.map((r) => r.keyword_norm)).toEqual(['beach', 'day 1', 'night']);
    await c.end();

    removeKeyword(b.db, { clipIds: [b.clips[2]!], rangeIds: [] }, 'day 1');
    await exchange();
    for (const s of [a, b]) expect(clipMarks(s.db, s.clips[2]!).keywords.map((k) => k.toLowerCase())).toEqual(['beach', 'night']);
  });

  it('A deletes a range while B, not having seen it, edits the range later: it stays deleted on both seats', async () => {
    const made = saveRange(a.db, { clipId: a.clips[3]!, inFrame: 0, outFrame: 25, rate: RATE, name: 'doomed', note: '', rating: null, keywords: ['x'] });
    await exchange();
    const [onB] = byName(b, 3);
    expect(onB?.name).toBe('doomed');
    deleteRange(a.db, made.id);
    await a.sync.sync();
    await sleep(5); // B's edit is later than the delete
    updateRange(b.db, onB!.id, { name: 'renamed after the delete' });
    addKeywords(b.db, { clipIds: [], rangeIds: [onB!.id] }, ['late']);
    await exchange();
    for (const s of [a, b]) expect(byName(s, 3)).toEqual([]);
    expect(b.changed.at(-1)).toEqual([b.clips[3]]);
  });

  it('marks of a clip B has not linked wait, and arrive when B links it; marks A made before linking are sent once linked', async () => {
    saveRange(a.db, { clipId: a.clips[6]!, inFrame: 5, outFrame: 15, rate: RATE, name: 'on an unlinked clip', note: '', rating: null, keywords: ['wait'] });
    await exchange();
    expect(byName(b, 6)).toEqual([]);
    link(b.db, b.clips[6]!, teamClips[6]!);
    await b.sync.sync();
    expect(byName(b, 6).map((x) => [x.name, x.keywords])).toEqual([['on an unlinked clip', ['wait']]]);

    // B marks its clip 7 before it is linked (solo, as far as that clip goes): kept for later, then sent
    saveRange(b.db, { clipId: b.clips[7]!, inFrame: 0, outFrame: 5, rate: RATE, name: 'before linking', note: '', rating: null, keywords: [] });
    await exchange();
    expect(unsentCount(b.db)).toBe(1);
    expect(byName(a, 7)).toEqual([]);
    link(b.db, b.clips[7]!, teamClips[7]!);
    await exchange();
    expect(unsentCount(b.db)).toBe(0);
    expect(byName(a, 7).map((x) => x.name)).toEqual(['before linking']);
  });

  it('the server stopped while A makes marks: they are kept, and reach B after it comes back, sent when A\'s link is online again', async () => {
    await cluster.pause();
    const made = saveRange(a.db, { clipId: a.clips[4]!, inFrame: 100, outFrame: 150, rate: RATE, name: 'offline take', note: 'made while the server was down', rating: 'favorite', keywords: ['offline'] });
    rate(a.db, { clipIds: [a.clips[4]!], rangeIds: [] }, 'favorite');
    await expect(a.sync.sync()).rejects.toMatchObject({ kind: "offline" });
    expect(a.link.online()).toBe(false);
    expect(unsentCount(a.db)).toBe(3); // the range, its keyword, the clip's rating
    expect(byName(a, 4).map((x) => x.id)).toEqual([made.id]); // browsing goes on from the catalog
    await cluster.resume();
    // The first contact after the outage (A's next pull of the feed) turns the link online, and that starts a round.
    await a.link.pull();
    const deadline = Date.now() + 15_000;
    while (byName(b, 4).length === 0 && Date.now() < deadline) {
      await sleep(100);
      await b.link.pull().catch(() => undefined);
    }
    expect(byName(b, 4).map((x) => [x.name, x.note, x.rating, x.keywords])).toEqual([['offline take', 'made while the server was down', 'favorite', ['offline']]]);
    expect(clipMarks(b.db, b.clips[4]!).rating).toBe('favorite');
    expect(unsentCount(a.db)).toBe(0);
  });
});
