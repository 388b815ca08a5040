/**
 * npm run bench:team — a team library (issue 28) at work and at scale, on a real PostgreSQL.
 *
 * 1. Seats: the same folder of distinct short clips indexed by one solo instance, then by three
 *    seats of a team (web-mode app instances as child processes, test/helpers/team/team-seats.ts), each
 *    against its own service emulator: wall time, duplicate uploads and submissions, billable calls
 *    side by side.
 * 2. The catalog alone at BENCH_SEGMENTS segments (512-d embeddings), on a fresh cluster with fsync
 *    on and 256 MB shared_buffers, through the app's own stores (team/*-store.ts), as the seat role:
 *    - writes: BENCH_WRITERS seats publish clips (claim the clip's job, publishClipResults in one
 *      transaction with the fenced completion), segments per second;
 *    - the feed's cost: feed rows and bytes per clip, per-clip publish time with the feed's trigger
 *      and without it (side by side on the same clips' shape), and one seat's pull of the whole feed;
 *    - the per-seat checks' cost: per-clip publish time as a seat with team migration 0011's guard
 *      triggers in place beside the owner with them disabled (bench/team-publish.ts, publishGuardCost);
 *    - claims: 10 concurrent seats with the same BENCH_CLAIM_CLIPS new clips in their queues (beside
 *      the whole catalog's done ones), each making every clip's look before its analysis as
 *      ClipSharing.beforeAnalysis does (lookAtClipJob: results? else claim, else who holds it), a
 *      claimed job completed at once; p50/p95/p99 of the looks;
 *    - a joining seat's first read of every clip's results (readClipResults, one connection);
 *    - the feed kept small: feed rows per real change and per no-op (a mark sent again), and the
 *      feed's rows after a simulated day of the writers' marking (24 hours: each seat marks, pulls
 *      and reports how far it read, any seat's round prunes) and its last prune;
 *    - the chosen vector path: that seat's local usearch index (the app's HnswVectorIndex) fed from
 *      the rows read, queried through the app's whole query path (bench/search-path.ts) with
 *      queries from the same clustered generator as bench:search; RSS of the index.
 * Last line: one JSON object.
 *
 * Env: BENCH_SEGMENTS=1000000  BENCH_CLIPS=60  BENCH_SEGMENTS_PER_CLIP=50  BENCH_WRITERS=3
 *      BENCH_CLAIM_CLIPS=1000  BENCH_QUERIES=200  BENCH_SKIP_SEATS=1 (part 2 only)
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import { pruneTeamFeed, pullTeamChanges, type TeamCursor } from '../src-main/core/team/server/change-store';
import { readClipResults } from '../src-main/core/team/server/clip-results-store';
import { reportFeedRead, joinSeat } from '../src-main/core/team/server/seat-store';
import { readTeamMarks, upsertTeamClipMark, upsertTeamKeyword, upsertTeamRange } from '../src-main/core/team/server/team-marks-store';
import type { RangeState } from '../src-main/core/marks/marks-merge';
import { adoptTeamClip } from '../src-main/core/team/server/team-clip-store';
import { completeTeamJob, enqueueTeamJob, lookAtClipJob } from '../src-main/core/team/server/team-job-store';
import { DEFAULT_HNSW_OPTIONS, HnswVectorIndex } from '../src-main/core/search/index/vector-index';
import { normalizeVector } from '../src-main/core/search/index/vector-math';
import buildIfStale from '../test/helpers/global-setup';
import { makeDistinctClips } from '../test/helpers/footage/distinct-copies';
import { startPgCluster, type PgCluster } from '../test/helpers/team/pg-server';
import { startTeamSeats, type SeatProcess, type ServiceCounts } from '../test/helpers/team/team-seats';
import { ClusteredVectors, realisticSpec } from '../test/helpers/catalog/vector-synthetic';
import { BENCH_CLUSTERS, measure, measureAppPath, pct, time } from './search-path';
import { DIM, PER_CLIP, PROFILE, pictures, publishAll, publishGuardCost, publishesHeldByBudget } from './team-publish';

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 1_000_000);
const CLIPS = Number(process.env.BENCH_CLIPS ?? 60);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 3);
const CLAIM_CLIPS = Number(process.env.BENCH_CLAIM_CLIPS ?? 1000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const SKIP_SEATS = process.env.BENCH_SKIP_SEATS === '1';
const CLAIMERS = 10;
/** A team's server, not the tests' throwaway one: durable writes and a server's cache. */
const SERVER_SETTINGS = { fsync: 'on', synchronous_commit: 'on', shared_buffers: "'256MB'", max_wal_size: "'4GB'" };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const rssMb = () => {
  gc();
  gc();
  return process.memoryUsage().rss / 2 ** 20;
};
const log = (msg: string) => process.stderr.write(`[bench:team] ${msg}\n`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  log(line);
};

