import fs from 'node:fs';
import { toAppError } from '../../../src-shared/errors';
import { roomToReopen, type DiskGuard, type DiskRoom } from '../util/disk-space';
import type { Logger } from '../util/logger';
import { takeBackup } from './catalog-backups';
import { migrate, schemaVersion } from './migrate';
import { MIGRATIONS } from './migrations';
import { openCatalog, type CatalogDb } from './open-catalog';
import { openReadOnly } from './open-read-only';
import { checkWal } from './wal-check';

/** The words of a full disk, built again from each reading so the figures the editor sees are now's. */
export type DiskWords = (room: DiskRoom) => string;

/** The catalog as it could be opened, with what the editor must be told. */
export type CheckedCatalog =
  | { state: 'ok'; db: CatalogDb; message: string | null }
  | { state: 'read_only'; db: CatalogDb; message: string; words: DiskWords }
  | { state: 'no_room'; message: string; words: DiskWords }
  | { state: 'damaged'; message: string };

/** What a full disk means for the catalog, after the guard's figures. */
export function fullDiskWords(disk: DiskGuard, meaning: 'read_only' | 'no_catalog' | 'no_upgrade' | 'no_open'): DiskWords {
  const tail = {
    read_only: 'The library is open read-only: browsing and search work, nothing new is saved; it opens for writing by itself once there is room.',
    no_catalog: 'There is no catalog yet, and not enough room to start one: free some space there, and the library starts by itself.',
    no_upgrade: 'The catalog must be upgraded for this version, which needs that room: free some space there, and the library opens by itself.',
    no_open: 'The catalog could not be opened without more room: free some space there, and the library opens by itself.',
  }[meaning];
  return (room) => `${disk.describe(room)} ${tail}`;
}

const withWords = <S extends 'read_only' | 'no_room'>(state: S, words: DiskWords, room: DiskRoom) => ({ state, words, message: words(roomToReopen(room)) });

const UNTOUCHED = 'Your footage is untouched.';
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

/** The first few problems SQLite's quick_check finds in an open database ([] when sound). */
function quickCheck(db: CatalogDb): string[] {
  return (db.pragma('quick_check(5)') as { quick_check: string }[]).map((r) => r.quick_check).filter((m) => m !== 'ok');
}

/** Whether a catalog file (a backup before it is restored) opens and passes quick_check; the problem in words, or null. */
export function catalogFileProblem(file: string): string | null {
  let db: CatalogDb | null = null;
  try {
    db = openCatalog(file, { readonly: true, migrate: false });
    const problems = quickCheck(db);
    return problems.length > 0 ? `SQLite's integrity check found "${problems[0]}"` : null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    db?.close();
  }
}

function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * Opens the catalog only after looking at it, so damage is named instead of ending the start with
 * SQLite's bare words or, worse, passing in silence:
 * - a 0-byte file (truncated by a crash or a sync tool) is damage, not a new empty library;
 * - a WAL journal whose committed changes SQLite would skip is read first (wal-check.ts): a copy
 *   is kept and the start says how many saved changes were lost;
 * - SQLite's quick_check runs on every start (it reads every page once: a few hundred ms for a
 *   large catalog);
 * - on a disk without room the catalog opens read-only, and says so; with no catalog yet (or one
 *   that must be upgraded) it is not opened at all, `no_room`: that is no damage, and passes;
 * - before migrations change the schema a backup is taken (SQLite's backup API).
 */
export async function openCheckedCatalog(file: string, o: { backupsDir: string; disk: DiskGuard; logger?: Logger }): Promise<CheckedCatalog> {
  let existed = false;
  try {
    const st = fs.statSync(file);
    existed = true;
    if (st.size === 0) return { state: 'damaged', message: `The catalog ${file} is empty (0 bytes): the library it held cannot be read from it. ${UNTOUCHED}` };
  } catch {
    // No catalog yet: a new library.
  }
  let notice: string | null = null;
  const wal = checkWal(`${file}-wal`);
  if (wal.lostCommits > 0) {
    const copy = `${file}-wal.damaged-${Date.now()}`;
    try {
      fs.copyFileSync(`${file}-wal`, copy);
    } catch (e) {
      o.logger?.warn('catalog.wal.copy.failed', { message: (e as Error).message });
    }
    notice = `The catalog's journal ${file}-wal was damaged (${wal.reason}): ${wal.lostCommits} saved change${wal.lostCommits === 1 ? '' : 's'} after that point could not be read and were left out. A copy of the journal is kept as ${copy}. If something you saved is missing, restore a backup (Settings > Catalog).`;
    o.logger?.error('catalog.wal.damaged', { file, lost: wal.lostCommits, replayed: wal.replayed, reason: wal.reason });
  }
  const room = o.disk.room();
  const readonly = !room.ok && existed;
  if (!room.ok && !existed) return withWords('no_room', fullDiskWords(o.disk, 'no_catalog'), room);

  let db: CatalogDb;
  try {
    db = readonly ? openReadOnly(file) : openCatalog(file, { migrate: false });
  } catch (e) {
    if (isDamage(e) || isDamage((e as { cause?: unknown }).cause)) return { state: 'damaged', message: `The catalog ${file} is damaged: SQLite cannot open it ("${(e as Error).message}"). ${UNTOUCHED}` };
    throw e;
  }
  try {
    const problems = quickCheck(db);
    if (problems.length > 0) {
      db.close();
      o.logger?.error('catalog.damaged', { file, problems });
      return { state: 'damaged', message: `The catalog ${file} is damaged: SQLite's integrity check found ${problems.length === 5 ? '5 or more problems' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`}, the first: "${problems[0]}". ${UNTOUCHED}` };
    }
    if (readonly) {
      if (schemaVersion(db) < LATEST) {
        db.close();
        return withWords('no_room', fullDiskWords(o.disk, 'no_upgrade'), room);
      }
      return { ...withWords('read_only', fullDiskWords(o.disk, 'read_only'), room), db };
    }
    const version = schemaVersion(db);
    if (version > 0 && version < LATEST) await takeBackup(db, o.backupsDir, 'before-migration');
    migrate(db);
    return { state: 'ok', db, message: notice };
  } catch (e) {
    db.close();
    if (isDamage(e)) return { state: 'damaged', message: `The catalog ${file} is damaged: SQLite cannot read it ("${(e as Error).message}"). ${UNTOUCHED}` };
    throw toAppError(e);
  }
}
