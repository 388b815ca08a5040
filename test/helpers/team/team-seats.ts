import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Envelope } from '../../../src-shared/contract';
import type { JobsSummary } from '../../../src-shared/contract/jobs';
import type { SearchResponse } from '../../../src-shared/contract/search';
import type { TeamConnectionSettings } from '../../../src-shared/contract/team';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/server';
import { makeDistinctClips } from '../footage/distinct-copies';
import { REPO_ROOT } from '../paths';
import { startPgCluster, type PgCluster } from './pg-server';

/**
 * N seats of a team library as the issue's "Must show" runs them: a real PostgreSQL (pg-server.ts,
 * migrated), the service emulator over real HTTP with one API key, and N app instances in web mode,
 * each a child process running the app's own entry (out/main/web.js, what `npm run start:web` runs)
 * with a data folder of its own, so a test can SIGKILL one. Each seat is set up only through the
 * contract over HTTP with its own token: `team.configure` to join, the emulator's address and key in
 * Settings, `library.import` of the footage through its own path.
 *
 * The footage is one folder of distinct short clips (distinct-copies.ts) reached by each seat at a
 * path of its own. The paths are hard links of the same files in one folder per seat (the same
 * inodes, as one share mounted at different places): symlinks would not do, since an import
 * resolves real paths, and bind mounts need privileges a CI runner may not have.
 *
 * The app's timings that tests shorten are its own command-line flags (web/main.ts, such as
 * `--team-lease-seconds`): `args` reach every seat.
 */

export const TEAM_API_KEY = 'rs-team-seats-4b7e91d2c0';
const WEB_ENTRY = path.join(REPO_ROOT, 'out', 'main', 'web.js');
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
/** The service's billable routes whose calls are about a clip (not search's encode_text, nor collections). */
const CLIP_BILLABLE = ['POST /files/upload/tensors', 'POST /video_embedding/encode_video/async', 'POST /video_tagging/async', 'POST /video_embedding/encode_video', 'POST /video_tagging'];

export interface SeatProcess {
  /** 'A', 'B', 'C'... */
  readonly name: string;
  readonly dataDir: string;
  /** This seat's path to the shared footage. */
  readonly footage: string;
  /** The seat's id in team.seats once joined (null while solo). */
  seatId: string | null;
  /** The child's pid while it runs. */
  pid(): number | null;
  /** A contract method over HTTP with this instance's token. */
  call(method: string, args?: unknown): Promise<Envelope>;
  /** The same, throwing the app's error kind and message unless it succeeded. */
  value<T = Record<string, unknown>>(method: string, args?: unknown): Promise<T>;
  /** Starts (or restarts, on the same data folder) the instance; resolves once it serves. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown of any kind; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the app's own shutdown. */
  stop(): Promise<void>;
  /** What the instance printed (stdout and stderr), for a failing test's message. */
  output(): string;
  /** The address with the session token the instance printed (`Open: ...`), for a browser. */
  openUrl(): string;
}

export interface ServiceCounts {
  tensorUploads: number;
  duplicateUploads: number;
  taskSubmissions: number;
  duplicateSubmissions: number;
  /** Successful billable calls of the key, all routes (text encodes for search included). */
  billable: number;
  /** Successful billable calls about clips: tensor uploads and task submissions (sync and async). */
  clipBillable: number;
}

export interface TeamSeats {
  cluster: PgCluster;
  emulator: EmulatorHandle;
  seats: SeatProcess[];
  /** The footage's one folder and its clips' file names. */
  footageDir: string;
  clipNames: string[];
  /** A query as the administrator (superuser), on a connection of its own: checks of the team tables, never the app's path. */
  adminQuery<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Waits until each given seat's Jobs summary counts every clip of the footage done; throws with each seat's summary on timeout. */
  waitUntilIndexed(seats?: SeatProcess[], timeoutMs?: number): Promise<void>;
  serviceCounts(): ServiceCounts;
  /** File names of the clips a text search on `seat` lists (every card, strictness any). */
  searchClipNames(seat: SeatProcess, text: string): Promise<Set<string>>;
  /** Clip ids (team ids) whose jobs `seat` holds by a lease now. */
  claimsHeldBy(seat: SeatProcess): Promise<number[]>;
  /** pg_ctl stop / start on the same data and port. */
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  close(): Promise<void>;
}

