import type { ClientBase } from 'pg';

/**
 * Reads the team's change feed (`team.changes`, written only by the schema's triggers) with a snapshot
 * cursor. The cursor is the PostgreSQL snapshot of the seat's previous pull; the next pull takes the
 * rows whose transaction that snapshot did not see. Unlike `id > last id`, this never skips a
 * transaction that took its ids first and committed after a later one (docs/notes-team-library.md
 * section 4, measured in notify.mjs part c).
 */

export type TeamChangeOp = 'INSERT' | 'UPDATE' | 'DELETE';

export interface TeamChange {
  id: number;
  table: string;
  rowKey: string;
  op: TeamChangeOp;
}

/** A `pg_snapshot` in its text form (`xmin:xmax:xip,...`), as the server prints it. */
export type TeamCursor = string;

const PAGE = 5000;

/** Where a seat's first pull starts: everything committed before now is taken as already seen. */
export async function currentTeamCursor(client: ClientBase): Promise<TeamCursor> {
  const snapshot = await client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
  return snapshot.rows[0]!.snapshot;
}

/**
 * Every change committed since `since` was taken, in pages read inside one REPEATABLE READ
 * transaction (they are one consistent view), and the cursor for the next pull: that transaction's
 * own snapshot.
 */
export async function pullTeamChanges(client: ClientBase, since: TeamCursor, pageSize: number = PAGE): Promise<{ changes: TeamChange[]; cursor: TeamCursor }> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const changes: TeamChange[] = [];
    for (let after = 0; ; ) {
      const page = await client.query<{ id: string; table_name: string; row_key: string; op: TeamChangeOp }>(
        `SELECT id, table_name, row_key, op FROM team.changes
          WHERE xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot) AND id > $2
          ORDER BY id LIMIT $3`,
        [since, after, pageSize],
      );
      for (const row of page.rows) changes.push({ id: Number(row.id), table: row.table_name, rowKey: row.row_key, op: row.op });
      if (page.rows.length < pageSize) break;
      after = Number(page.rows.at(-1)!.id);
    }
    const cursor = await currentTeamCursor(client);
    await client.query('COMMIT');
    return { changes, cursor };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
