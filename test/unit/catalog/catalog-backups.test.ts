import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupFile, backupFiles, dailyBackupDue, keepAsBackup, type BackupFile } from '../../../src-main/core/catalog/catalog-backups';
import { tempDir } from '../../helpers/paths';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

describe('a catalog set aside by a restore', () => {
  it('becomes a before-restore backup, and only the newest two are kept', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const backups = path.join(t.dir, 'backups');
    const day = Date.UTC(2026, 10, 26, 12, 0, 0);
    for (let i = 0; i < 3; i++) {
      const file = path.join(t.dir, 'catalog.sqlite');
      fs.writeFileSync(file, `catalog ${i}`);
      keepAsBackup(file, backups, 'before-restore', day + i * 60_000);
      expect(fs.existsSync(file)).toBe(false);
    }
    const kept = backupFiles(backups);
    expect(kept.map((b) => [b.id, b.reason])).toEqual([
      ['catalog-20261126T120200Z-before-restore.sqlite', 'before-restore'],
      ['catalog-20261126T120100Z-before-restore.sqlite', 'before-restore'],
    ]);
    expect(fs.readFileSync(backupFile(backups, kept[0]!.id)!, 'utf8')).toBe('catalog 2');
    // The oldest went; a name that is not a backup is never a file to restore.
    expect(backupFile(backups, 'catalog-20261126T120000Z-before-restore.sqlite')).toBeNull();
    expect(backupFile(backups, '../catalog.sqlite')).toBeNull();
  });
});

describe('the daily backup', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  const day = 24 * 60 * 60 * 1000;
  const daily = (takenAt: number): BackupFile => ({ id: 'catalog-x-daily.sqlite', takenAt, reason: 'daily', sizeBytes: 1 });
  const migration: BackupFile = { id: 'catalog-x-before-migration.sqlite', takenAt: now - 2 * day, reason: 'before-migration', sizeBytes: 1 };

  it('is never taken of an empty catalog first, and is taken at once when the first clips are in', () => {
    expect(dailyBackupDue([], { clips: 0, changedAt: now }, now)).toBe(false);
    expect(dailyBackupDue([migration], { clips: 0, changedAt: now }, now)).toBe(false);
    expect(dailyBackupDue([], { clips: 1, changedAt: now }, now)).toBe(true);
    expect(dailyBackupDue([migration], { clips: 1, changedAt: now }, now)).toBe(true);
  });

  it('is taken again after a day, only when the catalog was written since', () => {
    expect(dailyBackupDue([daily(now - day)], { clips: 5, changedAt: now - 60_000 }, now)).toBe(true);
    expect(dailyBackupDue([daily(now - day)], { clips: 5, changedAt: now - day - 1 }, now)).toBe(false);
    expect(dailyBackupDue([daily(now - day + 60_000)], { clips: 5, changedAt: now }, now)).toBe(false);
  });
});
