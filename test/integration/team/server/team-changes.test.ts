import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TeamChangeListener, type TeamWake } from '../../../../src-main/core/team/seat/change-listener';
import { currentTeamCursor, pullTeamChanges, type TeamChange } from '../../../../src-main/core/team/server/change-store';
import { joinSeat } from '../../../../src-main/core/team/server/seat-store';
import { adoptTeamClip, recordTeamClipLocation } from '../../../../src-main/core/team/server/team-clip-store';
import { describeWithPostgres, startPgCluster, type PgCluster, type SeatLogin } from '../../../helpers/team/pg-cluster';

/**
 * How a change made on one seat reaches the others: the feed read with a snapshot cursor (exact even
 * when writers commit out of order) and LISTEN/NOTIFY as the wake-up, reconnecting after the
 * connection is lost (docs/notes-team-library.md section 4).
 */
const SEAT = '00000000-0000-4000-8000-0000000000a1';
let n = 0;
const SEAT_2 = '00000000-0000-4000-8000-0000000000b2';
const clip = (seatId: string = SEAT) => ({ fingerprint: (++n).toString(16).padStart(64, 'c'), sizeBytes: n, fileName: `C${n}.mov`, seatId });
const keysOf = (cs: TeamChange[], table = 'clips') => cs.filter((c) => c.table === table).map((c) => Number(c.rowKey));

/** Resolves with the first wake-up that matches, or rejects after `ms` (a bounded wait, not a timing assertion). */
function waitFor(what: string, wakes: TeamWake[], match: (w: TeamWake) => boolean, ms = 10_000): Promise<TeamWake> {
  const start = wakes.length;
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no wake-up (${what}) within ${ms} ms; since the wait began: ${JSON.stringify(wakes.slice(start))}; all: ${JSON.stringify(wakes)}`));
    }, ms);
    const poll = setInterval(() => {
      const w = wakes.slice(start).find(match);
      if (w) {
        clearInterval(poll);
        clearTimeout(deadline);
        resolve(w);
      }
    }, 10);
  });
}

describeWithPostgres('team change feed on PostgreSQL', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let seatLogin: SeatLogin;
  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.migrate();
    admin = await cluster.connect(cluster.adminConfig());
    seatLogin = await cluster.seatLogin(SEAT);
    const s = await cluster.connect(seatLogin.config);
    await joinSeat(s, { seatId: SEAT, name: 'Edit A', roots: ['nas-footage'] });
    await s.end();
    const s2 = await cluster.connectSeat(SEAT_2);
    await joinSeat(s2, { seatId: SEAT_2, name: 'Edit B', roots: ['nas-footage'] });
    await s2.end();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('two writers committing out of order: the snapshot cursor sees both, each once', async () => {
    // Two seats: one seat's writing transactions take its write budget's row in turn (team migration 0009).
    const [reader, a, b] = [await cluster.connect(seatLogin.config), await cluster.connect(seatLogin.config), await cluster.connectSeat(SEAT_2)];
    let cursor = await currentTeamCursor(reader!);
    const seen: TeamChange[] = [];
    const pull = async () => {
      const r = await pullTeamChanges(reader!, cursor);
      seen.push(...r.changes);
      cursor = r.cursor;
    };

    await a!.query('BEGIN');
    const slow = await adoptTeamClip(a!, clip()); // takes its feed id first, commits last
    await b!.query('BEGIN');
    const fast = await adoptTeamClip(b!, clip(SEAT_2));
    await b!.query('COMMIT');
    await pull(); // between the two commits
    expect(keysOf(seen)).toEqual([fast.id]);
    await a!.query('COMMIT');
    await pull();
    await pull();

    expect(keysOf(seen).sort((x, y) => x - y)).toEqual([slow.id, fast.id]);
    // The situation a plain `id > last seen` cursor gets wrong: the slower writer's row has the lower id.
    const idOf = (key: number) => seen.find((c) => Number(c.rowKey) === key)!.id;
    expect(idOf(slow.id)).toBeLessThan(idOf(fast.id));
    expect(seen.every((c) => c.op === 'INSERT')).toBe(true);
    await Promise.all([reader!.end(), a!.end(), b!.end()]);
  });

  it('reads inserts, updates and deletes of both tables, in pages', async () => {
    const seat = await cluster.connect(seatLogin.config);
    const since = await currentTeamCursor(seat);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await adoptTeamClip(seat, clip()));
    await recordTeamClipLocation(seat, { clipId: made[0]!.id, rootKey: 'nas-footage', relPath: 'CARD_A/C1.mov', seatId: SEAT });
    await recordTeamClipLocation(seat, { clipId: made[0]!.id, rootKey: 'nas-footage', relPath: 'CARD_A/C1.mov', seatId: SEAT }); // seen again: an update
    await admin.query('DELETE FROM team.clips WHERE id = $1', [made[0]!.id]); // an administrator's delete (seats cannot)

    const { changes, cursor } = await pullTeamChanges(seat, since, 2);
    const ops = changes.map((c) => `${c.table} ${c.op}`);
    expect(ops.slice(0, 7)).toEqual([...made.map(() => 'clips INSERT'), 'clip_locations INSERT', 'clip_locations UPDATE']);
    // One statement's delete and its cascade: one transaction, in the order the server fires their triggers.
    expect(ops.slice(7).sort()).toEqual(['clip_locations DELETE', 'clips DELETE']);
    expect(keysOf(changes.filter((c) => c.op === 'DELETE'))).toEqual([made[0]!.id]);
    expect((await pullTeamChanges(seat, cursor)).changes).toEqual([]);
    await seat.end();
  });

  it('a NOTIFY reaches a listener on another connection; after its connection is cut it reconnects, and the pull finds what it missed', async () => {
    const wakes: TeamWake[] = [];
    const lost: string[] = [];
    const listener = new TeamChangeListener({
      newClient: () => new pg.Client({ ...seatLogin.config, application_name: 'team-listener-test' }),
      onWake: (w) => wakes.push(w),
      onDisconnect: (e) => lost.push(e.message),
      firstRetryMs: 300,
    });
    const writer = await cluster.connect(seatLogin.config);
    const reader = await cluster.connect(seatLogin.config);
    try {
      listener.start();
      await waitFor('first connection', wakes, (w) => w.reason === 'connected');
      let cursor = await currentTeamCursor(reader);

      // Each wait begins before its write: the notification may arrive before the writer hears its commit.
      const notified = waitFor('first notification', wakes, (w) => w.reason === 'notified');
      await adoptTeamClip(writer, clip());
      expect(await notified).toEqual({ reason: 'notified', table: 'clips' });

      // The server drops the listener's session; a change lands while it is away.
      const reconnected = waitFor('reconnection', wakes, (w) => w.reason === 'connected');
      const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'team-listener-test') t");
      expect(rows[0]!.n).toBe(1);
      const missed = await adoptTeamClip(writer, clip());
      await reconnected;
      expect(lost.length).toBeGreaterThanOrEqual(1);
      const pulled = await pullTeamChanges(reader, cursor);
      expect(keysOf(pulled.changes)).toContain(missed.id);
      cursor = pulled.cursor;

      // ...and it listens again.
      const notifiedAgain = waitFor('notification after reconnecting', wakes, (w) => w.reason === 'notified');
      const later = await adoptTeamClip(writer, clip());
      await notifiedAgain;
      expect(keysOf((await pullTeamChanges(reader, cursor)).changes)).toEqual([later.id]);
    } finally {
      await listener.stop();
      await Promise.all([writer.end(), reader.end()]);
    }
  });
});
