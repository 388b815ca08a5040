import { afterEach, describe, expect, it } from 'vitest';
import { statement } from '../../../src-main/core/catalog/statements';
import { openTestCatalog } from '../../helpers/catalog/search-catalog';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function catalog() {
  const t = tempDir();
  const db = openTestCatalog(t.dir);
  cleanups.push(() => {
    db.close();
    t.cleanup();
  });
  return db;
}

describe('statement: compiled once per connection', () => {
  it('gives the same prepared statement for the same text on one connection, its own on another, and runs it with each call\'s parameters', () => {
    const a = catalog();
    const b = catalog();
    const sql = 'SELECT id FROM volumes WHERE volume_key = ?';
    const first = statement(a, sql);
    expect(statement(a, sql)).toBe(first);
    expect(statement(a, 'SELECT COUNT(*) AS n FROM volumes')).not.toBe(first);
    expect(statement(b, sql)).not.toBe(first);
    a.prepare("INSERT INTO volumes (volume_key, mount_path, online, last_seen_at) VALUES ('k1', '/a', 1, 0), ('k2', '/b', 1, 0)").run();
    expect(statement(a, sql).get('k2')).toEqual({ id: 2 });
    expect(statement(a, sql).get('k1')).toEqual({ id: 1 });
    expect(statement(b, sql).get('k1')).toBeUndefined();
  });
});
