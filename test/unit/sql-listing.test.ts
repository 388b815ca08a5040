import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths';

/**
 * docs/sql-statements.sql lists every SQL statement by the file that owns it (scripts/sql-listing.mjs):
 * it must be current, so a schema change or a new query shows in that one file's diff.
 */
describe('the SQL listing', () => {
  const script = path.join(REPO_ROOT, 'scripts', 'sql-listing.mjs');
  const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-sql-listing-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is current with the stores', () => {
    const r = run('--check');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'sql-statements.sql'), 'utf8')).toMatch(/-- ===== src-main\/core\/library\/clips-repository\.ts \(\d+\)/);
  });

  it('lists an owner\'s statements under the name that holds them, and notices one it does not list', () => {
    const lib = path.join(tmp, 'src-main', 'core', 'library');
    fs.mkdirSync(lib, { recursive: true });
    fs.writeFileSync(path.join(lib, 'reel-store.ts'), "export function reelOf(db: any, id: number) {\n  return db.prepare(`\n    SELECT reel\n      FROM clips WHERE id = ?`).get(id);\n}\n");
    // Not an owner: the lint rule flags it, the listing is of owners only.
    fs.writeFileSync(path.join(lib, 'reel-view.ts'), "export const q = 'DELETE FROM clips';\n");
    expect(run('--root', tmp, '--check').status).toBe(1);
    expect(run('--root', tmp).status).toBe(0);
    const listed = fs.readFileSync(path.join(tmp, 'docs', 'sql-statements.sql'), 'utf8');
    expect(listed).toContain('-- ===== src-main/core/library/reel-store.ts (1)\n-- reelOf\nSELECT reel\n  FROM clips WHERE id = ?;');
    expect(listed).not.toContain('DELETE FROM clips');
    expect(run('--root', tmp, '--check').status).toBe(0);
    // A new statement makes the listing stale until it is generated again.
    fs.appendFileSync(path.join(lib, 'reel-store.ts'), "export const countReels = 'SELECT count(*) FROM clips';\n");
    const stale = run('--root', tmp, '--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('not current');
  });
});
