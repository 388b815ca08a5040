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
  /** The feed row's id; 0 for a row of a snapshot (the tables read whole). */
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

/** The tables the feed carries, each with the key its rows are named by (team migrations 0001-0005, 0008, 0010, 0011). */
export const FEED_TABLES = ['clips', 'clip_locations', 'clip_results', 'clip_marks', 'ranges', 'keywords', 'collection_videos', 'people', 'people_facts', 'rate_pause'] as const;

/**
 * Every change committed since `since` was taken, in pages read inside one REPEATABLE READ
 * transaction (they are one consistent view), and the cursor for the next pull: that transaction's
 * own snapshot.
 *
 * When the feed has been pruned past `since` (team.prune_feed: the seat was away longer than the
 * retention, or never pulled and the team's feed is pruned), the rows it missed may be gone: the pull
 * is then a snapshot, every row of `tables` named as if inserted (`snapshot: true`), read in the same
 * transaction, so the seat's handlers take the whole library as a joining seat's first pull took the
 * whole feed, and nothing committed after the snapshot is missed by the next pull.
 */
export async function pullTeamChanges(
  client: ClientBase,
  since: TeamCursor,
  pageSize: number = PAGE,
  tables: readonly string[] = FEED_TABLES,
): Promise<{ changes: TeamChange[]; cursor: TeamCursor; snapshot: boolean }> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const changes: TeamChange[] = [];
    const horizon = await client.query<{ missed: boolean }>('SELECT pg_snapshot_xmin($1::pg_snapshot) < pruned_below AS missed FROM team.feed_horizon', [since]);
    const snapshot = horizon.rows[0]?.missed === true;
    if (snapshot) {
      const rows = await client.query<{ table_name: string; row_key: string }>(
        `SELECT 'clips' AS table_name, id::text AS row_key FROM team.clips WHERE 'clips' = ANY($1)
         UNION ALL SELECT 'clip_locations', id::text FROM team.clip_locations WHERE 'clip_locations' = ANY($1)
         UNION ALL SELECT DISTINCT 'clip_results', clip_id::text FROM team.clip_results WHERE 'clip_results' = ANY($1)
         UNION ALL SELECT 'clip_marks', clip_id::text FROM team.clip_marks WHERE 'clip_marks' = ANY($1)
         UNION ALL SELECT 'ranges', id::text FROM team.ranges WHERE 'ranges' = ANY($1)
         UNION ALL SELECT 'keywords', id::text FROM team.keywords WHERE 'keywords' = ANY($1)
         UNION ALL SELECT 'collection_videos', id::text FROM team.collection_videos WHERE 'collection_videos' = ANY($1)
         UNION ALL SELECT 'people', uuid::text FROM team.people WHERE 'people' = ANY($1)
         UNION ALL SELECT 'people_facts', id::text FROM team.people_facts WHERE 'people_facts' = ANY($1)
         UNION ALL SELECT 'rate_pause', 'true' WHERE 'rate_pause' = ANY($1)`,
        [[...tables]],
      );
      // The team's rate hold (one row, read by seats only through team.rate_pause_left_ms) is named whatever it holds.
      for (const row of rows.rows) changes.push({ id: 0, table: row.table_name, rowKey: row.row_key, op: 'INSERT' });
    } else {
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
    }
    const cursor = await currentTeamCursor(client);
    await client.query('COMMIT');
    return { changes, cursor, snapshot };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * Deletes the feed rows every active seat has read (team.prune_feed, the owner's function: seats
 * have no DELETE on the feed); how many went. A seat not heard from for the retention holds nothing.
 */
export async function pruneTeamFeed(client: ClientBase): Promise<number> {
  const pruned = await client.query<{ pruned: string }>('SELECT team.prune_feed() AS pruned');
  return Number(pruned.rows[0]!.pruned);
}
