import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nextClipState, type ClipEvent, type ClipState } from '../../../src-main/core/library/clip-lifecycle';
import { applyClipEvent } from '../../../src-main/core/library/clips-repository';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { tempDir } from '../../helpers/paths';

const S = (status: ClipState['status'], hasShots = false, hasThumbs = false, indexed = false): ClipState => ({ status, hasShots, hasThumbs, indexed });

describe('clip lifecycle (state + event -> state)', () => {
  const cases: Array<[string, ClipState, ClipEvent, ClipState]> = [
    ['a probed file without shots is footage to work on', S('pending'), { type: 'probed', verdict: 'probed' }, S('probed')],
    ['a re-probe of a finished clip keeps it done', S('done', true, true, true), { type: 'probed', verdict: 'probed' }, S('done', true, true, true)],
    ['a file without video is unsupported', S('pending'), { type: 'probed', verdict: 'unsupported' }, S('unsupported')],
    ['shots before thumbnails: still probed', S('probed'), { type: 'shotsDetected', sameShots: false }, S('probed', true)],
    ['thumbnails after shots: done', S('probed', true), { type: 'thumbnailsMade' }, S('done', true, true)],
    ['the same shots again keep thumbnails and the index', S('done', true, true, true), { type: 'shotsDetected', sameShots: true }, S('done', true, true, true)],
    ['other shots drop thumbnails and the index', S('done', true, true, true), { type: 'shotsDetected', sameShots: false }, S('probed', true, false, false)],
    ['thumbnails of a failed clip do not make it ready', S('error', true), { type: 'thumbnailsMade' }, S('error', true, true)],
    ['a decode failure', S('probed', true), { type: 'failed', status: 'error' }, S('error', true)],
    ['new bytes reset everything', S('done', true, true, true), { type: 'contentChanged', empty: false }, S('pending')],
    ['an emptied file is an error', S('done', true, true, true), { type: 'contentChanged', empty: true }, S('error')],
    ['Process again starts from nothing', S('error', true, true, true), { type: 'processAgain' }, S('pending')],
    ['the index stage marks it indexed', S('done', true, true), { type: 'indexed' }, S('done', true, true, true)],
    ['a restart clears it', S('done', true, true, true), { type: 'indexCleared' }, S('done', true, true, false)],
  ];
  for (const [name, from, event, to] of cases) {
    it(name, () => expect(nextClipState(from, event)).toEqual(to));
  }

  it('never leaves a non-footage clip ready', () => {
    const events: ClipEvent[] = [{ type: 'shotsDetected', sameShots: true }, { type: 'thumbnailsMade' }, { type: 'indexed' }];
    for (const status of ['pending', 'error', 'unsupported'] as const) {
      let s = S(status);
      for (const e of events) s = nextClipState(s, e);
      expect(s.status).toBe(status);
    }
  });
});

describe('clips repository', () => {
  let db: CatalogDb | null = null;
  let cleanup = () => {};
  afterEach(() => {
    db?.close();
    db = null;
    cleanup();
  });

  it('writes every lifecycle step through the pure function, with stamps kept, set and cleared', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    db = openCatalog(path.join(t.dir, 'catalog.sqlite'));
    db.prepare("INSERT INTO volumes (id, volume_key, label, mount_path, online, last_seen_at) VALUES (1, 'root', '/', '/', 1, 0)").run();
    db.prepare("INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (1, 1, 'a.mp4', 'a.mp4', 10, 0, 'pending', 0, 0)").run();
    applyClipEvent(db, 1, { type: 'probed', verdict: 'probed' }, { duration_s: 4 });
    applyClipEvent(db, 1, { type: 'shotsDetected', sameShots: false }, { frame_count: 100 });
    const shotsAt = (db.prepare('SELECT shots_at FROM clips WHERE id = 1').get() as { shots_at: number }).shots_at;
    applyClipEvent(db, 1, { type: 'thumbnailsMade' });
    applyClipEvent(db, 1, { type: 'indexed' }, {}, { indexedProfile: 'p1' });
    const row = db.prepare('SELECT status, shots_at, duration_s, frame_count, indexed_profile FROM clips WHERE id = 1').get();
    expect(row).toEqual({ status: 'done', shots_at: shotsAt, duration_s: 4, frame_count: 100, indexed_profile: 'p1' });
    applyClipEvent(db, 1, { type: 'processAgain' });
    expect(db.prepare('SELECT status, shots_at, thumbs_at, indexed_at FROM clips WHERE id = 1').get()).toEqual({ status: 'pending', shots_at: null, thumbs_at: null, indexed_at: null });
    expect(() => applyClipEvent(db!, 1, { type: 'indexed' }, { status: 'done' })).toThrow(/not written with a lifecycle event/);
    expect(() => applyClipEvent(db!, 99, { type: 'indexed' })).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });
});
