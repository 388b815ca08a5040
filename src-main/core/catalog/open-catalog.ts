import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/errors';
import { migrate } from './migrate';

export type CatalogDb = Database.Database;

/** Opens (creating when needed) the catalog with the pragmas every connection must share. */
export function openCatalog(file: string, opts: { readonly?: boolean; migrate?: boolean } = {}): CatalogDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: CatalogDb;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false });
  } catch (e) {
    throw new AppError('io', `cannot open catalog ${file}: ${(e as Error).message}`, { cause: e });
  }
  if (!opts.readonly) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // Writers from the pipeline and readers from the UI share the file; wait instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  if (opts.migrate !== false && !opts.readonly) migrate(db);
  return db;
}
