import type Database from 'better-sqlite3';

export interface Migration {
  /** Strictly increasing; stored in PRAGMA user_version once applied. */
  version: number;
  name: string;
  up: (db: Database.Database) => void;
  /**
   * The migration rebuilds a table (SQLite cannot alter a CHECK): the runner turns foreign keys off
   * around it, since dropping the old table with them on would delete every row that references it,
   * and checks before it commits that it left no reference pointing nowhere (SQLite's documented
   * procedure, "Making Other Kinds Of Table Schema Changes").
   */
  rebuildsTables?: boolean;
}