// ---------------------------------------------------------------------------------------------
// 1. Seats

interface SeatRun {
  indexS: number;
  counts: ServiceCounts;
  textEncodes: number;
  segments: number | null;
  /** Milliseconds from a range saved on the first seat to the second seat listing it (team runs). */
  markMs: number[];
}

async function indexRun(seats: number, footageDir: string, workDir: string): Promise<SeatRun> {
  const t0 = performance.now();
  const team = await startTeamSeats({ seats, join: seats > 1, footageDir, workDir, emulator: { taskIds: 'upload-request-id' } });
  try {
    await team.waitUntilIndexed(undefined, 900_000);
    const indexS = (performance.now() - t0) / 1000;
    for (const s of team.seats) {
      const found = await team.searchClipNames(s, 'a person walking');
      if (found.size !== team.clipNames.length) throw new Error(`seat ${s.name}'s search lists ${found.size} of ${team.clipNames.length} clips`);
    }
    const segments = seats > 1 ? Number((await team.adminQuery<{ n: string }>('SELECT COUNT(*) AS n FROM team.segments'))[0]!.n) : null;
    const st = team.emulator.stats();
    const markMs = seats > 1 ? await markToOtherSeat(team.seats[0]!, team.seats[1]!, team.clipNames.slice(0, MARKS)) : [];
    return { indexS, counts: team.serviceCounts(), textEncodes: Object.values(st.textEncodes).reduce((a, b) => a + b, 0), segments, markMs };
  } finally {
    await team.close();
  }
}

/** Ranges made on one seat, one clip each. */
const MARKS = 20;

/**
 * The issue's "changes made on one seat reach the others within 2 s": a range saved on `a` (over HTTP,
 * as the viewer saves it), then `b`'s list of the clip's ranges read every 20 ms until it is there.
 */
