import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../../src-main/core/catalog/open-catalog';
import { addKeywords, clipMarks, deleteRange, removeKeyword } from '../../../src-main/core/marks/marks-repository';
import { unsentCount } from '../../../src-main/core/marks/marks-outbox-store';
import { rangesForClips } from '../../../src-main/core/marks/range-store';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 0047: marks offline first', () => {
  it('stamps marks made before it with their last change, gives ranges uuids, and lists them all to be sent', () => {
    const { file, old } = catalogAtVersion(46, cleanups);
    old.prepare(`INSERT INTO volumes (id, volume_key, mount_path, online, last_seen_at) VALUES (1, 'k', '/m', 1, 1)`).run();
    old.prepare("INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, 1, 'a', 'a', 1, 1, 'done', 1, 1)").run();
    old.prepare("INSERT INTO clip_marks (clip_id, rating, updated_at) VALUES (1, 'favorite', 1000)").run();
    const range = old.prepare("INSERT INTO ranges (id, clip_id, in_frame, out_frame, rate_num, rate_den, name, note, rating, created_at, updated_at) VALUES (?, 1, 0, 10, 25, 1, ?, '', NULL, 500, ?)");
    range.run(7, 'one', 2000);
    range.run(8, 'two', 3000);
    old.prepare("INSERT INTO keywords (clip_id, range_id, keyword) VALUES (1, NULL, 'Beach'), (1, 7, 'hero')").run();
    old.close();

    const db = openCatalog(file);
    const rows = db.prepare('SELECT id, uuid, span_at, name_at, note_at, rating_at, name_by, deleted_at FROM ranges ORDER BY id').all() as { uuid: string }[];
    expect(rows).toEqual([
      { id: 7, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), span_at: 2000, name_at: 2000, note_at: 2000, rating_at: 2000, name_by: null, deleted_at: null },
      { id: 8, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), span_at: 3000, name_at: 3000, note_at: 3000, rating_at: 3000, name_by: null, deleted_at: null },
    ]);
    expect(rows[0]!.uuid).not.toBe(rows[1]!.uuid);
    expect(db.prepare('SELECT rating, rating_at, rating_by FROM clip_marks').get()).toEqual({ rating: 'favorite', rating_at: 1000, rating_by: null });
    expect(db.prepare('SELECT kind, row_id FROM marks_outbox ORDER BY kind, row_id').all()).toEqual([
      { kind: 'clip', row_id: 1 },
      { kind: 'keyword', row_id: 1 },
      { kind: 'keyword', row_id: 2 },
      { kind: 'range', row_id: 7 },
      { kind: 'range', row_id: 8 },
    ]);
    // the clock is past every stamp it found
    expect((db.prepare('SELECT last_at FROM marks_clock').get() as { last_at: number }).last_at).toBeGreaterThanOrEqual(3000);

    // and the marks read and change as before, tombstones and removals out of sight
    expect(clipMarks(db, 1).keywords).toEqual(['Beach']);
    deleteRange(db, 8);
    removeKeyword(db, { clipIds: [1], rangeIds: [] }, 'beach');
    expect(rangesForClips(db, [1]).map((r) => [r.name, r.keywords])).toEqual([['one', ['hero']]]);
    expect(clipMarks(db, 1).keywords).toEqual([]);
    addKeywords(db, { clipIds: [1], rangeIds: [] }, ['BEACH']);
    expect(clipMarks(db, 1).keywords).toEqual(['BEACH']);
    expect(unsentCount(db)).toBe(5);
    db.close();
  });
});
