import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { currentTeamCursor, pullTeamChanges } from '../../src-main/core/team/server/change-store';
import { mergeClipMark, mergeKeyword, mergeRange, type ClipMarkState, type KeywordState, type RangeState, type Stamp } from '../../src-main/core/marks/marks-merge';
import { readTeamMarks, readTeamMarksOfClips, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../../src-main/core/team/server/team-marks-store';
import { adoptTeamClip } from '../../src-main/core/team/server/team-clip-store';
import { seededRandom } from '../../src-main/core/util/seeded-random';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

/**
 * The server's one-statement upserts of shared marks (team-marks-store.ts) keep what the pure rule
 * (marks-merge.ts) keeps, over random edits from two seats delivered in random orders, repeated.
 */
const SEATS = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000b2'] as const;

interface Versions {
  ranges: RangeState[];
  keywords: KeywordState[];
  clipMarks: ClipMarkState[];
}

/**
 * Two seats editing their own copies without seeing each other (the hard case: every conflict is
 * real), each change a whole version of its row as a seat sends it. Clocks of the two seats overlap
 * on purpose (same milliseconds), so ties between seats are exercised.
 */
function randomEdits(seed: number, clipIds: readonly number[], n: number): Versions {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: Versions = { ranges: [], keywords: [], clipMarks: [] };
  const clocks = [1_700_000_000_000, 1_700_000_000_000];
  const views = SEATS.map(() => ({ ranges: new Map<string, RangeState>(), keywords: new Map<string, KeywordState>(), clips: new Map<number, ClipMarkState>() }));
  const sharedRangeIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = Math.floor(r() * 2);
    // a seat's marks clock only goes forward; the two seats' clocks overlap, so they meet at the same millisecond
    clocks[s] = clocks[s]! + 1 + Math.floor(r() * 2);
    const stamp: Stamp = { at: clocks[s]!, by: SEATS[s]! };
    const v = views[s]!;
    const op = r();
    if (op < 0.15 || sharedRangeIds.length === 0) {
      const id = randomUUID();
      const inFrame = Math.floor(r() * 100);
      const range: RangeState = {
        id,
        clipId: pick(clipIds),
        span: { value: { inFrame, outFrame: inFrame + 1 + Math.floor(r() * 50), rateNum: 25, rateDen: 1 }, stamp },
        name: { value: `range ${i}`, stamp },
        note: { value: '', stamp },
        rating: { value: null, stamp },
        created: stamp,
        deleted: null,
      };
      sharedRangeIds.push(id);
      // both seats come to know the range (it was sent before they went their own ways)
      for (const w of views) w.ranges.set(id, range);
      out.ranges.push(range);
    } else if (op < 0.55) {
      const id = pick(sharedRangeIds);
      const held = v.ranges.get(id)!;
      const field = pick(['span', 'name', 'note', 'rating', 'delete'] as const);
      let next: RangeState;
      if (field === 'delete') next = { ...held, deleted: held.deleted ?? stamp };
      else if (field === 'span') {
        const inFrame = Math.floor(r() * 100);
        next = { ...held, span: { value: { inFrame, outFrame: inFrame + 1 + Math.floor(r() * 50), rateNum: pick([25, 24, 30000]), rateDen: pick([1, 1001]) }, stamp } };
      } else if (field === 'name') next = { ...held, name: { value: `name ${i} by ${s}`, stamp } };
      else if (field === 'note') next = { ...held, note: { value: `note ${i}`, stamp } };
      else next = { ...held, rating: { value: pick(['favorite', 'reject', null] as const), stamp } };
      v.ranges.set(id, next);
      out.ranges.push(next);
    } else if (op < 0.85) {
      const range = r() < 0.4 ? v.ranges.get(pick(sharedRangeIds))! : null;
      const clipId = range ? range.clipId : pick(clipIds);
      const norm = pick(['beach', 'day 1', 'hero']);
      const key = `${clipId}/${range?.id ?? ''}/${norm}`;
      const held = v.keywords.get(key);
      const add = r() < 0.6 || !held;
      const display = pick([norm, norm.toUpperCase(), norm[0]!.toUpperCase() + norm.slice(1)]);
      const next: KeywordState = add
        ? { clipId, rangeId: range?.id ?? null, norm, display, added: stamp, removed: held?.removed ?? null }
        : { ...held, removed: stamp };
      v.keywords.set(key, next);
      out.keywords.push(next);
    } else {
      const clipId = pick(clipIds);
      const next: ClipMarkState = { clipId, rating: { value: pick(['favorite', 'reject', null] as const), stamp } };
      v.clips.set(clipId, next);
      out.clipMarks.push(next);
    }
  }
  return out;
}

