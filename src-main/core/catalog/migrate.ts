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
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return schemaVersion(db);
}
