import type { ClientBase } from 'pg';

/**
 * The team schema's migration bookkeeping on PostgreSQL: the one lock every seat's runner takes, the
 * table of applied versions, and applying one migration in its own transaction as the schema owner.
 */

/** pg_advisory_lock key of the migration runner ('rs-team\0' as a big-endian int8): one runner at a time per database. */
const MIGRATION_LOCK_KEY = '8246985320585850112';
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
  await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(OWNER_ROLE_SQL);
    return await fn();
  } finally {
    await client.query('RESET ROLE').catch(() => undefined);
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}

/** What this database has applied (the bookkeeping table made on first use). Call under the lock. */
export async function appliedMigrations(client: ClientBase): Promise<AppliedMigration[]> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS team.schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      sha256     text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const applied = await client.query<AppliedMigration>('SELECT version, name, sha256 FROM team.schema_migrations ORDER BY version');
  return applied.rows;
}

/** One migration and its record in one transaction: a failure leaves the schema at the version before. */
export async function applyMigration(client: ClientBase, m: AppliedMigration & { sql: string }): Promise<void> {
  await client.query('BEGIN');
  try {
    // The file's text as it is: several statements, no parameters (simple query protocol).
    await client.query(m.sql);
    await client.query('INSERT INTO team.schema_migrations (version, name, sha256) VALUES ($1, $2, $3)', [m.version, m.name, m.sha256]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
