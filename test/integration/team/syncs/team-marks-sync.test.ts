import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogDb } from '../../../../src-main/core/catalog/open-catalog';
import { addKeywords, clipMarks, deleteRange, rate, removeKeyword, saveRange, updateRange } from '../../../../src-main/core/marks/marks-repository';
import { unsentCount } from '../../../../src-main/core/marks/marks-outbox-store';
import { rangesForClips } from '../../../../src-main/core/marks/range-store';
import { TeamMarksSync } from '../../../../src-main/core/team/syncs/marks-sync';
import { EventBus } from '../../../../src-main/core/rpc/event-bus';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip } from '../../../../src-main/core/team/server/team-clip-store';
import { linkTeamClip } from '../../../../src-main/core/team/team-replica-store';
import { TeamSeat } from '../../../../src-main/core/team/seat/team-seat';
import { silentLogger } from '../../../../src-main/core/util/logger';
import { tempDir } from '../../../helpers/paths';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { insertClip, insertVolume, openTestCatalog } from '../../../helpers/catalog/search-catalog';
import { closeSeats, seatLinkOf } from '../../../helpers/team/sync-seats';

/**
 * Marks shared between two seats of a team library, offline first: two real SQLite catalogs, two
 * seat runtimes (TeamSeat: pool, LISTEN/NOTIFY, the snapshot cursor), one real PostgreSQL
 * (docs/notes-team-library.md section 5). Each seat's catalog holds the same footage under its own clip
 * ids; team_clips says which team clip each is. Edits are made through the marks repository and sent by
 * an explicit round (`sync()`), so a test decides what each seat has seen when it edits; what arrives
 * comes through the seats' own pulls (woken by NOTIFY), waited for with a bound.
 */
