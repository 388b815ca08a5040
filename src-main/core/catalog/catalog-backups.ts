import fs from 'node:fs';
import path from 'node:path';
import type { CatalogBackup, BackupReason } from '../../../src-shared/contract/catalog';
import { openCatalog, type CatalogDb } from './open-catalog';

/**
 * Copies of the catalog taken with SQLite's online backup API (a consistent snapshot while the
 * app keeps writing): before migrations change its schema, and daily once there is something to
 * keep (dailyBackupDue). They live in
 * `<dataDir>/backups/` as `catalog-<UTC time>-<reason>.sqlite`; the newest few of each reason are
 * kept. A restore (catalog-shell.ts) puts one back in place of the catalog.
 */
export const BACKUP_DIR = 'backups';
const KEEP: Record<BackupReason, number> = { daily: 3, 'before-migration': 3, 'before-restore': 2 };
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How a catalog's clips and ranges are counted: by the tables' owners (clip-store.ts,
 * marks-repository.ts), handed in by the composition root so this module reads no table of theirs.
 */
export interface BackupCounters {
  clips(db: CatalogDb): number;
  ranges(db: CatalogDb): number;
}

/** A backup as its name and size tell it, before what it holds is read. */
export type BackupFile = Omit<CatalogBackup, 'clips' | 'ranges'>;

const NAME = /^catalog-(\d{8}T\d{6}Z)-(daily|before-migration|before-restore)\.sqlite$/;

/** A moment as backups (and a damaged catalog set aside) are named: `20261126T123000Z`, UTC. */
export function backupStamp(at: number): string {
  return new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

const backupName = (reason: BackupReason, at: number) => `catalog-${backupStamp(at)}-${reason}.sqlite`;

/** Older backups of a reason beyond the few kept go. */
function pruneBackups(dir: string, reason: BackupReason): void {
  for (const old of backupFiles(dir).filter((b) => b.reason === reason).slice(KEEP[reason])) fs.rmSync(path.join(dir, old.id), { force: true });
}

function parseStamp(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Backups in `dir`, newest first, by their names. */
export function backupFiles(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: BackupFile[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    try {
      out.push({ id: name, takenAt: parseStamp(m[1]!), reason: m[2] as BackupReason, sizeBytes: fs.statSync(path.join(dir, name)).size });
    } catch {
      // Removed while listing.
    }
  }
  return out.sort((a, b) => b.takenAt - a.takenAt || b.id.localeCompare(a.id));
}

// What each backup holds, by file, size and time: a backup is never written again once renamed into
// place, and the list is read at every catalog.health, so each file is opened once.
const held = new Map<string, Pick<CatalogBackup, 'clips' | 'ranges'>>();

/** One count of a backup file opened read-only; null when it cannot be read or its schema predates the table. */
function countOr(db: CatalogDb | null, count: (db: CatalogDb) => number): number | null {
  try {
    return db ? count(db) : null;
  } catch {
    return null;
  }
}

function contentsOf(file: string, counters: BackupCounters): Pick<CatalogBackup, 'clips' | 'ranges'> {
  const st = fs.statSync(file);
  const key = `${file}\0${st.size}\0${st.mtimeMs}`;
  const known = held.get(key);
  if (known) return known;
  // A few backups are kept of each reason: entries of files long pruned are not worth tracking one by one.
  if (held.size > 100) held.clear();
  let db: CatalogDb | null = null;
  try {
    db = openCatalog(file, { readonly: true, migrate: false });
  } catch {
    // Counted as unreadable below.
  }
  try {
    const out = { clips: countOr(db, counters.clips), ranges: countOr(db, counters.ranges) };
    held.set(key, out);
    return out;
  } finally {
    db?.close();
  }
}

/** Backups in `dir`, newest first, each with what it holds (read from the file itself). */
export function listBackups(dir: string, counters: BackupCounters): CatalogBackup[] {
  const out: CatalogBackup[] = [];
  for (const b of backupFiles(dir)) {
    try {
      out.push({ ...b, ...contentsOf(path.join(dir, b.id), counters) });
    } catch {
      // Removed while listing.
    }
  }
  return out;
}

/** The file of a listed backup; null for anything else (the id comes from the renderer). */
export function backupFile(dir: string, id: string): string | null {
  return NAME.test(id) && fs.existsSync(path.join(dir, id)) ? path.join(dir, id) : null;
}

/**
 * A backup becomes one file in rollback-journal mode: a copy keeps the catalog's WAL mode, and a
 * WAL-mode file opened read-only (to list what it holds, to check it before a restore) leaves a
 * -wal and a -shm beside it in the backups folder. A restored one is put back in WAL mode when the
 * catalog opens.
 */
function standalone(file: string): void {
  const db = openCatalog(file, { readonly: false, migrate: false });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * A snapshot of the open catalog into `dir` through SQLite's backup API, written under a temporary
 * name and renamed, so a half-written backup is never listed. Older ones of the same reason beyond
 * the few kept are removed. Returns the backup taken.
 */
export async function takeBackup(db: CatalogDb, dir: string, reason: BackupReason, now = Date.now()): Promise<BackupFile> {
  fs.mkdirSync(dir, { recursive: true });
  const name = backupName(reason, now);
  const tmp = path.join(dir, `.${name}.partial`);
  try {
    await db.backup(tmp);
    standalone(tmp);
    fs.renameSync(tmp, path.join(dir, name));
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  pruneBackups(dir, reason);
  return { id: name, takenAt: parseStamp(backupStamp(now)), reason, sizeBytes: fs.statSync(path.join(dir, name)).size };
}

/** A closed catalog file moved into the backups as one of `reason` (a restore sets the one it replaces aside this way); older ones beyond the few kept go. */
export function keepAsBackup(file: string, dir: string, reason: BackupReason, now = Date.now()): void {
  fs.mkdirSync(dir, { recursive: true });
  const kept = path.join(dir, backupName(reason, now));
  fs.renameSync(file, kept);
  try {
    standalone(kept);
  } catch {
    // Kept as it is: what it holds is then listed as unreadable, and a restore checks it again.
  }
  pruneBackups(dir, reason);
}

/**
 * When the catalog was last written: its file, or its WAL journal while that holds frames (an empty
 * journal is created by merely opening the catalog, which changes nothing).
 */
export function catalogChangedAt(file: string): number {
  const mtime = (f: string, nonEmpty: boolean) => {
    try {
      const st = fs.statSync(f);
      return nonEmpty && st.size === 0 ? 0 : st.mtimeMs;
    } catch {
      return 0;
    }
  };
  return Math.max(mtime(file, false), mtime(`${file}-wal`, true));
}

/**
 * Whether the daily backup is due. A backup is worth taking when there is something to keep: the
 * first once the catalog holds clips (a first backup of an empty catalog restores nothing, and
 * restoring the only backup on day one gave 0 clips), then one after each day's work: the newest
 * is a day old and the catalog was written since it was taken.
 */
export function dailyBackupDue(backups: readonly BackupFile[], catalog: { clips: number; changedAt: number }, now = Date.now()): boolean {
  const last = backups.find((b) => b.reason === 'daily');
  if (!last) return catalog.clips > 0;
  return now - last.takenAt >= DAY_MS && catalog.changedAt > last.takenAt;
}
