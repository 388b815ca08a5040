import type { ClientBase } from 'pg';
import { inTransaction } from './pg-transaction';
import { AppError, toAppError } from '../../../../src-shared/errors';

/**
 * The team schema's migration bookkeeping on PostgreSQL: the one lock every seat's runner takes, the
 * table of applied versions, and applying one migration in its own transaction as the schema owner.
 */

/** pg_advisory_lock key of the migration runner ('rs-team\0' as a big-endian int8): one runner at a time per database. */
export const MIGRATION_LOCK_KEY = '8246985320585850112';
/** The role that owns schema `team` (scripts/team-server-setup.sql): DDL runs as it, never as a seat. */
const OWNER_ROLE_SQL = 'SET ROLE reelscout_owner';

export interface AppliedMigration {
  version: number;
  name: string;
  sha256: string;
}

/**
 * Runs `fn` holding the migration lock, as the schema owner. Two seats starting at once: the second
 * waits here and then finds nothing left to apply. A session lock, so a runner whose connection dies
 * releases it with the session.
 */
export async function withMigrationLock<T>(client: ClientBase, fn: () => Promise<T>): Promise<T> {
  // A seat's login may not take the lock at all (the set-up script keeps advisory locks from PUBLIC).
  await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]).catch((e: unknown) => {
    throw ownerRoleRefusal(e);
  });
  try {
    await client.query(OWNER_ROLE_SQL).catch((e: unknown) => {
      throw ownerRoleRefusal(e);
    });
    return await fn();
  } finally {
    await client.query('RESET ROLE').catch(() => undefined);
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}

/** SET ROLE refused: a seat's connection (no DDL, by design), or a database the administrator has not prepared. */
function ownerRoleRefusal(e: unknown): AppError {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === '42501') return new AppError('auth', 'this connection may not change the team schema: migrations run with the administrator\'s connection, never a seat\'s', { cause: e });
  return notPrepared(e);
}

/** The owner role or schema `team` is missing: the administrator's set-up has not run on this database. */
function notPrepared(e: unknown): AppError {
  const code = (e as { code?: unknown } | null)?.code;
  // 22023/42704: no such role; 3F000: no such schema
  if (code === '22023' || code === '42704' || code === '3F000') return new AppError('invalid', 'this database is not prepared for a team library: its administrator runs scripts/team-server-setup.sql first', { cause: e });
  return toAppError(e);
}

/** What this database has applied (the bookkeeping table made on first use). Call under the lock. */
export async function appliedMigrations(client: ClientBase): Promise<AppliedMigration[]> {
  await client
    .query(
      `CREATE TABLE IF NOT EXISTS team.schema_migrations (
         version    integer PRIMARY KEY,
         name       text NOT NULL,
         sha256     text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    )
    .catch((e: unknown) => {
      throw notPrepared(e);
    });
  const applied = await client.query<AppliedMigration>('SELECT version, name, sha256 FROM team.schema_migrations ORDER BY version');
  return applied.rows;
}

/** The newest migration the server has applied (0: none), as a seat may read it (migration 0002). */
export async function serverSchemaVersion(client: ClientBase): Promise<number> {
  const newest = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM team.schema_migrations');
  return newest.rows[0]?.version ?? 0;
}

/** Why an app whose migrations reach `app` must not work with a server at `server`; null when they match. */
export function schemaMismatch(server: number, app: number): string | null {
  if (server < app) return `the team schema is at version ${server}, this app needs ${app}: the administrator runs the migrations (npm run team:migrate)`;
  if (server > app) return `the team schema is at version ${server}, newer than this app (${app}): update Reelscout`;
  return null;
}

/** One migration and its record in one transaction: a failure leaves the schema at the version before. */
export async function applyMigration(client: ClientBase, m: AppliedMigration & { sql: string }): Promise<void> {
  await inTransaction(client, async () => {
    // The file's text as it is: several statements, no parameters (simple query protocol).
    await client.query(m.sql);
    await client.query('INSERT INTO team.schema_migrations (version, name, sha256) VALUES ($1, $2, $3)', [m.version, m.name, m.sha256]);
  });
}
