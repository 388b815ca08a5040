import fs from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/errors';
import { openCatalog, type CatalogDb } from './open-catalog';

/** Byte offsets of the file format's read and write versions: 2 marks a WAL database, 1 a rollback one. */
const FORMAT_VERSIONS = [18, 19] as const;

/**
 * Opens the catalog for reading on a disk that is full. SQLite reads a WAL database through a
 * shared-memory file (`-shm`, 32 kB) it must create when it is not there, which a disk with no byte
 * free refuses ("disk I/O error"). Then, when the journal holds no change (a clean close leaves none),
 * the catalog is read into memory and opened from there: nothing is written anywhere, and browsing
 * and search work as on the file. A journal with changes in it cannot be read without that file: the
 * disk's words say so, and the session waits for room.
 */
export function openReadOnly(file: string): CatalogDb {
  const wal = `${file}-wal`;
  const shm = `${file}-shm`;
  const had = { wal: fs.existsSync(wal), shm: fs.existsSync(shm) };
  let db: CatalogDb | null = null;
  try {
    db = openCatalog(file, { readonly: true, migrate: false });
    // Reading is what opens the journal: fail here, not in the first query of a view.
    db.pragma('schema_version');
    return db;
  } catch (e) {
    db?.close();
    if (!(e instanceof Database.SqliteError) || !e.code.startsWith('SQLITE_IOERR')) throw e;
    // The empty journal files the failed open left are ours; a journal that was there stays.
    for (const [f, there] of [
      [wal, had.wal],
      [shm, had.shm],
    ] as const) {
      if (!there && fs.existsSync(f) && fs.statSync(f).size === 0) fs.rmSync(f, { force: true });
    }
    if (had.wal && fs.statSync(wal).size > 0) throw new AppError('disk_full', 'the catalog has changes in its journal that cannot be read without room to write', { cause: e });
    return inMemoryCopy(file);
  }
}

function inMemoryCopy(file: string): CatalogDb {
  const bytes = fs.readFileSync(file);
  // A copy in memory has no journal: it is marked as a rollback database (the file keeps its mark).
  for (const at of FORMAT_VERSIONS) if (bytes[at] === 2) bytes[at] = 1;
  const db = new Database(bytes, { readonly: true });
  db.pragma('foreign_keys = ON');
  return db;
}
