import type pg from 'pg';

/** The server's clock now (ms), as its stamps read it: tests compare stamps with it, never with this machine's. */
export async function serverNow(c: pg.Client): Promise<number> {
  return (await c.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t.getTime();
}

/**
 * A seat's write in a transaction rolled back after `check`: what the server made of the write,
 * looked at inside it, and nothing of it left for the next attempt.
 */
export async function rolledBack<T>(seat: pg.Client, attempt: (c: pg.Client) => Promise<unknown>, check: () => Promise<T>): Promise<T> {
  await seat.query('BEGIN');
  try {
    await attempt(seat);
    return await check();
  } finally {
    await seat.query('ROLLBACK');
  }
}
