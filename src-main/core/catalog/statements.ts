import type { Statement } from 'better-sqlite3';
import type { CatalogDb } from './open-catalog';

const byConnection = new WeakMap<CatalogDb, Map<string, Statement>>();

/**
 * The prepared statement for `sql` on this connection, compiled on first use and kept as long as
 * the connection: a store's reads and writes that run per file or per request (an import's lookup
 * of every file it walks, a player's range requests) do not compile their SQL at every call. For
 * fixed SQL text with placeholders only; it comes back in its default mode (no pluck/raw/expand:
 * a caller that changed it would change it for every other caller).
 */
export function statement(db: CatalogDb, sql: string): Statement {
  let cache = byConnection.get(db);
  if (!cache) byConnection.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}
