import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import type { ClientBase } from 'pg';
import { AppError } from '../../../../src-shared/errors';
import { inTransaction } from './pg-transaction';

/**
 * The one owner of the seats' login roles and of `team.seat_logins` (team migration 0011), on the
 * administrator's connection (`npm run team:seat`, scripts/team-seat.ts): a LOGIN role per seat, a
 * member of the NOLOGIN group `reelscout_seats`, with its limits set where a seat cannot raise them
 * (CONNECTION LIMIT is a role attribute only a CREATEROLE role changes). Never on a seat's connection.
 */

/** A seat's role name: also what the editor types in Settings' user field. */
const ROLE_NAME = /^[a-z][a-z0-9_]{1,40}$/;
const RESERVED = /^(pg_|reelscout_)/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A seat's pool (4) and its listener, with room for a restart while the old connections time out. */
export const SEAT_CONNECTION_LIMIT = 10;

export function seatRoleProblem(name: string): string | null {
  if (!ROLE_NAME.test(name)) return 'a seat name is 2 to 41 lower-case letters, digits or underscores, starting with a letter';
  if (RESERVED.test(name)) return 'names starting with pg_ or reelscout_ are reserved';
  return null;
}

/**
 * The SCRAM-SHA-256 verifier of `password` (RFC 5802, as PostgreSQL stores it): the server is sent
 * this, never the password, so neither its log nor pg_stat_statements can hold the password.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Adds a seat's login role and registers it; returns the one-time password (random, for the
 * administrator to hand over: it is printed once and stored nowhere but as the server's verifier).
 * `seatId`: an existing seat moving to its own role (its app's id, Settings "Team library"); without
 * it the seat's first join binds the role to the seat's id.
 */
export async function addSeatLogin(admin: ClientBase, o: { name: string; seatId?: string }): Promise<{ role: string; password: string }> {
  const problem = seatRoleProblem(o.name);
  if (problem) throw new AppError('invalid', `${JSON.stringify(o.name)}: ${problem}`);
  if (o.seatId !== undefined && !UUID.test(o.seatId)) throw new AppError('invalid', `a seat id is a uuid, not ${JSON.stringify(o.seatId.slice(0, 60))}`);
  const password = randomBytes(24).toString('base64url');
  const role = quoteIdent(o.name);
  await inTransaction(admin, async () => {
    const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [o.name]);
    if (exists.rowCount) throw new AppError('invalid', `a role named ${o.name} exists already on this server: choose another name`);
    // Role statements take no parameters: the name is checked above and quoted, the verifier is base64.
    await admin.query(`CREATE ROLE ${role} LOGIN INHERIT CONNECTION LIMIT ${SEAT_CONNECTION_LIMIT} PASSWORD ${quoteLiteral(scramVerifier(password))} IN ROLE reelscout_seats`);
    await admin.query(`ALTER ROLE ${role} SET statement_timeout = '30s'`);
    await admin.query(`ALTER ROLE ${role} SET idle_in_transaction_session_timeout = '60s'`);
    await admin.query('SET LOCAL ROLE reelscout_owner');
    await admin.query('SELECT team.register_seat_login($1, $2)', [o.name, o.seatId ?? null]);
  });
  return { role: o.name, password };
}

/**
 * Removes a seat: its claimed jobs and upload claims go back to the queue at once, its sessions are
 * ended, its role dropped. Its row and everything it wrote stay.
 */
export async function removeSeatLogin(admin: ClientBase, name: string): Promise<{ jobsReleased: number; uploadsReleased: number }> {
  const problem = seatRoleProblem(name);
  if (problem) throw new AppError('invalid', `${JSON.stringify(name)}: ${problem}`);
  return inTransaction(admin, async () => {
    await admin.query('SET LOCAL ROLE reelscout_owner');
    const released = await admin.query<{ jobs_released: string; uploads_released: string }>('SELECT * FROM team.retire_seat_login($1)', [name]);
    await admin.query('RESET ROLE');
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [name]);
    await admin.query(`DROP ROLE ${quoteIdent(name)}`);
    const r = released.rows[0]!;
    return { jobsReleased: Number(r.jobs_released), uploadsReleased: Number(r.uploads_released) };
  });
}
