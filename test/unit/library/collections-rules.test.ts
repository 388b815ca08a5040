import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { createCollectionStore } from '../../../src-main/core/collections/collection-store';
import { ffmpegFailureReason, progressParser, PROXY_ARGS } from '../../../src-main/core/collections/proxy-transcode';
import { DIRECT_UPLOAD_MAX_BYTES, planUpload } from '../../../src-main/core/collections/upload-rule';

const MB = 1024 * 1024;

describe('upload rule: original under 100 MB in mp4/mov, a proxy otherwise', () => {
  it('sends small mp4 and mov files as they are', () => {
    expect(planUpload({ path: '/a/clip.mp4', sizeBytes: 5 * MB, container: 'mp4' }).source).toBe('original');
    expect(planUpload({ path: '/a/clip.MOV', sizeBytes: 5 * MB, container: 'mov' }).source).toBe('original');
    expect(planUpload({ path: '/a/clip.m4v', sizeBytes: 5 * MB, container: null }).source).toBe('original');
  });

  it('the limit is "under 100 MB": exactly 100 MB already goes as a proxy', () => {
    expect(DIRECT_UPLOAD_MAX_BYTES).toBe(100 * MB);
    expect(planUpload({ path: 'x.mp4', sizeBytes: 100 * MB - 1, container: 'mp4' }).source).toBe('original');
    const p = planUpload({ path: 'x.mp4', sizeBytes: 100 * MB, container: 'mp4' });
    expect(p.source).toBe('proxy');
    expect(p.reason).toMatch(/100\.0 MB/);
  });

  it('other containers go as a proxy whatever their size; the probed container wins over the extension', () => {
    expect(planUpload({ path: 'x.mkv', sizeBytes: 1000, container: 'matroska' }).reason).toMatch(/matroska is not mp4\/mov/);
    expect(planUpload({ path: 'x.webm', sizeBytes: 1000, container: null }).source).toBe('proxy');
    expect(planUpload({ path: 'x.avi', sizeBytes: 1000, container: 'avi' }).source).toBe('proxy');
    // A Matroska file named .mp4 is not an mp4.
    expect(planUpload({ path: 'mislabelled.mp4', sizeBytes: 1000, container: 'matroska' }).source).toBe('proxy');
    expect(planUpload({ path: 'noext', sizeBytes: 1000, container: null }).reason).toMatch(/unknown/);
  });

  it('the threshold is a parameter (tests lower it)', () => {
    expect(planUpload({ path: 'x.mp4', sizeBytes: 2 * MB, container: 'mp4' }, 1 * MB).source).toBe('proxy');
    expect(planUpload({ path: 'x.mp4', sizeBytes: 2 * MB, container: 'mp4' }, 3 * MB).source).toBe('original');
  });
});

describe('proxy transcode helpers', () => {
  it('the proxy is H.264/AAC mp4 with faststart, at most 720 lines, even height', () => {
    const args = PROXY_ARGS.join(' ');
    expect(args).toContain('-c:v libx264 -preset veryfast -crf 28');
    expect(args).toContain('-c:a aac -b:a 96k');
    expect(args).toContain('-movflags +faststart');
    expect(args).toContain("scale=-2:'min(720,trunc(ih/2)*2)'");
  });

  it('progress comes from out_time_us over the duration, across chunk boundaries, and ends at 1', () => {
    const seen: number[] = [];
    const feed = progressParser(10, (f) => seen.push(f));
    feed('frame=1\nout_time_us=2500');
    feed('000\nprogress=continue\nout_time_ms=5000000\n');
    feed('out_time_us=99000000\nprogress=end\n');
    expect(seen).toEqual([0.25, 0.5, 1, 1]);
    const none: number[] = [];
    progressParser(null, (f) => none.push(f))('out_time_us=1000000\nprogress=end\n');
    expect(none).toEqual([1]);
  });

  it('a failure names ffmpeg\'s last real line', () => {
    expect(ffmpegFailureReason('Input #0...\nframe=  10 fps\n/x/y.mkv: Invalid data found when processing input\n')).toBe('/x/y.mkv: Invalid data found when processing input');
    expect(ffmpegFailureReason('')).toBe('no message');
  });
});

