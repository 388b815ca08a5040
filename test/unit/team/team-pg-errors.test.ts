import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { teamErrorOf } from '../../../src-main/core/team/server/pg-errors';
import { AppError } from '../../../src-shared/errors';

const target = { host: 'db.post.example', port: 5432, database: 'reelscout_team', user: 'reelscout_seat' };

/** An error as node-postgres hands it over for a server's refusal: a DatabaseError with its SQLSTATE. */
function serverError(code: string, message: string): pg.DatabaseError {
  const e = new pg.DatabaseError(message, message.length, 'error');
  e.code = code;
  return e;
}
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.5:5432`), { code });

describe('team server errors as kinds', () => {
  it('unreachable is offline: refused, unknown host, no route, timeouts, a server starting up', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET']) {
      expect(teamErrorOf(socketError(code), target), code).toMatchObject({ kind: 'offline', message: expect.stringContaining('db.post.example:5432') });
    }
    expect(teamErrorOf(new Error('Connection terminated due to connection timeout'), target).kind).toBe('offline');
    expect(teamErrorOf(serverError('57P03', 'the database system is starting up'), target).kind).toBe('offline');
    expect(teamErrorOf(serverError('57P01', 'terminating connection due to administrator command'), target).kind).toBe('offline');
  });

  it('a refused password or role is auth, naming the role and never echoing a password', () => {
    const e = teamErrorOf(serverError('28P01', 'password authentication failed for user "reelscout_seat"'), target);
    expect(e).toMatchObject({ kind: 'auth', message: 'the team server refused the password of reelscout_seat' });
    expect(teamErrorOf(serverError('28000', 'no pg_hba.conf entry for host "10.0.0.9"'), target)).toMatchObject({ kind: 'auth', message: expect.stringContaining('pg_hba.conf') });
    expect(teamErrorOf(serverError('42501', 'permission denied for schema team'), target)).toMatchObject({ kind: 'auth', message: expect.stringContaining('reelscout_seat') });
  });

  it("a seat's spent write budget (RS429) is rate_limit, retried after the server's hint", () => {
    const e = serverError('RS429', 'team write budget spent: seat:x may write 2000 rows a second (bursts of 200000); this statement wrote 250000 rows to team.jobs');
    e.hint = 'retry after 25000 ms';
    expect(teamErrorOf(e, target)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 25000, message: expect.stringContaining('write budget') });
    expect(teamErrorOf(serverError('RS429', 'team write budget spent'), target)).toMatchObject({ kind: 'rate_limit', retryAfterMs: undefined });
  });

  it('an unprepared database is invalid and names the set-up script', () => {
    for (const [code, text] of [
      ['3F000', 'schema "team" does not exist'],
      ['42P01', 'relation "team.schema_migrations" does not exist'],
    ] as const) {
      expect(teamErrorOf(serverError(code, text), target), code).toMatchObject({ kind: 'invalid', message: expect.stringContaining('scripts/team-server-setup.sql') });
    }
    expect(teamErrorOf(serverError('3D000', 'database "reelscout_team" does not exist'), target)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/no database reelscout_team.*team-server-setup\.sql/) });
  });

  it('TLS: an untrusted certificate or a server without TLS is invalid, saying what to change', () => {
    for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED']) {
      expect(teamErrorOf(socketError(code), target), code).toMatchObject({ kind: 'invalid', message: expect.stringContaining('CA certificate') });
    }
    expect(teamErrorOf(new Error('The server does not support SSL connections'), target)).toMatchObject({ kind: 'invalid', message: expect.stringContaining('ssl') });
  });

  it('a busy server is upstream; any other refusal is the server\'s, never internal; an AppError passes through', () => {
    expect(teamErrorOf(serverError('53300', 'sorry, too many clients already'), target).kind).toBe('upstream');
    expect(teamErrorOf(serverError('XX000', 'internal error'), target)).toMatchObject({ kind: 'server', message: 'internal error' });
    const own = new AppError('invalid', 'mine');
    expect(teamErrorOf(own, target)).toBe(own);
  });

  it('a real refused connection (a closed loopback port) is offline', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x', password: 'x' });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(teamErrorOf(err, { ...target, host: '127.0.0.1', port })).toMatchObject({ kind: 'offline', message: expect.stringContaining(`127.0.0.1:${port}`) });
  });
});
