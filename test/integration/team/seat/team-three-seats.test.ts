import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Range } from '../../../../src-shared/contract/marks';
import { describeWithPostgres } from '../../../helpers/team/pg-cluster';
import { startTeamSeats, waitFor, type SeatProcess, type TeamSeats } from '../../../helpers/team/team-seats';

const CLIPS = 60;
/** A short lease (web mode's --team-lease-seconds), so a dead seat's clips go to the others soon. */
const LEASE_S = 6;
const QUERY = 'a person walking';

/**
 * The issue's "Must show" for a team library (issue 28): three app instances in web mode (child
 * processes, separate data folders) on one real PostgreSQL and one service emulator, importing one
 * folder of 60 distinct clips through three different paths. B is SIGKILLed while it holds claims;
 * PostgreSQL is stopped for 30 s. Everything goes over HTTP with each instance's token
 * (test/helpers/team/team-seats.ts).
 */
describeWithPostgres('team library: three seats, one folder, each clip indexed and billed once', () => {
  let team: TeamSeats;
  let A: SeatProcess;
  let B: SeatProcess;
  let C: SeatProcess;
  /** Team clip ids B held when it was killed. */
  let heldByB: number[] = [];

  const clipIdOn = async (seat: SeatProcess, fileName: string): Promise<{ id: number; rate: { num: number; den: number } }> => {
    const list = await seat.value<{ items: Array<{ id: number; name: string; rate: { num: number; den: number } | null }> }>('library.list', { query: fileName, limit: 10 });
    const clip = list.items.find((c) => c.name === fileName);
    if (!clip?.rate) throw new Error(`seat ${seat.name}: ${fileName} not in its library (or not probed)`);
    return { id: clip.id, rate: clip.rate };
  };
  const rangesOn = async (seat: SeatProcess, fileName: string): Promise<Range[]> =>
    (await seat.value<{ ranges: Range[] }>('marks.forClip', { clipId: (await clipIdOn(seat, fileName)).id })).ranges;
  const saveRange = async (seat: SeatProcess, fileName: string, name: string): Promise<Range> => {
    const clip = await clipIdOn(seat, fileName);
    return seat.value<Range>('marks.saveRange', { clipId: clip.id, inFrame: 2, outFrame: 12, rate: clip.rate, name });
  };

  beforeAll(async () => {
    // Task ids are the upload's request id: a seat taking over a dead seat's clip finds its tasks
    // by the lookup instead of submitting again (docs/notes-pipeline.md "Idempotency").
    team = await startTeamSeats({ seats: 3, clips: CLIPS, args: ['--team-lease-seconds', String(LEASE_S)], emulator: { taskIds: 'upload-request-id' } });
    [A, B, C] = team.seats as [SeatProcess, SeatProcess, SeatProcess];
  }, 180_000);

  afterAll(async () => {
    await team?.close();
  });

  it('B is SIGKILLed while it holds claims: A and C finish its clips after the lease, none lost, none twice', async () => {
    // This kill is about clips: not while B encodes the search's reference queries for the team, where a
    // seat killed in the middle of an encode_text call costs that one text twice (the spec has no lookup
    // for a lost answer; docs/notes-team-library.md).
    await waitFor(async () => {
      heldByB = await team.claimsHeldBy(B);
      const bank = await team.adminQuery<{ lease_owner: string | null }>('SELECT lease_owner FROM team.jobs WHERE clip_id IS NULL');
      const bankOnB = bank.some((j) => j.lease_owner === B.seatId);
      return { done: heldByB.length > 0 && !bankOnB, detail: bankOnB ? 'B encodes the reference queries' : 'B holds no claim yet' };
    }, 120_000, 'B to hold a claim', 100);
    await B.kill();

    await team.waitUntilIndexed([A, C]);
    const jobs = await team.adminQuery<{ state: string; n: string }>("SELECT state, COUNT(*) AS n FROM team.jobs WHERE stage = 'analysis' GROUP BY state");
    expect(Object.fromEntries(jobs.map((j) => [j.state, Number(j.n)]))).toEqual({ done: CLIPS });
    const results = await team.adminQuery<{ clip_id: string; published_by: string }>('SELECT clip_id, published_by FROM team.clip_results');
    expect(results.length).toBe(CLIPS);
    const by = new Map(results.map((r) => [Number(r.clip_id), r.published_by]));
    // What B held when it died was published by the seat that took the lease over.
    for (const id of heldByB) expect([A.seatId, C.seatId]).toContain(by.get(id));
  }, 300_000);

  it("B, started again on its data folder, catches up; every seat's search lists all 60 clips", async () => {
    await B.start();
    await team.waitUntilIndexed([A, B, C], 120_000);
    expect([...(await team.searchClipNames(A, QUERY))].sort(), 'seat A').toEqual(team.clipNames);
    // A's query vector reaches the team in the background (a search never waits on the server): B and C
    // search once it is there, as an editor typing the same words later would.
    await waitFor(async () => ({ done: (await team.adminQuery('SELECT 1 FROM team.text_vectors WHERE text_norm = $1', [QUERY])).length === 1 }), 10_000, "A's query vector in the team");
    for (const seat of [B, C]) expect([...(await team.searchClipNames(seat, QUERY))].sort(), `seat ${seat.name}`).toEqual(team.clipNames);
  }, 180_000);

  it('each clip was decoded, uploaded and submitted once for the team: 0 duplicate uploads, 0 duplicate submissions', async () => {
    const counts = team.serviceCounts();
    expect(counts.duplicateUploads).toBe(0);
    expect(counts.duplicateSubmissions).toBe(0);
    const segments = Number((await team.adminQuery<{ n: string }>('SELECT COUNT(*) AS n FROM team.segments'))[0]!.n);
    // A solo run of these clips (derived, not run here: bench:team runs one beside the team):
    // pipeline-index-all.test.ts shows a solo run uploads each segment's tensor once per service and
    // submits one task per upload, 0 duplicates. So its billable calls about clips are 4 per segment.
    expect(counts.tensorUploads).toBe(2 * segments);
    expect(counts.taskSubmissions).toBe(2 * segments);
    expect(counts.clipBillable).toBe(4 * segments);
  });

  it("billable calls in all equal a solo run's: each text the seats encode (the search's reference queries, the query) is billed once for the team", () => {
    const st = team.emulator.stats();
    const encodedTwice = Object.entries(st.textEncodes).filter(([, n]) => n > 1);
    expect(encodedTwice.length, `texts encoded more than once: ${encodedTwice.slice(0, 3).map(([t, n]) => `${t} x${n}`).join(', ')}`).toBe(0);
    const counts = team.serviceCounts();
    expect(counts.billable).toBe(counts.clipBillable + Object.keys(st.textEncodes).length);
  });

  it("a range made on A is listed by B, unasked (the time it takes is bench:team's mark_to_other_seat_p95_ms, goal 2 s)", async () => {
    const file = team.clipNames[0]!;
    const made = await saveRange(A, file, 'Selects from bay A');
    // A test asserts no wall-clock time: the bound is measured by the bench on a quiet machine.
    await waitFor(async () => ({ done: (await rangesOn(B, file)).some((r) => r.name === made.name), detail: 'not listed on B' }), 30_000, "A's range on B", 100);
  });

  it('PostgreSQL stopped for 30 s: every seat keeps searching, and marks ranges', async () => {
    await team.stopPostgres();
    try {
      const until = Date.now() + 30_000;
      let rounds = 0;
      while (Date.now() < until || rounds === 0) {
        for (const seat of [A, B, C]) expect([...(await team.searchClipNames(seat, QUERY))].sort(), `seat ${seat.name}, PostgreSQL down`).toEqual(team.clipNames);
        if (rounds === 0) {
          await saveRange(A, team.clipNames[1]!, 'Made on A while the server was down');
          await saveRange(C, team.clipNames[2]!, 'Made on C while the server was down');
        }
        rounds++;
        await new Promise((r) => setTimeout(r, 2000));
      }
      expect(rounds).toBeGreaterThan(1);
    } finally {
      await team.startPostgres();
    }
  }, 120_000);

  it('the marks made while PostgreSQL was down reach the other seats after it is back', async () => {
    const arrived = async (seat: SeatProcess, file: string, name: string) => (await rangesOn(seat, file)).some((r) => r.name === name);
    // Seats reconnect with a backoff of up to 30 s, then push what they made meanwhile.
    await waitFor(
      async () => {
        const seen = await Promise.all([
          arrived(B, team.clipNames[1]!, 'Made on A while the server was down'),
          arrived(C, team.clipNames[1]!, 'Made on A while the server was down'),
          arrived(A, team.clipNames[2]!, 'Made on C while the server was down'),
          arrived(B, team.clipNames[2]!, 'Made on C while the server was down'),
        ]);
        return { done: seen.every(Boolean), detail: `arrived (A's on B, A's on C, C's on A, C's on B): ${seen.join(', ')}` };
      },
      90_000,
      'the ranges made offline to reach the other seats',
      500,
    );
  }, 120_000);
});
