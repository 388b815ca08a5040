import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateTeamSchema } from '../../../src-main/core/team/server/migrate-team';
import { addSeatLogin } from '../../../src-main/core/team/server/seat-login-store';
import type { TeamConnectionSettings } from '../../../src-shared/contract/team';
import { REPO_ROOT } from '../paths';

/**
 * A throwaway PostgreSQL cluster for the team library's tests: initdb + pg_ctl in a temp folder, on
 * a free loopback port, as an unprivileged user (initdb and postgres refuse root: as root the server
 * runs as `nobody` through setpriv). The team database is prepared by the administrator's own script
 * (scripts/team-server-setup.sql), and each seat's login is made as `npm run team:seat -- add` makes
 * it (seat-login-store.ts), so the seats the tests use have exactly the app's privileges.
 */

/** The folder of the server programs: REELSCOUT_PG_BIN when set (only there), on PATH, else Debian's newest /usr/lib/postgresql/N/bin. */
export function findPgBin(): string | null {
  const chosen = process.env.REELSCOUT_PG_BIN;
  if (chosen) return fs.existsSync(path.join(chosen, 'initdb')) && fs.existsSync(path.join(chosen, 'pg_ctl')) ? chosen : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const dir = path.join(base, v, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

export const PG_BIN = findPgBin();
/** The reason given when the team tests skip: the only one is a machine without PostgreSQL. */
export const PG_MISSING = 'skipped: initdb/pg_ctl not found in REELSCOUT_PG_BIN, on PATH or under /usr/lib/postgresql/*/bin (apt-get install postgresql)';

export const TEAM_DATABASE = 'reelscout_team';

/** A seat's own login, as the administrator hands it over: its role, its one-time password. */
export interface SeatLogin {
  role: string;
  password: string;
  /** Over TCP with its password (scram-sha-256). */
  config: pg.ClientConfig;
  /** What the seat's Settings form holds for this cluster (over TCP, no TLS), under `seatName`. */
  settings(seatName: string): TeamConnectionSettings;
}

export interface PgCluster {
  port: number;
  /** The administrator (superuser, over the cluster's unix socket): migrations and test set-up only. */
  adminConfig(database?: string): pg.ClientConfig;
  /**
   * A new seat login (the migrations must have run): bound to `seatId` when given, else to the seat
   * id of its first join, as `npm run team:seat -- add NAME [--seat UUID]` makes it.
   */
  addSeat(o?: { seatId?: string }): Promise<SeatLogin>;
  /** The login bound to `seatId`, made on first use (store-level tests that name their seats). */
  seatLogin(seatId: string): Promise<SeatLogin>;
  /** A connection as the seat `seatId` (its own login). */
  connectSeat(seatId: string): Promise<pg.Client>;
  /** A connected client; ended by `stop` if the test has not ended it. */
  connect(config: pg.ClientConfig): Promise<pg.Client>;
  /** With `tls`: the PEM of the throwaway CA that signed the server's certificate (for `localhost` only). */
  caPem: string | null;
  /** Applies the app's team migrations as the administrator. */
  migrate(): Promise<void>;
  /**
   * The team's lease length (team migration 0017: 30 s, what the app asks), raised as the
   * administrator would for tests whose holders keep their clips longer than the app's lease.
   */
  setLeaseLength(seconds: number): Promise<void>;
  /** Server log so far (for a failing test's message). */
  log(): string;
  /** Stops the server (clients see their connections go), keeping its data: `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const ADMIN = 'team_admin';

/**
 * A throwaway CA and a server certificate it signs for the name `localhost` only (not 127.0.0.1), so a
 * test can show both an untrusted certificate and a host name the certificate does not name.
 */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => path.join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=reelscout test CA', '-keyout', f('ca.key'), '-out', f('ca.crt'));
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', f('server.key'), '-out', f('server.csr'));
  fs.writeFileSync(f('server.ext'), 'subjectAltName = DNS:localhost\n');
  ssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', f('server.ext'), '-out', f('server.crt'));
  return { ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key') };
}

/**
 * `tls`: the server also offers TLS (ssl = on) with a certificate from a throwaway CA (`caPem`).
 * `settings`: postgresql.conf lines after the test defaults, which they override (bench:team runs
 * with fsync on and a server's shared_buffers, as a team's server would).
 */
export async function startPgCluster(opts: { tls?: boolean; settings?: Record<string, string> } = {}): Promise<PgCluster> {
  if (!PG_BIN) throw new Error(PG_MISSING);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelscout-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  // Run a server program as the unprivileged user when we are root.
  const run = (prog: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', path.join(PG_BIN, prog), ...args]] : [path.join(PG_BIN, prog), args];
    return execFileSync(cmd, argv, { stdio: 'pipe', encoding: 'utf8' });
  };
  if (asRoot) {
    execFileSync('chown', ['nobody:nogroup', dir]);
    fs.chmodSync(dir, 0o755);
  }
  const port = await freePort();
  const certs = opts.tls ? makeCertificates(dir) : null;
  // The server refuses a key file others may read.
  if (certs) fs.chmodSync(certs.key, 0o600);
  if (certs && asRoot) execFileSync('chown', ['nobody:nogroup', certs.cert, certs.key]);
  run('initdb', ['-D', data, '-U', ADMIN, '--auth-local=trust', '--auth-host=reject', '-E', 'UTF8', '--no-locale']);
  // The administrator only over the socket in the temp folder; everyone else over TCP with a password.
  fs.writeFileSync(path.join(data, 'pg_hba.conf'), [`local all ${ADMIN} trust`, 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n'));
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'max_connections = 60',
      'shared_buffers = 32MB',
      // A test cluster thrown away at the end: durability across power loss buys nothing here, and the box is shared.
      'fsync = off',
      ...(certs ? ['ssl = on', `ssl_cert_file = '${certs.cert}'`, `ssl_key_file = '${certs.key}'`] : []),
      ...Object.entries(opts.settings ?? {}).map(([k, v]) => `${k} = ${v}`),
      '',
    ].join('\n'),
  );
  const stopServer = () => spawnSync(asRoot ? 'setpriv' : path.join(PG_BIN, 'pg_ctl'), asRoot ? ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', path.join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'] : ['-D', data, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore' });
  // A test process that dies without its teardown still takes its server with it.
  const onExit = () => {
    stopServer();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const start = () => run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', 'start']);
  start();

  const clients = new Set<pg.Client>();
  const adminConfig = (database = TEAM_DATABASE): pg.ClientConfig => ({ host: dir, port, user: ADMIN, database });
  const connect = async (config: pg.ClientConfig) => {
    const c = new pg.Client(config);
    c.on('error', () => undefined); // a test that terminates a backend reads the failure from its queries
    await c.connect();
    clients.add(c);
    c.once('end', () => clients.delete(c));
    return c;
  };

  const boot = await connect(adminConfig('postgres'));
  await boot.query(`CREATE DATABASE ${TEAM_DATABASE}`);
  await boot.end();
  const admin = await connect(adminConfig());
  // The administrator's set-up, as a team's administrator runs it (roles, schema, database privileges).
  await admin.query(fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'team-server-setup.sql'), 'utf8'));
  await admin.end();

  const addSeat = async (o: { seatId?: string } = {}): Promise<SeatLogin> => {
    const c = await connect(adminConfig());
    try {
      const { role, password } = await addSeatLogin(c, { name: `seat_${randomBytes(5).toString('hex')}`, seatId: o.seatId });
      return {
        role,
        password,
        config: { host: '127.0.0.1', port, user: role, password, database: TEAM_DATABASE },
        settings: (seatName) => ({ host: '127.0.0.1', port, database: TEAM_DATABASE, user: role, sslmode: 'disable', seatName }),
      };
    } finally {
      await c.end();
    }
  };
  const logins = new Map<string, Promise<SeatLogin>>();
  const seatLogin = (seatId: string): Promise<SeatLogin> => {
    const known = logins.get(seatId) ?? addSeat({ seatId });
    logins.set(seatId, known);
    return known;
  };

  return {
    port,
    caPem: certs ? fs.readFileSync(certs.ca, 'utf8') : null,
    adminConfig,
    addSeat,
    seatLogin,
    connectSeat: async (seatId) => connect((await seatLogin(seatId)).config),
    connect,
    async migrate() {
      const c = await connect(adminConfig());
      try {
        await migrateTeamSchema(c);
      } finally {
        await c.end();
      }
    },
    async setLeaseLength(seconds) {
      const c = await connect(adminConfig());
      try {
        await c.query('UPDATE team.lease_length SET seconds = $1', [seconds]);
      } finally {
        await c.end();
      }
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    async pause() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    async resume() {
      start();
    },
    async stop() {
      await Promise.all([...clients].map((c) => c.end().catch(() => undefined)));
      process.removeListener('exit', onExit);
      onExit();
    },
  };
}
