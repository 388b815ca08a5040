import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../../src-main/core/catalog/migrate';
import { MIGRATIONS } from '../../../src-main/core/catalog/migrations';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function freshFile(): string {
  const t = tempDir('reelscout-migrate-');
  cleanups.push(t.cleanup);
  return path.join(t.dir, 'catalog.sqlite');
}

describe('catalog migrations (library tables)', () => {
  it('upgrades a version-1 catalog with data to the latest version without losing rows', () => {
    const { file, old } = catalogAtVersion(1, cleanups);
    const now = Date.now();
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, label, online, last_seen_at) VALUES (1, 'uuid:abcd', '/media/card', 'CARD', 1, ?)`).run(now);
    old.prepare(
      `INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, fingerprint, status, duration_s, width, height, created_at, updated_at)
       VALUES (7, 1, 'DCIM/ünï côde.mp4', 'ünï côde.mp4', 1234, 99, 'ff00', 'ready', 4.5, 1920, 1080, ?, ?)`,
    ).run(now, now);
    old.prepare(`INSERT INTO shots (id, clip_id, idx, start_s, end_s, start_frame, end_frame) VALUES (3, 7, 0, 0, 4.5, 0, 112)`).run();
    old.prepare(`INSERT INTO thumbnails (clip_id, shot_id, kind, path, width, height) VALUES (7, 3, 'poster', '7/v1/poster-0001.jpg', 320, 180)`).run();
    old.prepare(`INSERT INTO jobs (clip_id, stage, state, resource, created_at, updated_at) VALUES (7, 'probe', 'succeeded', 'cpu', ?, ?)`).run(now, now);
    old.close();

    // Reopening with the app's opener runs every newer migration.
    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    const latest = Math.max(...MIGRATIONS.map((m) => m.version));
    expect(latest).toBeGreaterThanOrEqual(2);
    expect(schemaVersion(db)).toBe(latest);
    expect(db.prepare('SELECT rel_path, status, width FROM clips WHERE id = 7').get()).toEqual({ rel_path: 'DCIM/ünï côde.mp4', status: 'done', width: 1920 }); // 0045: one word for finished
    expect(db.prepare('SELECT COUNT(*) AS n FROM shots WHERE clip_id = 7').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT path FROM thumbnails WHERE clip_id = 7').get()).toEqual({ path: '7/v1/poster-0001.jpg' });
    expect(db.prepare('SELECT state FROM jobs WHERE clip_id = 7').get()).toEqual({ state: 'done' });
    // Version 2 (import log) is usable on the upgraded file, and references stay enforced.
    const imp = db.prepare(`INSERT INTO imports (roots_json, state, started_at) VALUES ('["/media/card"]', 'done', ?)`).run(now);
    db.prepare(`INSERT INTO import_issues (import_id, path, reason, code) VALUES (?, '/media/card/.x', 'hidden file or folder', 'hidden')`).run(imp.lastInsertRowid);
    expect(() => db.prepare(`INSERT INTO import_issues (import_id, path, reason, code) VALUES (999, 'x', 'y', 'hidden')`).run()).toThrow(/FOREIGN KEY/);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('is a no-op on an up-to-date catalog and refuses a newer one', () => {
    const file = freshFile();
    const db = openCatalog(file);
    const v = schemaVersion(db);
    expect(migrate(db)).toBe(v);
    db.pragma(`user_version = ${v + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this app/);
    db.close();
  });

  it('rejects rows that break the library constraints', () => {
    const db = openCatalog(':memory:');
    const now = Date.now();
    db.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/', 1, ?)`).run(now);
    const ins = db.prepare(
      `INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (?, ?, 'a.mp4', 1, 1, ?, ?, ?)`,
    );
    ins.run(1, 'a.mp4', 'pending', now, now);
    expect(() => ins.run(1, 'a.mp4', 'pending', now, now)).toThrow(/UNIQUE/);
    expect(() => ins.run(1, 'b.mp4', 'bogus', now, now)).toThrow(/CHECK/);
    expect(() => ins.run(42, 'c.mp4', 'pending', now, now)).toThrow(/FOREIGN KEY/);
    db.close();
  });
});
