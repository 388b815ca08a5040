import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../../src-main/core/catalog/migrate';
import { MIGRATIONS } from '../../../src-main/core/catalog/migrations';
import { tempDir } from '../paths';

/**
 * A catalog file as an older app left it: migrated up to `version` only, open for the test to
 * fill before it closes it and reopens the file with the app's opener. `cleanups` gets the folder.
 */
export function catalogAtVersion(version: number, cleanups: (() => void)[]): { file: string; old: Database.Database } {
  const t = tempDir('reelscout-migrate-');
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'catalog.sqlite');
  const old = new Database(file);
  old.pragma('foreign_keys = ON');
  if (migrate(old, MIGRATIONS, version) !== version) throw new Error(`could not stop the catalog at version ${version}`);
  return { file, old };
}
