import type Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/errors';
import type { Migration } from './migration';
import { MIGRATIONS } from './migrations';

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration newer than the database, each in its own transaction, so a crash
 * mid-upgrade leaves the catalog at the last complete version.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS, target?: number): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (i > 0 && m.version === sorted[i - 1]!.version) throw new AppError('internal', `duplicate migration version ${m.version}`);
  });
  const latest = sorted.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new AppError('invalid', `catalog schema ${current} is newer than this app (${latest}): update Reelscout`);
  }
  for (const m of sorted) {
    if (m.version <= current || (target !== undefined && m.version > target)) continue;
    if (m.rebuildsTables) rebuilding(db, m);
    else
      db.transaction(() => {
        m.up(db);
        db.pragma(`user_version = ${m.version}`);
      })();
  }
  return schemaVersion(db);
}

/** References that point nowhere: rows whose parent row is gone. */
const danglingReferences = (db: Database.Database) => (db.pragma('foreign_key_check') as unknown[]).length;

/**
 * A migration that rebuilds a table runs with foreign keys off (a pragma SQLite ignores inside a
 * transaction, so it is set around it) and may not leave more dangling references than it found:
 * a catalog with an old orphan still opens, a rebuild that lost parent rows rolls back.
 */
function rebuilding(db: Database.Database, m: Migration): void {
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
  if (enforced) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const before = danglingReferences(db);
      m.up(db);
      const after = danglingReferences(db);
      if (after > before) throw new AppError('internal', `migration ${m.version} (${m.name}) left ${after - before} references pointing nowhere`);
      db.pragma(`user_version = ${m.version}`);
    })();
  } finally {
    if (enforced) db.pragma('foreign_keys = ON');
  }
}
