import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWal } from '../../../src-main/core/catalog/wal-check';
import { tempDir } from '../../helpers/paths';

/**
 * checkWal against WAL files SQLite itself wrote: a sound one, one damaged in the middle (which
 * SQLite then replays only in part, without a word), leftovers of an earlier generation and an
 * uncommitted tail (neither is damage).
 */
describe('checkWal', () => {
  let tmp: { dir: string; cleanup: () => void };
  let db: Database.Database;
  const file = () => path.join(tmp.dir, 'live.sqlite');

  beforeEach(() => {
    tmp = tempDir('rs-wal-');
    db = new Database(file());
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE marks (id INTEGER PRIMARY KEY, name TEXT)');
    db.pragma('wal_checkpoint(TRUNCATE)');
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  /** The catalog as a crash leaves it: main file and WAL copied while the connection is open. */
  const crashCopy = (name: string) => {
    const dst = path.join(tmp.dir, `${name}.sqlite`);
    fs.copyFileSync(file(), dst);
    fs.copyFileSync(`${file()}-wal`, `${dst}-wal`);
    return dst;
  };
  const rows = (f: string) => {
    const d = new Database(f);
    try {
      return (d.prepare('SELECT COUNT(*) AS n FROM marks').get() as { n: number }).n;
    } finally {
      d.close();
    }
  };
  const save40 = () => {
    const ins = db.prepare('INSERT INTO marks (name) VALUES (?)');
    for (let i = 0; i < 40; i++) ins.run(`range ${i} ${'x'.repeat(3000)}`);
  };

  it('finds nothing lost in a sound WAL', () => {
    save40();
    const copy = crashCopy('sound');
    const r = checkWal(`${copy}-wal`);
    expect(r).toMatchObject({ lost: 0, lostCommits: 0, reason: null });
    expect(r.replayed).toBeGreaterThan(40);
    expect(rows(copy)).toBe(40);
  });

  it('counts the transactions SQLite drops after a damaged frame', () => {
    save40();
    const copy = crashCopy('damaged');
    const wal = fs.readFileSync(`${copy}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const frames = (wal.length - 32) / (24 + pageSize);
    // Garbage in the page of a frame half-way through.
    const at = 32 + Math.floor(frames / 2) * (24 + pageSize) + 24 + 100;
    wal.fill(0xa5, at, at + 64);
    fs.writeFileSync(`${copy}-wal`, wal);
    const r = checkWal(`${copy}-wal`);
    expect(r.lostCommits).toBeGreaterThan(10);
    expect(r.reason).toMatch(/cannot be read/);
    // What SQLite does with it: the rows after the damage are gone, silently.
    expect(rows(copy)).toBe(40 - r.lostCommits);
  });

  it('calls a damaged WAL header a loss of everything in it', () => {
    save40();
    const copy = crashCopy('header');
    const wal = fs.readFileSync(`${copy}-wal`);
    wal.writeUInt32BE(wal.readUInt32BE(12) + 1, 12);
    fs.writeFileSync(`${copy}-wal`, wal);
    expect(checkWal(`${copy}-wal`)).toMatchObject({ lostCommits: 40, reason: expect.stringMatching(/header/) });
    expect(rows(copy)).toBe(0);
  });

  it('takes leftovers of an earlier generation and an uncommitted tail for what they are', () => {
    save40();
    db.pragma('wal_checkpoint(RESTART)');
    db.prepare('INSERT INTO marks (name) VALUES (?)').run('after restart');
    const copy = crashCopy('restarted');
    const torn = crashCopy('torn');
    // Old frames follow the new generation's few: not damage.
    expect(checkWal(`${copy}-wal`)).toMatchObject({ lost: 0, lostCommits: 0 });
    expect(rows(copy)).toBe(41);
    // A transaction cut off before its commit frame (a torn last frame) was never saved.
    const wal = fs.readFileSync(`${torn}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const first = checkWal(`${torn}-wal`).replayed;
    expect(first).toBeGreaterThan(0);
    fs.writeFileSync(`${torn}-wal`, wal.subarray(0, 32 + first * (24 + pageSize) - 10));
    expect(checkWal(`${torn}-wal`)).toMatchObject({ lostCommits: 0, reason: null });
  });

  // Issue 41 item 6b: a WAL whose header SQLite cannot use (its first bytes lost) was counted as
  // "1 saved change left out" whatever it held; it now counts the commit frames it holds.
  const headerLost = (walFile: string) => {
    const wal = fs.readFileSync(walFile);
    wal.fill(0, 0, 32);
    fs.writeFileSync(walFile, wal);
  };

  it('counts every transaction of a WAL whose header was lost, as SQLite then drops them all', () => {
    save40();
    const copy = crashCopy('no-header');
    headerLost(`${copy}-wal`);
    expect(checkWal(`${copy}-wal`)).toMatchObject({ lostCommits: 40, replayed: 0, reason: 'its header is not a WAL header' });
    expect(rows(copy)).toBe(0);
  });

  it('finds no saved change in a WAL whose frames hold no commit, with or without its header', () => {
    // A transaction larger than the page cache spills its pages into the WAL before it commits:
    // what a crash leaves of a save that never finished.
    db.pragma('cache_size = 2');
    db.exec('BEGIN');
    save40();
    const copy = crashCopy('uncommitted');
    db.exec('ROLLBACK');
    const wal = fs.readFileSync(`${copy}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const frames = (wal.length - 32) / (24 + pageSize);
    expect(frames).toBeGreaterThan(2);
    for (let n = 0; n < frames; n++) expect(wal.readUInt32BE(32 + n * (24 + pageSize) + 4)).toBe(0);
    expect(checkWal(`${copy}-wal`)).toMatchObject({ lostCommits: 0, lost: 0, reason: null });
    headerLost(`${copy}-wal`);
    expect(checkWal(`${copy}-wal`)).toMatchObject({ lostCommits: 0, lost: 0, reason: null });
    expect(rows(copy)).toBe(0);
  });
});