describe('collection store: the mapping and its re-attach rules', () => {
  let db: CatalogDb | undefined;
  afterEach(() => db?.close());

  function setup() {
    db = openCatalog(':memory:');
    const t = Date.now();
    db.prepare(`INSERT INTO volumes (id, volume_key, mount_path, last_seen_at) VALUES (1, 'v', '/media', ?)`).run(t);
    for (const id of [1, 2, 3, 4]) {
      db.prepare(`INSERT INTO clips (id, volume_id, rel_path, file_name, size_bytes, mtime_ms, status, created_at, updated_at) VALUES (?, 1, ?, ?, 1, 1, 'pending', ?, ?)`).run(id, `c${id}.mp4`, `c${id}.mp4`, t, t);
    }
    const store = createCollectionStore(db);
    store.upsertCollection('asia', { id: 'col', name: 'Col' });
    return store;
  }

  it('attach queues new clips once; a second attach leaves them alone', () => {
    const store = setup();
    expect(store.attach('asia', 'col', [1, 2])).toEqual({ queued: [1, 2], already: [] });
    expect(store.attach('asia', 'col', [2, 3])).toEqual({ queued: [3], already: [2] });
    expect(store.openClipIds('asia')).toEqual([1, 2, 3]);
    expect(store.summary('asia', 'col')).toMatchObject({ videos: 3, inFlight: 3, processed: 0 });
  });

  it('startUpload counts uploads and refuses a row that already has its video_id', () => {
    const store = setup();
    store.attach('asia', 'col', [1]);
    const key = { collectionId: 'col', region: 'asia', clipId: 1 };
    expect(store.startUpload(key)).toBe(true);
    expect(store.row(key)).toMatchObject({ status: 'uploading', uploads: 1 });
    store.recordVideoId(key, 'vid-1', 'original');
    expect(store.startUpload(key)).toBe(false);
    expect(store.row(key)).toMatchObject({ status: 'uploaded', uploads: 1, videoId: 'vid-1', source: 'original' });
    expect(store.clipsByVideoId('asia', 'col', ['vid-1', 'other'])).toEqual(new Map([['vid-1', { clipId: 1, fileName: 'c1.mp4' }]]));
  });

  it('re-attach: a video the service failed is uploaded anew, a cancelled or timed-out one is polled again', () => {
    const store = setup();
    store.attach('asia', 'col', [1, 2, 3, 4]);
    const k = (clipId: number) => ({ collectionId: 'col', region: 'asia', clipId });
    store.recordVideoId(k(1), 'v1', 'original');
    store.update(k(1), { status: 'failed', errorKind: 'media', errorMessage: 'cannot decode' });
    store.recordVideoId(k(2), 'v2', 'original');
    store.update(k(2), { status: 'cancelled' });
    store.recordVideoId(k(3), 'v3', 'original');
    store.update(k(3), { status: 'failed', errorKind: 'timeout', errorMessage: 'gave up' });
    store.update(k(4), { status: 'failed', errorKind: 'io', errorMessage: 'file not found' });
    expect(store.attach('asia', 'col', [1, 2, 3, 4]).queued).toEqual([1, 2, 3, 4]);
    expect(store.row(k(1))).toMatchObject({ status: 'queued', videoId: null, errorMessage: null });
    expect(store.row(k(2))).toMatchObject({ status: 'uploaded', videoId: 'v2' });
    expect(store.row(k(3))).toMatchObject({ status: 'uploaded', videoId: 'v3', errorKind: null });
    expect(store.row(k(4))).toMatchObject({ status: 'queued', videoId: null });
  });

  it('a service list replaces the cache but keeps collections that hold attached clips', () => {
    const store = setup();
    store.upsertCollection('asia', { id: 'gone', name: 'Gone' });
    store.upsertCollection('asia', { id: 'kept', name: 'Kept', description: 'mine' });
    store.attach('asia', 'kept', [1]);
    store.replaceCollections('asia', [{ id: 'col', name: 'Col renamed' }, { id: 'new', name: 'New' }]);
    expect(store.summaries('asia').map((c) => [c.id, c.name, c.description])).toEqual([
      ['col', 'Col renamed', null],
      ['kept', 'Kept', 'mine'],
      ['new', 'New', null],
    ]);
    expect(store.summaries('usa')).toEqual([]);
  });
});
