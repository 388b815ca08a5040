import type { ClientBase } from 'pg';

/**
 * `fn` in one transaction on `client`: committed when it resolves, rolled back when it throws (the
 * rollback's own failure, a connection already gone, is left to the caller's error). The one way
 * the team's stores and syncs group their writes.
 */
export async function inTransaction<T>(client: ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const out = await fn();
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
