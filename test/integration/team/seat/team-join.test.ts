import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTeamMigrations } from '../../../../src-main/core/team/server/migrate-team';
import { startWebApp, type WebApp } from '../../../../src-main/web/web-app';
import type { Envelope } from '../../../../src-shared/contract';
import type { TeamConnectionSettings } from '../../../../src-shared/contract/team';
import { describeWithPostgres, startPgCluster, type PgCluster } from '../../../helpers/team/pg-cluster';
import { REPO_ROOT, tempDir } from '../../../helpers/paths';

/**
 * Joining a team library through the web transport's real HTTP, against a real PostgreSQL: each way
 * a check fails comes back as a kind with what to do, a join registers the seat, and the password
 * goes in and never comes back out (not in any answer, not in the data folder, not in the log).
 */
/** The schema version this app's migrations reach. */
const LATEST = readTeamMigrations().at(-1)!.version;

describeWithPostgres('team library: join, check and leave over the web transport', () => {
  let cluster: PgCluster;
  let app: WebApp;
  let tmp: { dir: string; cleanup: () => void };
  let settings: TeamConnectionSettings;
  let password: string;
  /** The id the seat joined under. */
  let joinedSeatId = '';
  /** Every raw answer body: the password must be in none of them. */
  const bodies: string[] = [];

  const rpc = async (method: string, args: unknown = {}): Promise<Envelope> => {
    const res = await fetch(`${app.server.url}/rpc/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-reelscout-token': app.server.token },
      body: JSON.stringify(args),
    });
    const text = await res.text();
    bodies.push(text);
    return JSON.parse(text) as Envelope;
  };
  const value = async (method: string, args: unknown = {}) => {
    const env = await rpc(method, args);
    if (!env.ok) throw new Error(`${method}: ${env.error.kind}: ${env.error.message}`);
    return env.value as Record<string, unknown>;
  };

  beforeAll(async () => {
    cluster = await startPgCluster({ tls: true });
    // A login the administrator made by hand before the migrations (team:seat needs them): enough to
    // reach the server and find it not migrated. The seat's real login comes from team:seat below.
    password = randomBytes(18).toString('base64url');
    const admin = await cluster.connect(cluster.adminConfig());
    await admin.query("SELECT set_config('reelscout.early_password', $1, false)", [password]);
    await admin.query("DO $$ BEGIN EXECUTE format('CREATE ROLE early_seat LOGIN IN ROLE reelscout_seats PASSWORD %L', current_setting('reelscout.early_password')); END $$");
    await admin.end();
    settings = { host: '127.0.0.1', port: cluster.port, database: 'reelscout_team', user: 'early_seat', sslmode: 'disable', seatName: 'Edit bay 2' };
    tmp = tempDir('rs-team-join-');
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html>');
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
    tmp?.cleanup();
  });

  it('is solo by default', async () => {
    expect(await value('team.status')).toEqual({ mode: 'solo' });
  });

  it('a database set up but not migrated, and one never set up, are invalid naming the set-up script; nothing is kept', async () => {
    const notMigrated = await value('team.check', { form: { settings, password } });
    expect(notMigrated).toMatchObject({ ok: false, schemaVersion: null, error: { kind: 'invalid', message: expect.stringContaining('scripts/team-server-setup.sql') } });
    const admin = await cluster.connect(cluster.adminConfig('postgres'));
    await admin.query('CREATE DATABASE bare');
    await admin.end();
    const bare = await rpc('team.configure', { settings: { ...settings, database: 'bare' }, password });
    expect(bare).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('scripts/team-server-setup.sql') } });
    expect(await value('team.status')).toEqual({ mode: 'solo' });
    // The administrator's step, as README says: npm run team:migrate with libpq's environment.
    const admin2 = cluster.adminConfig();
    const env = { ...process.env, PGHOST: String(admin2.host), PGPORT: String(admin2.port), PGUSER: String(admin2.user), PGDATABASE: String(admin2.database) };
    const out = execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(REPO_ROOT, 'scripts', 'team-migrate.ts')], { env, encoding: 'utf8' });
    const versions = readTeamMigrations().map((m) => m.version);
    expect(out.trim()).toBe(`applied ${versions.join(', ')}; the team schema is at version ${versions.at(-1)}`);
    // Then the seat's own login, as README says: npm run team:seat -- add NAME, its password printed once.
    const added = execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(REPO_ROOT, 'scripts', 'team-seat.ts'), 'add', 'edit_bay_2'], { env, encoding: 'utf8' });
    const lines = added.trim().split('\n');
    expect(lines[0]).toMatch(/^seat edit_bay_2 added\. Its password \(shown once; .*user edit_bay_2\):$/);
    password = lines[1]!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    settings = { ...settings, user: 'edit_bay_2' };
  }, 60_000);

  it('a refused password is auth; an unreachable server is offline; a plain connection to another host is refused before connecting', async () => {
    expect(await value('team.check', { form: { settings, password: `${password}x` } })).toMatchObject({ ok: false, error: { kind: 'auth', message: expect.stringContaining('refused the password') } });
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    expect(await value('team.check', { form: { settings: { ...settings, port: closed }, password } })).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(await value('team.check', { form: { settings: { ...settings, host: 'db.post.example' }, password } })).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('TLS') } });
    const wrong = await rpc('team.configure', { settings, password: 'wrong-password' });
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await value('team.status')).toEqual({ mode: 'solo' });
  });

  it('a form check reads the schema version and registers nothing; joining registers the seat and keeps the settings', async () => {
    expect(await value('team.check', { form: { settings, password } })).toMatchObject({ ok: true, schemaVersion: LATEST, error: null });
    const c = await cluster.connect(cluster.adminConfig());
    expect((await c.query('SELECT count(*)::int AS n FROM team.seats')).rows[0].n).toBe(0);

    const joined = await value('team.configure', { settings, password });
    expect(joined).toMatchObject({ mode: 'configured', settings, seatId: expect.stringMatching(/^[0-9a-f-]{36}$/), lastCheck: { ok: true, schemaVersion: LATEST } });
    joinedSeatId = String(joined.seatId);
    const seats = (await c.query<{ seat_id: string; name: string }>('SELECT seat_id, name FROM team.seats')).rows;
    expect(seats).toEqual([{ seat_id: joined.seatId, name: 'Edit bay 2' }]);

    const before = (await c.query<{ t: Date }>('SELECT last_seen_at AS t FROM team.seats')).rows[0]!.t;
    const again = await value('team.check');
    expect(again).toMatchObject({ ok: true, schemaVersion: LATEST });
    const after = (await c.query<{ t: Date }>('SELECT last_seen_at AS t FROM team.seats')).rows[0]!.t;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    expect(await value('team.status')).toMatchObject({ mode: 'configured', lastCheck: { ok: true, at: again.at } });
    await c.end();
  });

  it('a later check the server refuses (the administrator changed the password) records auth in the status', async () => {
    const c = await cluster.connect(cluster.adminConfig());
    // The seat's password is changed by the administrator: the stored one is now refused.
    await c.query(`ALTER ROLE ${settings.user} PASSWORD 'rotated-by-admin'`);
    expect(await value('team.check')).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await value('team.status')).toMatchObject({ mode: 'configured', lastCheck: { ok: false, error: { kind: 'auth' } } });
    await c.query("SELECT set_config('reelscout.seat_password', $1, false)", [password]);
    await c.query(`DO $$ BEGIN EXECUTE format('ALTER ROLE ${settings.user} PASSWORD %L', current_setting('reelscout.seat_password')); END $$`);
    await c.end();
    expect(await value('team.check')).toMatchObject({ ok: true });
  });

  it('TLS verify-full: a certificate from an unknown CA or for another name is invalid, saying so; with the team CA it connects', async () => {
    const tls = { ...settings, host: 'localhost', sslmode: 'verify-full' as const };
    expect(await value('team.check', { form: { settings: tls, password } })).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining("certificate is not trusted") } });
    // The certificate names localhost, not 127.0.0.1: the host name is checked too.
    const byAddress = { ...tls, host: '127.0.0.1', caCertificate: cluster.caPem! };
    expect(await value('team.check', { form: { settings: byAddress, password } })).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('ERR_TLS_CERT_ALTNAME_INVALID') } });
    expect(await value('team.check', { form: { settings: { ...tls, caCertificate: cluster.caPem! }, password } })).toMatchObject({ ok: true, schemaVersion: LATEST, error: null });
  });

  it('the password reaches no answer, no settings payload, no file of the data folder and no log line', async () => {
    bodies.push(JSON.stringify(await value('settings.get')));
    expect(bodies.length).toBeGreaterThan(10);
    for (const b of bodies) expect(b).not.toContain(password);
    const files = (function walk(dir: string): string[] {
      return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    })(path.join(tmp.dir, 'data'));
    expect(files.some((f) => f.endsWith('team.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('main.log'))).toBe(true);
    for (const f of files) expect(fs.readFileSync(f).includes(Buffer.from(password)), path.basename(f)).toBe(false);
  });

  it('leaving forgets settings and password and goes back to solo; the catalog is untouched', async () => {
    const catalog = path.join(tmp.dir, 'data', 'catalog.sqlite');
    const size = fs.statSync(catalog).size;
    expect(await value('team.leave')).toEqual({ mode: 'solo' });
    expect(await value('team.status')).toEqual({ mode: 'solo' });
    expect(await rpc('team.check')).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringContaining('has not joined') } });
    expect(fs.existsSync(catalog)).toBe(true);
    expect(fs.statSync(catalog).size).toBe(size);
    const secrets = fs.readFileSync(path.join(tmp.dir, 'data', 'secrets.json'), 'utf8');
    expect(Object.keys(JSON.parse(secrets) as object)).not.toContain('team.password');
    // Joining again is the same seat: the id stayed (a team moving to a role per seat keeps its seats).
    expect(await value('team.configure', { settings, password })).toMatchObject({ mode: 'configured', seatId: joinedSeatId });
    expect(await value('team.leave')).toEqual({ mode: 'solo' });
  });

  it('the administrator removes the seat as README says (npm run team:seat -- remove NAME): its role is gone, its password refused, what it wrote kept', async () => {
    const admin = cluster.adminConfig();
    const env = { ...process.env, PGHOST: String(admin.host), PGPORT: String(admin.port), PGUSER: String(admin.user), PGDATABASE: String(admin.database) };
    const out = execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(REPO_ROOT, 'scripts', 'team-seat.ts'), 'remove', 'edit_bay_2'], { env, encoding: 'utf8' });
    expect(out.trim()).toBe('seat edit_bay_2 removed: 0 job lease(s) and 0 upload claim(s) back in the queue');
    const c = await cluster.connect(cluster.adminConfig());
    expect((await c.query("SELECT count(*)::int AS n FROM pg_roles WHERE rolname = 'edit_bay_2'")).rows[0].n).toBe(0);
    expect((await c.query('SELECT count(*)::int AS n FROM team.seats WHERE seat_id = $1', [joinedSeatId])).rows[0].n).toBe(1);
    await c.end();
    expect(await value('team.check', { form: { settings, password } })).toMatchObject({ ok: false, error: { kind: 'auth' } });
  }, 60_000);
});
