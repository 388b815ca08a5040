import { AppError, toAppError } from '../../../../src-shared/errors';

/**
 * A failure of the team server's connection or of a seat's first reads, as an AppError kind the
 * Settings screen can act on: offline (not reachable: try later), auth (the server refused this
 * role or password), invalid (the settings or the server's preparation are wrong, with what to do).
 * Codes are SQLSTATEs (PostgreSQL appendix A), Node's socket codes and Node's TLS codes.
 */

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'ENOENT']);
const CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const NOT_PREPARED = 'this database is not prepared for a team library: its administrator runs scripts/team-server-setup.sql, then the migrations (npm run team:migrate)';

export interface TeamTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

export function teamErrorOf(e: unknown, t: TeamTarget): AppError {
  if (e instanceof AppError) return e;
  const err = e as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  const where = `${t.host}:${t.port}`;
  const as = (kind: AppError['kind'], text: string) => new AppError(kind, text, { cause: e });

  if (UNREACHABLE.has(code) || /connection timeout|timeout expired|Connection terminated unexpectedly/i.test(message)) {
    return as('offline', `the team server at ${where} cannot be reached (${code || message}): is it running, and is this machine on its network?`);
  }
  // 57P03: the server is starting up or shutting down.
  if (code === '57P03') return as('offline', `the team server at ${where} is not accepting connections yet: try again in a moment`);
  // 57P01/57P02: the server is stopping (or crashed) and ended this connection; a pooled idle connection reports it at its next query.
  if (code === '57P01' || code === '57P02') return as('offline', `the team server at ${where} was stopped (${code}): it is reconnected when it is back`);
  // 28P01 invalid_password; 28000 no pg_hba.conf entry or no such role.
  if (code === '28P01') return as('auth', `the team server refused the password of ${t.user}`);
  if (code === '28000') return as('auth', `the team server does not let ${t.user} in from this machine (pg_hba.conf, or no such role)`);
  // 42501: a role that is no seat of the team (each seat logs in as its own role, `npm run team:seat -- add`),
  // or a write the server keeps for another seat (team migration 0011): the server's own words say which.
  if (code === '42501') return as('auth', `${t.user} may not do this on the team server (${message}): each seat logs in as its own role, added by the administrator (npm run team:seat -- add)`);
  // 3D000 no such database; 3F000 no schema `team`; 42P01 no table yet (migrations not run).
  if (code === '3D000') return as('invalid', `the team server has no database ${t.database}: its administrator creates it (createdb) and runs scripts/team-server-setup.sql`);
  if (code === '3F000' || code === '42P01') return as('invalid', NOT_PREPARED);
  if (CERTIFICATE.has(code)) return as('invalid', `the team server's certificate is not trusted (${code}): add the team's CA certificate, or check the host name`);
  if (/does not support SSL/i.test(message)) return as('invalid', `the team server at ${where} does not offer TLS: its administrator turns on ssl in postgresql.conf`);
  // 53300 too_many_connections, 53xxx out of resources: the server is there but cannot serve now.
  if (code.startsWith('53')) return as('upstream', `the team server is out of ${code === '53300' ? 'connections' : 'resources'} now: try again later`);
  // RS429: the seat's write budget is spent (team migration 0009); its hint says when it holds the write again.
  if (code === 'RS429') {
    const hint = (e as { hint?: unknown }).hint;
    const ms = typeof hint === 'string' ? /retry after (\d+) ms/.exec(hint)?.[1] : undefined;
    return new AppError('rate_limit', `the team server holds this seat's writes for now: ${message}`, { cause: e, retryAfterMs: ms === undefined ? undefined : Number(ms) });
  }
  // Any other refusal by the server: its own words, as the server's.
  return toAppError(e, 'server');
}
