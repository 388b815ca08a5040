import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listing } from '../../../scripts/sql-listing.mjs';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * docs/sql-statements.sql lists every SQL statement by the file that owns it (scripts/sql-listing.mjs):
 * it must be current, so a schema change or a new query shows in that one file's diff.
 */
describe('the SQL listing', () => {
  const { dir: tmp, cleanup } = tempDir();
  afterAll(cleanup);

  it('is current with the stores', () => {
    const written = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'sql-statements.sql'), 'utf8');
    expect(written).toMatch(/-- ===== src-main\/core\/library\/clips-repository\.ts \(\d+\)/);
    // Not toBe on the whole text: a stale line should be the one the failure shows.
    expect(listing().split('\n')).toEqual(written.split('\n'));
  });

  it('lists an owner\'s statements under the name that holds them; its --check fails until it is generated again', () => {
    const lib = path.join(tmp, 'src-main', 'core', 'library');
    fs.mkdirSync(lib, { recursive: true });
    fs.writeFileSync(path.join(lib, 'reel-store.ts'), "export function reelOf(db: any, id: number) {\n  return db.prepare(`\n    SELECT reel\n      FROM clips WHERE id = ?`).get(id);\n}\n");
    // Not an owner: the lint rule flags it, the listing is of owners only.
    fs.writeFileSync(path.join(lib, 'reel-view.ts'), "export const q = 'DELETE FROM clips';\n");
    const listed = listing(tmp);
    expect(listed).toContain('-- ===== src-main/core/library/reel-store.ts (1)\n-- reelOf\nSELECT reel\n  FROM clips WHERE id = ?;');
    expect(listed).not.toContain('DELETE FROM clips');
    fs.mkdirSync(path.join(tmp, 'docs'));
    fs.writeFileSync(path.join(tmp, 'docs', 'sql-statements.sql'), listed);
    // A new statement makes the written listing stale, and the script's check says so.
    fs.appendFileSync(path.join(lib, 'reel-store.ts'), "export const countReels = 'SELECT count(*) FROM clips';\n");
    const stale = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'sql-listing.mjs'), '--root', tmp, '--check'], { encoding: 'utf8' });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('not current');
  });
});
