import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src-main/core/catalog/migrations';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { partOfShot } from '../../../src-main/core/library/shot-store';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
/** The catalog as the app before 0052 left it. */
const BEFORE = Math.max(...MIGRATIONS.filter((m) => m.version < 52).map((m) => m.version));
afterEach(() => cleanups.splice(0).forEach((c) => c()));

// 29.97 fps: frame 47 starts at 1.568233 s, frame 101 at 3.369967 s; the kwargs rounded them to 1.568 and 3.370.
const T = (f: number) => (f * 1001) / 30000;

describe('migration 0052: segments carry their frames', () => {
  it("places each stored segment on its shot's frames, Out exclusive, and its shot's exact times at the shot's ends", () => {
    const { file, old } = catalogAtVersion(BEFORE, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    old.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, fps, created_at, updated_at) VALUES (1, 1, 'a.mov', 'a.mov', 1, 1, 'done', 29.97, 1, 1)`).run();
    const shot = old.prepare('INSERT INTO shots (id, clip_id, idx, start_s, end_s, start_frame, end_frame) VALUES (?, 1, ?, ?, ?, ?, ?)');
    shot.run(10, 0, 0, T(47), 0, 47);
    shot.run(11, 1, T(47), T(101), 47, 101);
    // A shot of a clip analysed from its URL: no frames.
    old.prepare('INSERT INTO shots (id, clip_id, idx, start_s, end_s) VALUES (12, 1, 2, 3.37, 5)').run();
    const seg = old.prepare("INSERT INTO segments (id, clip_id, shot_id, chunk_idx, start_s, end_s, profile_id) VALUES (?, 1, ?, ?, ?, ?, 'p')");
    seg.run(20, 10, 0, 0, 1.568);
    seg.run(21, 11, 0, 1.568, 2.5);
    seg.run(22, 11, 1, 2.5, 3.37);
    seg.run(23, 12, 0, 3.37, 5);
    old.close();

    const db = openCatalog(file);
    cleanups.unshift(() => db.close());
    expect(db.prepare('SELECT id, start_frame, end_frame, start_s, end_s FROM segments ORDER BY id').all()).toEqual([
      { id: 20, start_frame: 0, end_frame: 47, start_s: 0, end_s: T(47) },
      // 2.5 s is frame 74.9: the boundary between the shot's two segments is frame 75.
      { id: 21, start_frame: 47, end_frame: 75, start_s: T(47), end_s: 2.5 },
      { id: 22, start_frame: 75, end_frame: 101, start_s: 2.5, end_s: T(101) },
      { id: 23, start_frame: null, end_frame: null, start_s: 3.37, end_s: 5 },
    ]);
  });

  it('places a segment written now the same way (shot-store.ts partOfShot)', () => {
    const shot = { start_s: T(47), end_s: T(101), start_frame: 47, end_frame: 101 };
    expect(partOfShot(shot, 1.568, 2.5)).toEqual({ startS: T(47), endS: 2.5, startFrame: 47, endFrame: 75 });
    expect(partOfShot(shot, 2.5, 3.37)).toEqual({ startS: 2.5, endS: T(101), startFrame: 75, endFrame: 101 });
    expect(partOfShot({ ...shot, start_frame: null, end_frame: null }, 3.37, 5)).toEqual({ startS: 3.37, endS: 5, startFrame: null, endFrame: null });
  });
});