export interface TeamSeatsOptions {
  seats?: number;
  clips?: number;
  /** Length of each clip (default 1 s). */
  clipSeconds?: number;
  /** More of web mode's flags for every seat (`--team-lease-seconds 6`). */
  args?: string[];
  /** false: the seats stay solo (a solo run of the same clips, for comparison). Default true. */
  join?: boolean;
  /** Footage made already (makeDistinctClips), to share between runs. */
  footageDir?: string;
  emulator?: Partial<EmulatorOptions>;
  /** Where everything lives (default: a temp folder removed by close). */
  workDir?: string;
  /** What each seat imports at the start (default: its whole path to the footage; none: nothing). */
  importOf?: (seat: SeatProcess) => string[];
}

/** Polls `check` every `everyMs` until it says done; what it last said (or threw) is in the timeout's error. */
export async function waitFor(check: () => Promise<{ done: boolean; detail?: unknown }>, timeoutMs: number, what: string, everyMs = 250): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const r = await check();
      if (r.done) return;
      last = r.detail;
    } catch (e) {
      last = e instanceof Error ? e.message : e;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${typeof last === 'string' ? last : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function startSeatProcess(name: string, dataDir: string, footage: string, args: readonly string[]): SeatProcess {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let url = '';
  let token = '';
  let printed = '';
  let out = '';
  const call = async (method: string, args: unknown = {}): Promise<Envelope> => {
    const res = await fetch(`${url}/rpc/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-reelscout-token': token },
      body: JSON.stringify(args),
    });
    return (await res.json()) as Envelope;
  };
  const seat: SeatProcess = {
    name,
    dataDir,
    footage,
    seatId: null,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid! : null),
    call,
    async value<T>(method: string, args: unknown = {}) {
      const env = await call(method, args);
      if (!env.ok) throw new Error(`seat ${name}: ${method}: ${env.error.kind}: ${env.error.message}`);
      return env.value as T;
    },
    async start() {
      if (seat.pid()) throw new Error(`seat ${name} is running`);
      out = '';
      const c = spawn(process.execPath, [WEB_ENTRY, '--data-dir', dataDir, '--port', '0', '--renderer-dir', RENDERER, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      exited = new Promise((resolve) => c.once('exit', () => resolve()));
      const open = await new Promise<string>((resolve, reject) => {
        const onData = (b: Buffer) => {
          out += b.toString();
          const m = /^Open: (\S+)$/m.exec(out);
          if (m) resolve(m[1]!);
        };
        c.stdout!.on('data', onData);
        c.stderr!.on('data', (b: Buffer) => (out += b.toString()));
        void exited.then(() => reject(new Error(`seat ${name} exited before serving:\n${out}`)));
      });
      printed = open;
      const u = new URL(open);
      token = u.searchParams.get('token') ?? '';
      url = u.origin;
    },
    async kill() {
      child?.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child?.kill('SIGTERM');
      await exited;
    },
    output: () => out,
    openUrl: () => printed,
  };
  return seat;
}

/** A folder of hard links to every file of `source`: the same files at another path. */
function linkFolder(source: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const f of fs.readdirSync(source)) fs.linkSync(path.join(source, f), path.join(dest, f));
}

/**
 * Starts PostgreSQL (migrated), the emulator and `seats` instances, makes the footage (unless given),
 * and sets every seat up over HTTP: the emulator and its key, joining the team (unless `join: false`),
 * then importing the footage through the seat's own path. Seats import one after another in name
 * order, the way editors arrive; the test decides what to wait for.
 */
export async function startTeamSeats(o: TeamSeatsOptions = {}): Promise<TeamSeats> {
  const n = o.seats ?? 3;
  const work = o.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rs-team-seats-'));
  const ownWork = o.workDir === undefined;
  const footageDir = o.footageDir ?? path.join(work, 'footage');
  if (!o.footageDir) makeDistinctClips(footageDir, o.clips ?? 60, { seconds: o.clipSeconds ?? 1 });
  const clipNames = fs.readdirSync(footageDir).sort();

  const cluster = await startPgCluster();
  const emulator = await startEmulator({ keys: [TEAM_API_KEY], ...o.emulator });
  const seats: SeatProcess[] = [];
  const close = async () => {
    await Promise.all(seats.map((s) => s.kill()));
    await emulator.close();
    await cluster.stop();
    if (ownWork) fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    await cluster.migrate();
    for (let i = 0; i < n; i++) {
      const name = String.fromCharCode(65 + i);
      // Three mount points of one share, as three workstations name it.
      const footage = path.join(work, `seat-${name}`, ['Volumes/NAS', 'mnt/nas', 'media/footage'][i % 3]!, 'card');
      linkFolder(footageDir, footage);
      const seat = startSeatProcess(name, path.join(work, `seat-${name}`, 'data'), footage, o.args ?? []);
      seats.push(seat);
      await seat.start();
      // Joined before the service is set up: a seat set up alone first encodes the search's reference queries itself.
      if (o.join !== false) {
        // Each seat with its own login, as the administrator adds it (npm run team:seat -- add).
        const login = await cluster.addSeat();
        const settings: TeamConnectionSettings = login.settings(`Edit bay ${name}`);
        const joined = await seat.value<{ seatId: string }>('team.configure', { settings, password: login.password });
        seat.seatId = joined.seatId;
      }
      await seat.value('settings.update', { baseUrls: { asia: emulator.url } });
      await seat.value('settings.setApiKey', { key: TEAM_API_KEY });
    }
        for (const seat of seats) {
      const paths = o.importOf?.(seat) ?? [seat.footage];
      if (paths.length > 0) await seat.value('library.import', { paths });
    }
  } catch (e) {
    await close();
    throw e;
  }
  const adminQuery = async <R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const c = await cluster.connect(cluster.adminConfig());
    try {
      return (await c.query<R>(sql, params)).rows;
    } finally {
      await c.end();
    }
  };

  const summaryOf = (s: SeatProcess) => s.value<JobsSummary>('jobs.summary');
  return {
    cluster,
    emulator,
    seats,
    footageDir,
    clipNames,
    adminQuery,
    async waitUntilIndexed(which = seats.filter((s) => s.pid() !== null), timeoutMs = 300_000) {
      const total = clipNames.length;
      await waitFor(
        async () => {
          const sums = await Promise.all(which.map(summaryOf));
          return {
            done: sums.every((x) => x.clips.total === total && x.clips.done === total),
            detail: which.map((s, i) => `${s.name}: ${JSON.stringify(sums[i]!.clips)}`).join('; '),
          };
        },
        timeoutMs,
        `every seat's Jobs summary to count ${total} clips done`,
        500,
      ).catch((e: Error) => {
        throw new Error(`${e.message}\n${which.map((s) => `--- seat ${s.name} output:\n${s.output().slice(-2000)}`).join('\n')}`);
      });
    },
    serviceCounts() {
      const st = emulator.stats();
      const ok = (endpoint: string) => Object.entries(st.byEndpoint[endpoint]?.statuses ?? {}).reduce((sum, [code, c]) => sum + (code.startsWith('2') ? c : 0), 0);
      return {
        tensorUploads: st.tensorUploads,
        duplicateUploads: st.duplicateTensorUploads,
        taskSubmissions: st.taskSubmissions,
        duplicateSubmissions: st.duplicateTaskSubmissions,
        billable: st.keys[TEAM_API_KEY]?.used ?? 0,
        clipBillable: CLIP_BILLABLE.reduce((sum, e) => sum + ok(e), 0),
      };
    },
    async searchClipNames(seat, text) {
      const r = await seat.value<SearchResponse>('search.text', { text, topK: 500, strictness: 'any', collections: false });
      if (r.cannotRun) throw new Error(`seat ${seat.name}: search cannot run: ${r.cannotRun.kind}: ${r.cannotRun.message}`);
      return new Set(r.results.map((x) => path.basename(x.clipPath)));
    },
    async claimsHeldBy(seat) {
      const held = await adminQuery<{ clip_id: string }>("SELECT DISTINCT clip_id FROM team.jobs WHERE lease_owner = $1 AND state = 'running' AND clip_id IS NOT NULL", [seat.seatId]);
      return held.map((r) => Number(r.clip_id));
    },
    stopPostgres: () => cluster.pause(),
    startPostgres: () => cluster.resume(),
    close,
  };
}
