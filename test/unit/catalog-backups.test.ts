import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupFile, keepAsBackup, listBackups } from '../../src-main/core/catalog/catalog-backups';
import { tempDir } from '../helpers/paths';

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
    const kept = listBackups(backups);
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