function shuffled<T>(xs: readonly T[], r: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** What the pure rule holds after every version, in the order given. */
function fold(v: Versions): Versions {
  const ranges = new Map<string, RangeState>();
  const keywords = new Map<string, KeywordState>();
  const clips = new Map<number, ClipMarkState>();
  for (const x of v.ranges) ranges.set(x.id, mergeRange(ranges.get(x.id) ?? null, x));
  for (const x of v.keywords) {
    const key = `${x.clipId}/${x.rangeId ?? ''}/${x.norm}`;
    keywords.set(key, mergeKeyword(keywords.get(key) ?? null, x));
  }
  for (const x of v.clipMarks) clips.set(x.clipId, mergeClipMark(clips.get(x.clipId) ?? null, x));
  return { ranges: [...ranges.values()], keywords: [...keywords.values()], clipMarks: [...clips.values()] };
}

const sorted = (v: Versions): Versions => ({
  ranges: [...v.ranges].sort((a, b) => a.id.localeCompare(b.id)),
  keywords: [...v.keywords].sort((a, b) => `${a.clipId}/${a.rangeId ?? ''}/${a.norm}`.localeCompare(`${b.clipId}/${b.rangeId ?? ''}/${b.norm}`)),
  clipMarks: [...v.clipMarks].sort((a, b) => a.clipId - b.clipId),
});

describeWithPostgres('shared marks on PostgreSQL: the upserts and the pure rule agree', () => {
  let cluster: PgCluster;
  let seat: pg.Client;
  const clipIds: number[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    // The merge rule, checked as the administrator: each version here mixes both seats' stamps (what a
    // seat sends once it holds the other's edits), which a seat's own login may only send when the
    // other's fields are as the server holds them (team migration 0011, team-attacks.test.ts).
    seat = await cluster.connect(cluster.adminConfig());
    for (const [i, s] of SEATS.entries()) await seat.query('INSERT INTO team.seats (seat_id, name) VALUES ($1, $2)', [s, `Edit ${i}`]);
    for (let i = 0; i < 4; i++) clipIds.push((await adoptTeamClip(seat, { fingerprint: (i + 1).toString(16).padStart(64, 'd'), sizeBytes: i, fileName: `M${i}.mov`, seatId: SEATS[0] })).id);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const send = async (v: Versions) => {
    // ranges before the keywords that name them (the foreign key); otherwise any order
    for (const x of v.ranges) await upsertTeamRange(seat, x);
    for (const x of v.clipMarks) await upsertTeamClipMark(seat, x);
    for (const x of v.keywords) await upsertTeamKeyword(seat, x);
  };

  it('random edits of two seats, delivered in random orders and twice over: the server holds what the rule holds', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      // fresh clips for each round, so rounds do not see each other's rows
      const round: number[] = [];
      for (let i = 0; i < 3; i++) round.push((await adoptTeamClip(seat, { fingerprint: `${seed}${i}`.padStart(64, 'e'), sizeBytes: i, fileName: `R${seed}-${i}.mov`, seatId: SEATS[1] })).id);
      const edits = randomEdits(seed, round, 300);
      const r = seededRandom(seed * 7919);
      const order1: Versions = { ranges: shuffled(edits.ranges, r), keywords: shuffled(edits.keywords, r), clipMarks: shuffled(edits.clipMarks, r) };
      const order2: Versions = { ranges: shuffled(edits.ranges, r), keywords: shuffled(edits.keywords, r), clipMarks: shuffled(edits.clipMarks, r) };
      await send(order1);
      await send(order2); // every version again, in another order: changes nothing

      const expected = sorted(fold(order1));
      // the rule itself does not depend on the order (the premise of sending offline edits later)
      expect(sorted(fold(order2))).toEqual(expected);
      const onServer = sorted(await readTeamMarksOfClips(seat, round));
      expect(onServer.ranges.length, `seed ${seed}`).toBeGreaterThan(10);
      expect(onServer.ranges.some((x) => x.deleted), `seed ${seed}: some range deleted`).toBe(true);
      expect(onServer.keywords.some((x) => x.removed), `seed ${seed}: some keyword removed`).toBe(true);
      expect(onServer, `seed ${seed}`).toEqual(expected);
    }
  });

  it('sending a version the server already holds writes no feed row; a change writes one, keyed as the feed names it', async () => {
    const [clipId] = clipIds;
    const s: Stamp = { at: 1_700_000_100_000, by: SEATS[0] };
    const range: RangeState = {
      id: randomUUID(),
      clipId: clipId!,
      span: { value: { inFrame: 0, outFrame: 10, rateNum: 25, rateDen: 1 }, stamp: s },
      name: { value: 'one', stamp: s },
      note: { value: '', stamp: s },
      rating: { value: null, stamp: s },
      created: s,
      deleted: null,
    };
    const kw: KeywordState = { clipId: clipId!, rangeId: range.id, norm: 'beach', display: 'Beach', added: s, removed: null };
    const mark: ClipMarkState = { clipId: clipId!, rating: { value: 'favorite', stamp: s } };
    await send({ ranges: [range], keywords: [kw], clipMarks: [mark] });
    const cursor = await currentTeamCursor(seat);
    await send({ ranges: [range], keywords: [kw], clipMarks: [mark] });
    await send({ ranges: [{ ...range, name: { value: 'older', stamp: { ...s, at: s.at - 1 } } }], keywords: [], clipMarks: [] });
    expect((await pullTeamChanges(seat, cursor)).changes).toEqual([]);

    const later = { ...s, at: s.at + 5 };
    await send({ ranges: [{ ...range, name: { value: 'two', stamp: later } }], keywords: [{ ...kw, removed: later }], clipMarks: [] });
    const changes = (await pullTeamChanges(seat, cursor)).changes;
    expect(changes.map((c) => [c.table, c.op])).toEqual([
      ['ranges', 'UPDATE'],
      ['keywords', 'UPDATE'],
    ]);
    const read = await readTeamMarks(seat, { rangeIds: [changes[0]!.rowKey], keywordIds: [Number(changes[1]!.rowKey)], clipIds: [clipId!] });
    expect(read.ranges[0]!.name.value).toBe('two');
    expect(read.keywords[0]).toEqual({ ...kw, removed: later });
    expect(read.clipMarks).toEqual([mark]);
  });

  it('a seat\'s own login cannot delete marks (tombstones instead)', async () => {
    const own = await cluster.connectSeat(SEATS[0]);
    await expect(own.query('DELETE FROM team.ranges')).rejects.toMatchObject({ code: '42501' });
    await expect(own.query('DELETE FROM team.keywords')).rejects.toMatchObject({ code: '42501' });
    await own.end();
  });
});
