import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/core/catalog/migrate';
import type { Migration } from '../../../src-main/core/catalog/migration';
import { MIGRATIONS } from '../../../src-main/core/catalog/migrations';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
/** The catalog as the app before 0045 left it. */
const BEFORE = Math.max(...MIGRATIONS.filter((m) => m.version < 45).map((m) => m.version));
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 0045: one word for finished', () => {
  it('calls finished jobs, stored tasks and clips done, rebuilding clips without losing a row that hangs off them', () => {
    const { file, old } = catalogAtVersion(BEFORE, cleanups);
    const now = Date.now();
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, ?)`).run(now);
    const clip = old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, source_url, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, ?, ?, ?, ?)`);
    clip.run(1, 'a.mp4', 'a.mp4', 'ready', null, now, now);
    clip.run(2, 'b.mp4', 'b.mp4', 'probed', null, now, now);
    clip.run(3, 'c.mp4', 'c.mp4', 'error', 'https://example.com/c.mp4', now, now);
    old.prepare('INSERT INTO shots (id, clip_id, idx, start_s, end_s) VALUES (10, 1, 0, 0, 2)').run();
    old.prepare("INSERT INTO segments (id, clip_id, shot_id, chunk_idx, start_s, end_s, profile_id) VALUES (20, 1, 10, 0, 0, 2, 'p')").run();
    const task = old.prepare("INSERT INTO service_tasks (segment_id, kind, region, task_id, status) VALUES (20, ?, 'asia', ?, ?)");
    task.run('embedding', 't1', 'completed');
    task.run('tagging', 't2', 'processing');
    const job = old.prepare("INSERT INTO jobs (clip_id, stage, state, resource, created_at, updated_at) VALUES (?, ?, ?, 'cpu', 1, 1)");
    job.run(1, 'probe', 'succeeded');
    job.run(1, 'upload', 'failed');
    job.run(2, 'probe', 'queued');
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    expect(db.prepare('SELECT id, status FROM clips ORDER BY id').all()).toEqual([
      { id: 1, status: 'done' },
      { id: 2, status: 'probed' },
      { id: 3, status: 'error' },
    ]);
    expect(db.prepare('SELECT stage, state FROM jobs ORDER BY id').all()).toEqual([
      { stage: 'probe', state: 'done' },
      { stage: 'upload', state: 'failed' },
      { stage: 'probe', state: 'queued' },
    ]);
    // The service's `completed` was parsed at its edge; stored, the pipeline's task says done.
    expect(db.prepare('SELECT kind, status FROM service_tasks ORDER BY kind').all()).toEqual([
      { kind: 'embedding', status: 'done' },
      { kind: 'tagging', status: 'processing' },
    ]);
    // Dropping the old clips table deleted nothing that references it.
    expect(db.prepare('SELECT COUNT(*) AS n FROM shots WHERE clip_id = 1').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM segments WHERE clip_id = 1').get()).toEqual({ n: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // The rebuilt table keeps its indexes, its unique keys and its cascades, and takes only the new word.
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'clips' AND sql IS NOT NULL ORDER BY name").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(['clips_fingerprint', 'clips_source_url', 'clips_status']));
    const insert = db.prepare("INSERT INTO clips (volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, ?, 'x', 1, 1, ?, 1, 1)");
    expect(() => insert.run('x.mp4', 'ready')).toThrow(/CHECK constraint/);
    expect(() => insert.run('a.mp4', 'done')).toThrow(/UNIQUE constraint/);
    expect(insert.run('x.mp4', 'done').changes).toBe(1);
    db.prepare('DELETE FROM clips WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM segments').get()).toEqual({ n: 0 });
  });

  it('rolls a rebuild back when it leaves rows pointing at nothing, foreign keys on again', () => {
    const { old } = catalogAtVersion(BEFORE, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    old.prepare("INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, 1, 'a', 'a', 1, 1, 'probed', 1, 1)").run();
    old.prepare('INSERT INTO shots (clip_id, idx, start_s, end_s) VALUES (1, 0, 0, 1)').run();
    const losesClips: Migration = { version: 999, name: 'a rebuild that forgets the rows', rebuildsTables: true, up: (db) => db.exec('DELETE FROM clips') };
    expect(() => migrate(old, [...MIGRATIONS, losesClips])).toThrow(/1 references pointing nowhere/);
    expect(old.prepare('SELECT COUNT(*) AS n FROM clips').get()).toEqual({ n: 1 });
    expect(old.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(old.pragma('foreign_keys', { simple: true })).toBe(1);
    old.close();
  });
});