async function markToOtherSeat(a: SeatProcess, b: SeatProcess, fileNames: readonly string[]): Promise<number[]> {
  const clipOn = async (seat: SeatProcess, name: string) => {
    const list = await seat.value<{ items: Array<{ id: number; name: string; rate: { num: number; den: number } | null }> }>('library.list', { query: name, limit: 10 });
    const clip = list.items.find((c) => c.name === name);
    if (!clip?.rate) throw new Error(`seat ${seat.name}: ${name} not in its library`);
    return { id: clip.id, rate: clip.rate };
  };
  const out: number[] = [];
  for (const name of fileNames) {
    const [ca, cb] = [await clipOn(a, name), await clipOn(b, name)];
    const rangeName = `bench ${name}`;
    const t0 = performance.now();
    await a.value('marks.saveRange', { clipId: ca.id, inFrame: 1, outFrame: 5, rate: ca.rate, name: rangeName });
    for (;;) {
      const { ranges } = await b.value<{ ranges: Array<{ name: string }> }>('marks.forClip', { clipId: cb.id });
      if (ranges.some((r) => r.name === rangeName)) break;
      if (performance.now() - t0 > 60_000) throw new Error(`a range made on ${a.name} never reached ${b.name}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    out.push(performance.now() - t0);
  }
  return out;
}

async function seatsPart(tmp: string, json: Record<string, unknown>): Promise<void> {
  await buildIfStale();
  process.env.REELSCOUT_KEY_DIR ??= path.join(tmp, 'keys');
  const footage = path.join(tmp, 'footage');
  const [, makeMs] = time(() => makeDistinctClips(footage, CLIPS));
  log(`${CLIPS} clips made in ${(makeMs / 1000).toFixed(1)} s`);
  log('solo: one instance indexes the clips');
  const solo = await indexRun(1, footage, path.join(tmp, 'solo'));
  log('team: three seats index the same clips');
  const team = await indexRun(3, footage, path.join(tmp, 'team'));
  say(`seats: ${CLIPS} clips of 1 s; solo ${solo.indexS.toFixed(1)} s, 3 seats ${team.indexS.toFixed(1)} s (start, import and index, wall)`);
  say(`  uploads ${solo.counts.tensorUploads} solo / ${team.counts.tensorUploads} team, duplicate uploads ${team.counts.duplicateUploads}, submissions ${solo.counts.taskSubmissions} / ${team.counts.taskSubmissions}, duplicate submissions ${team.counts.duplicateSubmissions}`);
  say(`  billable calls about clips ${solo.counts.clipBillable} solo / ${team.counts.clipBillable} team; text encodes ${solo.textEncodes} / ${team.textEncodes}; billable in all ${solo.counts.billable} / ${team.counts.billable}`);
  const marks = [...team.markMs].sort((x, y) => x - y);
  const pct = (q: number) => marks[Math.min(marks.length - 1, Math.floor(q * marks.length))]!;
  say(`  a range saved on one seat listed by another: p50 ${pct(0.5).toFixed(0)} / p95 ${pct(0.95).toFixed(0)} / max ${marks.at(-1)!.toFixed(0)} ms (${marks.length} ranges; goal 2000)`);
  Object.assign(json, {
    seats: 3,
    clips: CLIPS,
    mark_to_other_seat_p95_ms: round(pct(0.95), 0),
    duplicate_uploads: team.counts.duplicateUploads,
    duplicate_submits: team.counts.duplicateSubmissions,
    solo_index_s: round(solo.indexS, 1),
    team_index_s: round(team.indexS, 1),
    solo_clip_billable: solo.counts.clipBillable,
    team_clip_billable: team.counts.clipBillable,
    solo_billable: solo.counts.billable,
    team_billable: team.counts.billable,
    team_billable_over_solo: round(team.counts.billable / solo.counts.billable, 3),
    team_segments: team.segments,
  });
}

// ---------------------------------------------------------------------------------------------
// 2. The catalog alone

/** n normalised vectors from bench:search's clustered generator, row-major, and queries from the same clusters. */
function vectors(n: number): { data: Float32Array; queries: Float32Array[] } {
  const gen = new ClusteredVectors(realisticSpec(DIM, BENCH_CLUSTERS, 42));
  const data = new Float32Array(n * DIM);
  for (let off = 0; off < n; off += 65_536) gen.fill(data, Math.min(65_536, n - off), off);
  for (let i = 0; i < n; i++) normalizeVector(data.subarray(i * DIM, (i + 1) * DIM), DIM, data.subarray(i * DIM, (i + 1) * DIM));
  const qm = gen.next(QUERIES);
  const queries = Array.from({ length: QUERIES }, (_, i) => normalizeVector(qm.subarray(i * DIM, (i + 1) * DIM), DIM));
  return { data, queries };
}

/** A connection as the seat `seatId`, on its own login (as `npm run team:seat -- add` makes it). */
async function seatClient(cluster: PgCluster, seatId: string = randomUUID()): Promise<pg.Client> {
  const c = new pg.Client((await cluster.seatLogin(seatId)).config);
  await c.connect();
  return c;
}

async function catalogPart(tmp: string, json: Record<string, unknown>): Promise<void> {
  const pics = pictures(tmp);
  const clipsN = Math.ceil(SEGMENTS / PER_CLIP);
  const n = clipsN * PER_CLIP;
  log(`generating ${n} x ${DIM} clustered vectors`);
  const [{ data, queries }, genMs] = time(() => vectors(n));
  log(`generated in ${(genMs / 1000).toFixed(1)} s`);

  const cluster = await startPgCluster({ settings: SERVER_SETTINGS });
  const clients: pg.Client[] = [];
  try {
    await cluster.migrate();
    const seats = Array.from({ length: WRITERS }, () => randomUUID());
    for (const seatId of seats) clients.push(await seatClient(cluster, seatId));
    for (const [w, seatId] of seats.entries()) await joinSeat(clients[w]!, { seatId, name: `Bench writer ${w + 1}`, roots: ['nas-footage'] });

    // The team's clips and their analysis jobs, as seats importing the footage make them.
    const clipIds: number[] = new Array(clipsN);
    let made = 0;
    const [, adoptMs] = await timeAsync(() =>
      Promise.all(
        clients.map(async (client, w) => {
          for (;;) {
            const c = made++;
            if (c >= clipsN) return;
            const clip = await adoptTeamClip(client, { fingerprint: createHash('sha256').update(`clip ${c}`).digest('hex'), sizeBytes: 1e9 + c, fileName: `A${String(c).padStart(6, '0')}.mov`, seatId: seats[w]! });
            clipIds[c] = clip.id;
            await enqueueTeamJob(client, { clipId: clip.id, stage: 'analysis', payload: {} });
          }
        }),
      ),
    );
    say(`catalog: ${clipsN} clips x ${PER_CLIP} segments = ${n} segments of ${DIM}-d; clips and jobs made in ${(adoptMs / 1000).toFixed(1)} s`);

    // The feed's cost per write, side by side on the first clips: blocks of clips published with the
    // feed's trigger alternate with blocks published without it (the administrator disables it on this
    // throwaway cluster), so warm-up and the machine's load fall on both alike.
    const admin = await cluster.connect(cluster.adminConfig());
    // Two side-by-side measures of 2 x `sample` clips each (the feed's trigger, then the per-seat checks); the rest for the writers.
    const sample = Math.min(300, Math.floor(clipsN / 6));
    const block = 25;
    const withFeed: number[] = [];
    const withoutFeed: number[] = [];
    let feedAdded = 0;
    for (let start = 0; start < 2 * sample; start += block) {
      const on = (start / block) % 2 === 0;
      if (!on) await admin.query('ALTER TABLE team.clip_results DISABLE TRIGGER clip_results_changes_ins');
      const before = await feedRows(admin);
      await publishAll(clients.slice(0, 1), seats, clipIds.slice(0, Math.min(start + block, 2 * sample)), start, data, pics, on ? withFeed : withoutFeed);
      if (on) feedAdded += (await feedRows(admin)) - before;
      else await admin.query('ALTER TABLE team.clip_results ENABLE TRIGGER clip_results_changes_ins');
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const feedRowsPerClip = feedAdded / withFeed.length;
    say(`feed: ${feedRowsPerClip} row(s) per published clip (${round(feedRowsPerClip / PER_CLIP, 3)} per segment)`);
    say(`  publish of one clip (claim + ${PER_CLIP} segments + completion, 1 writer): ${mean(withFeed).toFixed(2)} ms with the feed's trigger, ${mean(withoutFeed).toFixed(2)} ms without`);

    // The per-seat checks' cost (team migration 0011), side by side on the next clips: a seat with the
    // guards in place against the owner with the publish's guard triggers disabled (re-enabled after).
    const guards = await publishGuardCost({ admin, seat: clients[0]!, seatId: seats[0]!, clipIds, first: 2 * sample, sample, block, data, pics });
    const guardRatio = mean(guards.guarded) / mean(guards.unguarded);
    say(
      `  the per-seat checks: publish of one clip ${mean(guards.guarded).toFixed(2)} ms as a seat with 0011's guards, ${mean(guards.unguarded).toFixed(2)} ms as the owner without them ` +
        `= ${guardRatio.toFixed(3)}x (${guards.guarded.length} + ${guards.unguarded.length} clips, blocks of ${block} alternating)`,
    );

    // Writes: the rest of the catalog, WRITERS seats at once.
    const [, writeMs] = await timeAsync(() => publishAll(clients, seats, clipIds, 4 * sample, data, pics));
    const written = (clipsN - 4 * sample) * PER_CLIP;
    const writesPerS = written / (writeMs / 1000);
    const sizes = (await admin.query<{ seg: string; thumbs: string; db: string }>(
      "SELECT pg_total_relation_size('team.segments') AS seg, pg_total_relation_size('team.thumbnails') AS thumbs, pg_database_size(current_database()) AS db",
    )).rows[0]!;
    const dbBytes = Number(sizes.db);
    say(`writes: ${written} segments by ${WRITERS} seats in ${(writeMs / 1000).toFixed(1)} s = ${Math.round(writesPerS)} segments/s (${Math.round(writesPerS / PER_CLIP)} clips/s, with ${PER_CLIP / 4} posters and a filmstrip each)`);
    say(`  on the server: team.segments ${Math.round(Number(sizes.seg) / 2 ** 20)} MB (${Math.round(Number(sizes.seg) / n)} bytes per segment), team.thumbnails ${Math.round(Number(sizes.thumbs) / 2 ** 20)} MB; the database ${Math.round(dbBytes / 2 ** 20)} MB = ${Math.round(dbBytes / n)} bytes per segment in all`);

    // One seat's pull of the whole feed (a seat back after a long absence).
    const pullClient = await seatClient(cluster);
    clients.push(pullClient);
    const [pulled, pullMs] = await timeAsync(() => pullTeamChanges(pullClient, '1:1:'));
    const feedBytes = Number((await admin.query<{ b: string }>("SELECT pg_total_relation_size('team.changes') AS b")).rows[0]!.b);
    const feedBytesPerRow = feedBytes / pulled.changes.length;
    say(`  the feed: ${pulled.changes.length} rows (clips adopted and published), ${Math.round(feedBytesPerRow)} bytes per row with its indexes; one seat's pull of all of it ${pullMs.toFixed(0)} ms`);

    // Claims, as the app makes them: every claimer is a seat that imported the same new card of
    // CLAIM_CLIPS clips beside the whole catalog's done ones, and walks its queue making each clip's
    // look before its analysis (ClipSharing.beforeAnalysis: lookAtClipJob, one statement: results?
    // else the job made or claimed, else who holds it).
    const claimClipIds: number[] = [];
    for (let i = 0; i < CLAIM_CLIPS; i++) {
      const clip = await adoptTeamClip(clients[0]!, { fingerprint: createHash('sha256').update(`claim clip ${i}`).digest('hex'), sizeBytes: 2e9 + i, fileName: `B${String(i).padStart(6, '0')}.mov`, seatId: seats[0]! });
      claimClipIds.push(clip.id);
    }
    const claimClients: pg.Client[] = [];
    const claimSeats = Array.from({ length: CLAIMERS }, () => randomUUID());
    for (const seatId of claimSeats) claimClients.push(await seatClient(cluster, seatId));
    clients.push(...claimClients);
    for (const [i, seatId] of claimSeats.entries()) await joinSeat(claimClients[i]!, { seatId, name: `Bench claimer ${i + 1}`, roots: [] });
    const lookLat: number[] = [];
    const claimedLat: number[] = [];
    const claimsOf = new Map<number, number>();
    let refused = 0;
    const [, claimWallMs] = await timeAsync(() =>
      Promise.all(
        claimClients.map(async (client, i) => {
          // Half the seats walk the card in import order (racing for the same rows), half from their own offset.
          const off = i % 2 ? Math.floor((i * CLAIM_CLIPS) / CLAIMERS) : 0;
          for (const clipId of [...claimClipIds.slice(off), ...claimClipIds.slice(0, off)]) {
            const t0 = performance.now();
            const look = await lookAtClipJob(client, { seat: claimSeats[i]!, clipId, stage: 'analysis', profileId: PROFILE, leaseMs: 30_000 });
            const ms = performance.now() - t0;
            lookLat.push(ms);
            if (look.kind !== 'claimed') continue;
            const job = look.job;
            claimedLat.push(ms);
            claimsOf.set(job.id, (claimsOf.get(job.id) ?? 0) + 1);
            if (!(await completeTeamJob(client, claimSeats[i]!, job)).ok) refused++;
          }
        }),
      ),
    );
    lookLat.sort((a, b) => a - b);
    claimedLat.sort((a, b) => a - b);
    const claimed = [...claimsOf.values()];
    const doubleClaims = claimed.filter((n) => n > 1).length;
    const left = Number((await admin.query<{ n: string }>("SELECT COUNT(*) AS n FROM team.jobs WHERE state <> 'done'")).rows[0]!.n);
    const claimP = { p50: pct(lookLat, 0.5), p95: pct(lookLat, 0.95), p99: pct(lookLat, 0.99) };
    const claimsPerS = claimed.length / (claimWallMs / 1000);
    say(
      `claims: ${CLAIMERS} seats each making the look before analysis of the same ${CLAIM_CLIPS} new clips, beside ${clipsN} done: ${lookLat.length} looks, ` +
        `p50 ${claimP.p50.toFixed(2)} / p95 ${claimP.p95.toFixed(2)} / p99 ${claimP.p99.toFixed(2)} ms (the ${claimedLat.length} that claimed: p95 ${pct(claimedLat, 0.95).toFixed(2)} ms); ` +
        `${Math.round(claimsPerS)} claims+completions/s; clips claimed ${claimsOf.size}, claimed twice ${doubleClaims}, refused completions ${refused}, jobs left open ${left}`,
    );
    await admin.end();

    // A joining seat's first read: every clip's published results, one connection.
    const joinClient = await seatClient(cluster);
    clients.push(joinClient);
    const read = new Float32Array(n * DIM);
    const [, readMs] = await timeAsync(async () => {
      for (let c = 0; c < clipsN; c++) {
        const r = await readClipResults(joinClient, clipIds[c]!, PROFILE);
        if (!r || r.segments.length !== PER_CLIP) throw new Error(`clip ${clipIds[c]}: ${r?.segments.length ?? 'no'} segments read`);
        r.segments.forEach((s, i) => read.set(new Float32Array(s.vector.buffer, s.vector.byteOffset, DIM), (c * PER_CLIP + i) * DIM));
      }
    });
    const same = read.every((v, i) => v === data[i]);
    if (!same) throw new Error('the vectors read back differ from those published');
    say(`first sync of a joining seat: ${n} segments (${clipsN} clips) read in ${(readMs / 1000).toFixed(1)} s = ${Math.round(n / (readMs / 1000))} segments/s, vectors identical`);

    // The chosen vector path: the seat's local index fed from what it read.
    const rss0 = rssMb();
    const index = new HnswVectorIndex();
    const [, buildMs] = time(() => {
      for (let off = 0; off < n; off += 65_536) {
        const rows = Math.min(65_536, n - off);
        index.addBatch(Array.from({ length: rows }, (_, i) => off + i), read.subarray(off * DIM, (off + rows) * DIM));
      }
    });
    const indexRss = rssMb() - rss0;
    const raw = measure(queries, (q) => index.search(q, 10));
    const app = measureAppPath(index, read, n, queries);
    say(`search: local usearch index (${DEFAULT_HNSW_OPTIONS.quantization}) over ${n} segments built in ${(buildMs / 1000).toFixed(1)} s, ${Math.round(indexRss)} MB RSS; index p95 ${raw.lat.p95.toFixed(2)} ms; app path p50 ${app.lat.p50.toFixed(2)} / p95 ${app.lat.p95.toFixed(2)} ms, recall@10 ${app.recall.toFixed(3)}`);

    const feedAdmin = await cluster.connect(cluster.adminConfig());
    const day = await dayOfMarks(feedAdmin, clients.slice(0, WRITERS), seats, clipIds);
    await feedAdmin.end();
    say(
      `feed kept small: ${day.perChange} feed row per real change, ${day.perNoop} per no-op (a mark sent again); a day of marking by ${WRITERS} seats ` +
        `(${day.written} feed rows written, a prune each hour) leaves ${day.afterPrune} rows after the last prune; the publishes held by the write budget: ${publishesHeldByBudget()}`,
    );

    Object.assign(json, {
      segments: n,
      segments_per_clip: PER_CLIP,
      writers: WRITERS,
      claim_looks: lookLat.length,
      claim_p50_ms: round(claimP.p50),
      claim_p95_ms: round(claimP.p95),
      claim_p99_ms: round(claimP.p99),
      claims_per_s: Math.round(claimsPerS),
      claim_double: doubleClaims,
      claim_refused: refused,
      claim_jobs_left: left,
      writes_per_s: Math.round(writesPerS),
      segment_bytes: Math.round(Number(sizes.seg) / n),
      database_bytes_per_segment: Math.round(dbBytes / n),
      feed_rows_per_clip: feedRowsPerClip,
      feed_bytes_per_row: Math.round(feedBytesPerRow),
      publish_ms_with_feed: round(mean(withFeed)),
      publish_ms_without_feed: round(mean(withoutFeed)),
      publish_ms_guarded: round(mean(guards.guarded)),
      publish_ms_unguarded: round(mean(guards.unguarded)),
      publish_guard_ratio: round(guardRatio, 3),
      feed_pull_ms: Math.round(pullMs),
      feed_pull_changes: pulled.changes.length,
      join_read_s: round(readMs / 1000, 1),
      join_read_rows_per_s: Math.round(n / (readMs / 1000)),
      index_build_s: round(buildMs / 1000, 1),
      index_rss_mb: Math.round(indexRss),
      index_p95_ms: round(raw.lat.p95),
      search_1m_p50_ms: round(app.lat.p50),
      search_1m_p95_ms: round(app.lat.p95),
      search_recall_at_10: round(app.recall, 3),
      feed_rows_per_change: day.perChange,
      feed_rows_per_noop: day.perNoop,
      feed_rows_after_prune: day.afterPrune,
      feed_rows_in_day: day.written,
      writes_budget_waits: publishesHeldByBudget(),
    });
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await cluster.stop();
  }
}

/**
 * A day of the writers' marking, in 24 hours: each hour every seat in turn saves ranges with keywords
 * and rates clips through the app's marks store, then pulls the feed from its cursor and reports how
 * far it read (as TeamSeat does after each pull), and one seat's round prunes. Feed rows per change are
 * measured on a block of renames (one real change each), per no-op on the same versions sent again.
 */
async function dayOfMarks(admin: pg.Client, writers: pg.Client[], seats: string[], clipIds: number[]): Promise<{ perChange: number; perNoop: number; afterPrune: number; written: number }> {
  const HOURS = 24;
  const RANGES_AN_HOUR = 20;
  const cursors: TeamCursor[] = writers.map(() => '1:1:');
  let written = 0;
  let perChange = 0;
  let perNoop = 0;
  let t = Date.now();
  const stamp = (by: string) => ({ at: ++t, by });
  for (let hour = 0; hour < HOURS; hour++) {
    for (const [w, client] of writers.entries()) {
      const by = seats[w]!;
      const before = await feedRows(admin);
      const ranges: RangeState[] = [];
      for (let i = 0; i < RANGES_AN_HOUR; i++) {
        const clipId = clipIds[(hour * 997 + w * 131 + i * 17) % clipIds.length]!;
        const s = stamp(by);
        const r: RangeState = { id: randomUUID(), clipId, span: { value: { inFrame: i, outFrame: i + 50, rateNum: 25, rateDen: 1 }, stamp: s }, name: { value: `take ${hour}.${i}`, stamp: s }, note: { value: '', stamp: s }, rating: { value: null, stamp: s }, created: s, deleted: null };
        ranges.push(r);
        await upsertTeamRange(client, r);
        for (const kw of ['dusk', `day ${hour}`]) await upsertTeamKeyword(client, { clipId, rangeId: r.id, norm: kw, display: kw, added: stamp(by), removed: null });
        if (i % 4 === 0) await upsertTeamClipMark(client, { clipId, rating: { value: i % 8 === 0 ? 'favorite' : 'reject', stamp: stamp(by) } });
      }
      if (hour === 0 && w === 0) {
        // over the name's stamp the server gave it (team migration 0014: a change lands only over the version held)
        const held = (await readTeamMarks(client, { rangeIds: ranges.map((r) => r.id), keywordIds: [], clipIds: [] })).ranges;
        const renamed = held.map((r) => ({ ...r, name: { value: `${r.name.value} (renamed)`, stamp: r.name.stamp } }));
        const r0 = await feedRows(admin);
        for (const r of renamed) await upsertTeamRange(client, r);
        const r1 = await feedRows(admin);
        for (const r of renamed) await upsertTeamRange(client, r);
        perChange = (r1 - r0) / renamed.length;
        perNoop = ((await feedRows(admin)) - r1) / renamed.length;
      }
      written += (await feedRows(admin)) - before;
      const pulled = await pullTeamChanges(client, cursors[w]!);
      cursors[w] = pulled.cursor;
      await reportFeedRead(client, by, pulled.cursor);
    }
    await pruneTeamFeed(writers[hour % writers.length]!);
  }
  return { perChange, perNoop, afterPrune: await feedRows(admin), written };
}

async function feedRows(admin: pg.Client): Promise<number> {
  return Number((await admin.query<{ n: string }>('SELECT COUNT(*) AS n FROM team.changes')).rows[0]!.n);
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-bench-team-'));
  const json: Record<string, unknown> = { cores: os.availableParallelism(), load_at_start: os.loadavg().map((x) => round(x, 1)) };
  try {
    if (!SKIP_SEATS) await seatsPart(tmp, json);
    await catalogPart(tmp, json);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  json.load_at_end = os.loadavg().map((x) => round(x, 1));
  console.log(`Team library, ${os.availableParallelism()} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  for (const l of lines) console.log(l);
  console.log(JSON.stringify(json));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:team: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