const SEAT_A = '00000000-0000-4000-8000-00000000000a';
const SEAT_B = '00000000-0000-4000-8000-00000000000b';
const RATE = { num: 25, den: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat {
  db: CatalogDb;
  link: TeamSeat;
  sync: TeamMarksSync;
  /** clipIds of every `catalog.changed` with reason `marks` the sync emitted. */
  changed: number[][];
  clips: number[];
  /** What the sync logged of edits that lost a conflict. */
  lost: unknown[];
}

describeWithPostgres('team marks between two seats on PostgreSQL', () => {
  const tmp = tempDir('rs-team-marks-');
  let cluster: PgCluster;
  let a: Seat;
  let b: Seat;
  /** Team clip ids of the shared footage (clips[i] on each seat is teamClips[i]). */
  const teamClips: number[] = [];

  const link = linkTeamClip;

  /** Waits until `done()` holds, or fails after `ms` saying what it waited for (a bound, not a timing assertion). */
  async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited ${ms} ms for: ${what}`);
      await sleep(20);
    }
  }

  async function seat(seatId: string, name: string, linkedClips: number): Promise<Seat> {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const db = openTestCatalog(dir);
    const vol = insertVolume(db, `/mnt/${name}`);
    const clips = teamClips.map((_, i) => insertClip(db, { volumeId: vol, relPath: `C${i}.mov` }));
    clips.slice(0, linkedClips).forEach((id, i) => link(db, id, teamClips[i]!));
    return { ...(await online(seatId, name, db)), db, clips };
  }

  /** A seat's link to the team and its marks sync, over its catalog (again after it was offline). */
  async function online(seatId: string, name: string, db: CatalogDb): Promise<Pick<Seat, 'link' | 'sync' | 'changed' | 'lost'>> {
    const l = await seatLinkOf(cluster, seatId, name, db);
    const events = new EventBus();
    const changed: number[][] = [];
    events.subscribe((e, p) => {
      const payload = p as { reason: string; clipIds?: number[] };
      if (e === 'catalog.changed' && payload.reason === 'marks') changed.push(payload.clipIds ?? []);
    });
    const lost: unknown[] = [];
    const logger = { ...silentLogger, info: (msg: string, data?: Record<string, unknown>) => void (msg === 'team.marks.lost' && lost.push(...(data?.lost as unknown[]))) };
    const sync = new TeamMarksSync({ db: () => db, link: l, scheduler: l.scheduler, events, debounceMs: 10, everyMs: 60_000, logger });
    sync.start();
    l.start();
    return { link: l, sync, changed, lost };
  }

  /** Both seats send what they have (B first when `bFirst`), then each waits until it holds `expected(seat)`. */
  async function exchange(what: string, holds: (s: Seat) => boolean, bFirst = false): Promise<void> {
    for (const s of bFirst ? [b, a] : [a, b]) await s.sync.sync();
    await until(`${what} on A`, () => holds(a));
    await until(`${what} on B`, () => holds(b));
  }

  const byName = (s: Seat, clip: number) => rangesForClips(s.db, [s.clips[clip]!]);

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    const c = await cluster.connectSeat(SEAT_A);
    await joinSeat(c, { seatId: SEAT_A, name: 'Edit A', roots: [] });
    const cb = await cluster.connectSeat(SEAT_B);
    await joinSeat(cb, { seatId: SEAT_B, name: 'Edit B', roots: [] });
    await cb.end();
    for (let i = 0; i < 8; i++) teamClips.push((await adoptTeamClip(c, { fingerprint: (i + 1).toString(16).padStart(64, 'a'), sizeBytes: i, fileName: `C${i}.mov`, seatId: SEAT_A })).id);
    await c.end();
    a = await seat(SEAT_A, 'a', 8);
    b = await seat(SEAT_B, 'b', 6); // B has clips 6 and 7 in its catalog, not linked yet
  });
  afterAll(() => closeSeats([a, b], cluster, tmp));

  it('a range made on A is listed by B, with its keywords; B\'s views are told; A\'s own echo changes nothing on A', async () => {
    // A's own changes come back through A's feed: a handler after the sync's tells when A has taken them.
    const echoes: string[] = [];
    const off = a.link.onChanges('ranges', async (cs) => void echoes.push(...cs.map((c) => c.rowKey)));
    a.changed.length = 0;
    const r = saveRange(a.db, { clipId: a.clips[0]!, inFrame: 10, outFrame: 60, rate: RATE, name: 'hero', note: 'wide', rating: 'favorite', keywords: ['beach'] });
    const { uuid } = a.db.prepare('SELECT uuid FROM ranges WHERE id = ?').get(r.id) as { uuid: string };
    await a.sync.sync();
    // a pull hands the feed over table by table: the range, then its keywords
    await until('the range and its keyword on B', () => byName(b, 0)[0]?.keywords.length === 1);
    expect(byName(b, 0).map((x) => [x.name, x.note, x.rating, x.inFrame, x.outFrame, x.rate, x.keywords])).toEqual([['hero', 'wide', 'favorite', 10, 60, RATE, ['beach']]]);
    await until("B's views told", () => b.changed.some((ids) => ids.includes(b.clips[0]!)));
    await until("A's echo taken", () => echoes.includes(uuid));
    off();
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
    const both = (s: Seat) => JSON.stringify(byName(s, 0).map((x) => [x.name, x.note, x.rating])) === JSON.stringify([['hero take', 'soft focus', 'reject']]);
    await exchange('name from A, note and rating from B', both);
  });

  // Before server stamps the later edit by the editors' clocks won; now the first to reach the server over the version both saw.
  it('A and B change the same field over the same version: the first to reach the server wins on both seats, the other is told it lost', async () => {
    const [onA] = byName(a, 0);
    const [onB] = byName(b, 0);
    updateRange(a.db, onA!.id, { name: 'from A' });
    rate(a.db, { clipIds: [a.clips[1]!], rangeIds: [] }, 'favorite');
    await sleep(5); // B's edits are later than A's by the clock: that no longer matters
    updateRange(b.db, onB!.id, { name: 'from B' });
    rate(b.db, { clipIds: [b.clips[1]!], rangeIds: [] }, 'reject');
    // B sends first, A (the older edit) after
    await exchange('B\'s name and rating', (s) => byName(s, 0)[0]?.name === 'from B' && clipMarks(s.db, s.clips[1]!).rating === 'reject', true);
    // and A's older edit, sent last, did not win anywhere afterwards
    await sleep(300);
    for (const s of [a, b]) expect([byName(s, 0)[0]?.name, clipMarks(s.db, s.clips[1]!).rating]).toEqual(['from B', 'reject']);
    expect(a.lost).toEqual([
      { kind: 'range', key: (a.db.prepare('SELECT uuid FROM ranges WHERE id = ?').get(onA!.id) as { uuid: string }).uuid, fields: ['name'] },
      { kind: 'clip', key: String(teamClips[1]), fields: ['rating'] },
    ]);
    expect(unsentCount(a.db)).toBe(0);
  });

  it('B offline edits a name A changed meanwhile, and a note nobody touched: A\'s name stands on both seats, B\'s note lands on both', async () => {
    const made = saveRange(a.db, { clipId: a.clips[5]!, inFrame: 0, outFrame: 50, rate: RATE, name: 'first', note: '', rating: null, keywords: [] });
    await exchange('the range on both', (s) => byName(s, 5).length === 1);
    // B's link goes down (its app is away from the office); A renames, and the server has it
    await b.sync.stop();
    await b.link.stop();
    updateRange(a.db, made.id, { name: 'office, earlier' });
    await a.sync.sync();
    // B, offline and later than A by any clock, renames and writes a note over the version it last saw
    await sleep(5);
    const [onB] = byName(b, 5);
    updateRange(b.db, onB!.id, { name: 'laptop, later', note: 'from the laptop' });
    expect(byName(b, 5)[0]?.name).toBe('laptop, later');
    // B comes back
    Object.assign(b, await online(SEAT_B, 'b', b.db));
    await b.sync.sync();
    const settled = (s: Seat) => JSON.stringify(byName(s, 5).map((x) => [x.name, x.note])) === JSON.stringify([['office, earlier', 'from the laptop']]);
    await until('on B', () => settled(b));
    await until('on A', () => settled(a));
    expect(b.lost).toEqual([{ kind: 'range', key: (b.db.prepare('SELECT uuid FROM ranges WHERE id = ?').get(onB!.id) as { uuid: string }).uuid, fields: ['name'] }]);
    expect(unsentCount(b.db)).toBe(0);
    const c = await cluster.connectSeat(SEAT_A);
    const row = (await c.query('SELECT name, name_by, note, note_by FROM team.ranges WHERE clip_id = $1', [teamClips[5]])).rows;
    await c.end();
    expect(row).toEqual([{ name: 'office, earlier', name_by: SEAT_A, note: 'from the laptop', note_by: SEAT_B }]);
  });

  it('keywords added on both seats while apart are one set after; a removal later than the add removes on both', async () => {
    addKeywords(a.db, { clipIds: [a.clips[2]!], rangeIds: [] }, ['beach', 'day 1']);
    addKeywords(b.db, { clipIds: [b.clips[2]!], rangeIds: [] }, ['Beach', 'night']);
    const words = (s: Seat) => clipMarks(s.db, s.clips[2]!).keywords.map((k) => k.toLowerCase()).join('|');
    await exchange('one set of keywords', (s) => words(s) === 'beach|day 1|night');
    const c = await cluster.connectSeat(SEAT_A);
    const rows = await c.query('SELECT keyword_norm FROM team.keywords WHERE clip_id = $1 ORDER BY keyword_norm', [teamClips[2]]);
    expect(rows.rows.map((r) => r.keyword_norm)).toEqual(['beach', 'day 1', 'night']);
    await c.end();

    removeKeyword(b.db, { clipIds: [b.clips[2]!], rangeIds: [] }, 'day 1');
    await exchange('day 1 removed', (s) => words(s) === 'beach|night');
  });

  it('A deletes a range while B, not having seen it, edits the range later: it stays deleted on both seats', async () => {
    const made = saveRange(a.db, { clipId: a.clips[3]!, inFrame: 0, outFrame: 25, rate: RATE, name: 'doomed', note: '', rating: null, keywords: ['x'] });
    await exchange('the range on both', (s) => byName(s, 3).length === 1);
    const [onB] = byName(b, 3);
    deleteRange(a.db, made.id);
    await sleep(5); // B's edit is later than the delete, made before B could see it (nothing is sent in between)
    updateRange(b.db, onB!.id, { name: 'renamed after the delete' });
    addKeywords(b.db, { clipIds: [], rangeIds: [onB!.id] }, ['late']);
    await exchange('the range gone', (s) => byName(s, 3).length === 0);
    await until("B's views told", () => b.changed.some((ids) => ids.includes(b.clips[3]!)));
    await sleep(300);
    for (const s of [a, b]) expect(byName(s, 3)).toEqual([]);
  });

  it('marks of a clip B has not linked wait, and arrive when B links it; marks B made before linking are sent once linked', async () => {
    saveRange(a.db, { clipId: a.clips[6]!, inFrame: 5, outFrame: 15, rate: RATE, name: 'on an unlinked clip', note: '', rating: null, keywords: ['wait'] });
    await a.sync.sync();
    const waiting = () => (b.db.prepare('SELECT team_clip_id FROM marks_waiting').all() as { team_clip_id: number }[]).map((r) => r.team_clip_id);
    await until('B keeps the clip waiting', () => waiting().includes(teamClips[6]!));
    expect(byName(b, 6)).toEqual([]);
    link(b.db, b.clips[6]!, teamClips[6]!);
    await b.sync.sync();
    expect(byName(b, 6).map((x) => [x.name, x.keywords])).toEqual([['on an unlinked clip', ['wait']]]);
    expect(waiting()).not.toContain(teamClips[6]);

    // B marks its clip 7 before it is linked (solo, as far as that clip goes): kept for later, then sent
    saveRange(b.db, { clipId: b.clips[7]!, inFrame: 0, outFrame: 5, rate: RATE, name: 'before linking', note: '', rating: null, keywords: [] });
    await b.sync.sync();
    expect(unsentCount(b.db)).toBe(1);
    link(b.db, b.clips[7]!, teamClips[7]!);
    await b.sync.sync();
    expect(unsentCount(b.db)).toBe(0);
    await until('the range on A', () => byName(a, 7).map((x) => x.name).join() === 'before linking');
  });

  it('the server stopped while A makes marks: they are kept, and reach B after it comes back, sent when A\'s link is online again', async () => {
    await cluster.pause();
    const made = saveRange(a.db, { clipId: a.clips[4]!, inFrame: 100, outFrame: 150, rate: RATE, name: 'offline take', note: 'made while the server was down', rating: 'favorite', keywords: ['offline'] });
    rate(a.db, { clipIds: [a.clips[4]!], rangeIds: [] }, 'favorite');
    await expect(a.sync.sync()).rejects.toMatchObject({ kind: 'offline' });
    expect(a.link.online()).toBe(false);
    expect(unsentCount(a.db)).toBe(3); // the range, its keyword, the clip's rating
    expect(byName(a, 4).map((x) => x.id)).toEqual([made.id]); // browsing goes on from the catalog
    await cluster.resume();
    // Nothing more is asked of A: its link reconnects, turns online, and that starts a round.
    await until('the offline marks on B', () => byName(b, 4)[0]?.keywords.length === 1 && clipMarks(b.db, b.clips[4]!).rating === 'favorite', 30_000);
    expect(byName(b, 4).map((x) => [x.name, x.note, x.rating, x.keywords])).toEqual([['offline take', 'made while the server was down', 'favorite', ['offline']]]);
    expect(unsentCount(a.db)).toBe(0);
  });
});
