import fs from 'node:fs';
import path from 'node:path';
import type { CatalogBackup, BackupReason } from '../../../src-shared/contract/catalog';
import type { CatalogDb } from './open-catalog';

/**
 * Copies of the catalog taken with SQLite's online backup API (a consistent snapshot while the
 * app keeps writing): before migrations change its schema, and once a day. They live in
 * `<dataDir>/backups/` as `catalog-<UTC time>-<reason>.sqlite`; the newest few of each reason are
 * kept. A restore (catalog-shell.ts) puts one back in place of the catalog.
 */
export const BACKUP_DIR = 'backups';
const KEEP: Record<BackupReason, number> = { daily: 3, 'before-migration': 3, 'before-restore': 2 };
const DAY_MS = 24 * 60 * 60 * 1000;
const NAME = /^catalog-(\d{8}T\d{6}Z)-(daily|before-migration|before-restore)\.sqlite$/;

/** A moment as backups (and a damaged catalog set aside) are named: `20261126T123000Z`, UTC. */
export function backupStamp(at: number): string {
  return new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

const backupName = (reason: BackupReason, at: number) => `catalog-${backupStamp(at)}-${reason}.sqlite`;

/** Older backups of a reason beyond the few kept go. */
function pruneBackups(dir: string, reason: BackupReason): void {
  for (const old of listBackups(dir).filter((b) => b.reason === reason).slice(KEEP[reason])) fs.rmSync(path.join(dir, old.id), { force: true });
}

function parseStamp(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Backups in `dir`, newest first. */
export function listBackups(dir: string): CatalogBackup[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: CatalogBackup[] = [];
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

/** The file of a listed backup; null for anything else (the id comes from the renderer). */
export function backupFile(dir: string, id: string): string | null {
  return NAME.test(id) && fs.existsSync(path.join(dir, id)) ? path.join(dir, id) : null;
}

/**
 * A snapshot of the open catalog into `dir` through SQLite's backup API, written under a temporary
 * name and renamed, so a half-written backup is never listed. Older ones of the same reason beyond
 * the few kept are removed. Returns the backup taken.
 */
export async function takeBackup(db: CatalogDb, dir: string, reason: BackupReason, now = Date.now()): Promise<CatalogBackup> {
  fs.mkdirSync(dir, { recursive: true });
  const name = backupName(reason, now);
  const tmp = path.join(dir, `.${name}.partial`);
  try {
    await db.backup(tmp);
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
  fs.renameSync(file, path.join(dir, backupName(reason, now)));
  pruneBackups(dir, reason);
}

/** Whether the day's backup is due: none yet, or the newest daily one is a day old. */
export function dailyBackupDue(backups: readonly CatalogBackup[], now = Date.now()): boolean {
  const last = backups.find((b) => b.reason === 'daily');
  return !last || now - last.takenAt >= DAY_MS;
}
