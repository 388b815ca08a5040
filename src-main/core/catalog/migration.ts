import type Database from 'better-sqlite3';

export interface Migration {
  /** Strictly increasing; stored in PRAGMA user_version once applied. */
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}
