import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { addKeywords, rate, removeKeyword } from '../../../src-main/core/marks/marks-repository';
import { createSearchModule, type SearchModule } from '../../../src-main/core/search/search-module';
import type { ServiceConfig } from '../../../src-main/core/service';
import type { SearchResponse } from '../../../src-shared/contract/search';
import type { EmulatorHandle } from '../../emulator/server';
import { openTestCatalog, TEST_SPACE } from '../../helpers/catalog/search-catalog';
import { emulatedCatalog, makeColourClips, type EmbeddedClip, type EmulatedCatalog } from './search-fixture';

/**
 * Search with the service gone: the emulator is stopped (connections refused) after the catalog
 * was built and a few queries were run online.
 */

const KEY = 'search-offline-key-4410';
let emu: EmulatorHandle;
let db: CatalogDb;
let dir: string;
let world: EmulatedCatalog | undefined;
let mod: SearchModule;
let clips: EmbeddedClip[];
let cfg: ServiceConfig;
const statuses: string[] = [];

const open = () =>
  createSearchModule({
    db,
    indexDir: path.join(dir, 'search-index'),
    space: () => TEST_SPACE,
    serviceConfig: () => cfg,
    index: { pollMs: 0 },
    events: { emit: (_e: string, p: { service: { state: string } }) => statuses.push(p.service.state) } as never,
  });
const text = (q: string, filters = {}) => mod.service.text({ text: q, topK: 5, filters, collections: true });
const names = (r: SearchResponse) => r.results.map((x) => clips.find((c) => c.clipId === x.clipId)!.name);

beforeAll(async () => {
  world = await emulatedCatalog({
    prefix: 'rs-search-offline-',
    key: KEY,
    emulator: { asyncPendingMs: 5, asyncProcessingMs: 5 },
    footage: (d) => makeColourClips(path.join(d, 'footage')),
  });
  ({ dir, emu, cfg, db, clips } = world);
  mod = open();
  await mod.start();
  // Online: these queries are encoded once and cached.
  for (const q of ['red', 'blue']) expect((await text(q)).query.origin).toBe('service');
  expect(mod.service.status().service.state).toBe('online');
  await emu.suspend();
}, 90_000);

afterAll(async () => {
  await mod?.dispose();
  db?.close();
  await world?.close();
});

describe('offline search (emulator stopped)', () => {
  it('runs an earlier query from the cache and says so', async () => {
    const r = await text('  RED ');
    expect(r.cannotRun).toBeNull();
    expect(r.query.origin).toBe('cache');
    expect(r.query.cachedAt).toEqual(expect.any(Number));
    expect(names(r)[0]).toBe('red');
    expect(r.results.every((x) => x.source === 'cache')).toBe(true);
  });

  it('keeps local results when the collection search cannot reach the service, then stops trying for a while', async () => {
    const red = clips.find((c) => c.name === 'red')!;
    db.prepare(`INSERT INTO collections (id, region, name, synced_at) VALUES ('col-1', 'asia', 'offline test', 0)`).run();
    db.prepare(`INSERT INTO collection_videos (collection_id, region, clip_id, video_id, status, updated_at) VALUES ('col-1', 'asia', ?, 'vid-1', 'processed', 0)`).run(red.clipId);
    try {
      const r = await text('red');
      expect(names(r)[0]).toBe('red');
      expect(r.collections?.error?.kind).toBe('offline');
      expect(r.collections?.searched).toEqual([]);
      const failedAt = mod.service.status().service.checkedAt;
      const again = await text('red');
      expect(names(again)[0]).toBe('red');
      expect(again.collections?.error?.kind).toBe('offline');
      // Not attempted again: an attempt would have failed (after a retry) and moved the check time.
      expect(mod.service.status().service.checkedAt).toBe(failedAt);
    } finally {
      db.prepare(`DELETE FROM collection_videos WHERE collection_id = 'col-1'`).run();
      db.prepare(`DELETE FROM collections WHERE id = 'col-1'`).run();
    }
  });

  it('gives a typed reason for a new query instead of failing', async () => {
    const r = await text('purple');
    expect(r.results).toEqual([]);
    expect(r.cannotRun?.kind).toBe('offline');
    expect(r.cannotRun?.message).toMatch(/offline/i);
    expect(r.cannotRun?.message).toMatch(/cache/);
    const s = mod.service.status();
    expect(s.service.state).toBe('offline');
    expect(s.service.error?.kind).toBe('offline');
    expect(statuses).toContain('offline');
  });

  it('finds similar segments from any segment', async () => {
    const blue = clips.find((c) => c.name === 'blue')!.segments[0]!.id;
    const r = await mod.service.similar({ segmentId: blue, topK: 3, filters: {}, exclude: 'none' });
    expect(r.cannotRun).toBeNull();
    expect(names(r)[0]).toBe('green-then-blue');
    expect(r.results[0]!.inFrame).toBe(20);
  });

  it('applies filters to cached queries and to find-similar', async () => {
    const twoShot = clips.find((c) => c.name === 'green-then-blue')!;
    const r = await text('blue', { durationS: { max: 3 } });
    expect(names(r)[0]).toBe('blue');
    expect(names(r)).not.toContain('green-then-blue');
    const tagged = r.results[0]!.tags.find((t) => t.field === 'shotSize')!;
    const byTag = await text('blue', { tags: { shotSize: [tagged.canonical], source: 'service' } });
    expect(byTag.results.length).toBeGreaterThan(0);
    expect(byTag.results.every((x) => x.tags.some((t) => t.canonical === tagged.canonical))).toBe(true);
    const sim = await mod.service.similar({ segmentId: twoShot.segments[1]!.id, topK: 5, filters: { clipIds: [twoShot.clipId] }, exclude: 'none' });
    expect(sim.results.map((x) => x.segmentId)).toEqual([twoShot.segments[0]!.id]);
  });

  it("filters by the editor's marks: rating and keyword (issue 11)", async () => {
    const blue = clips.find((c) => c.name === 'blue')!;
    rate(db, { clipIds: [blue.clipId], rangeIds: [] }, 'reject');
    addKeywords(db, { clipIds: [blue.clipId], rangeIds: [] }, ['sky']);
    try {
      expect(names(await text('blue'))).toContain('blue');
      expect(names(await text('blue', { rating: 'not_rejected' }))).not.toContain('blue');
      expect(names(await text('blue', { rating: 'reject' }))).toEqual(['blue']);
      expect(names(await text('blue', { keyword: 'SKY' }))).toEqual(['blue']);
    } finally {
      rate(db, { clipIds: [blue.clipId], rangeIds: [] }, null);
      removeKeyword(db, { clipIds: [blue.clipId], rangeIds: [] }, 'sky');
    }
  });

  it('still runs cached queries after a restart with the service gone', async () => {
    await mod.dispose();
    db.close();
    db = openTestCatalog(dir);
    mod = open();
    await mod.start();
    expect(mod.index.status().origin).toBe('loaded');
    const r = await text('blue');
    expect(r.query.origin).toBe('cache');
    expect(names(r).slice(0, 2).sort()).toEqual(['blue', 'green-then-blue']);
    expect((await text('purple')).cannotRun?.kind).toBe('offline');
    const history = await mod.handlers['search.history']({ limit: 10 }, { transport: 'test' });
    expect(history.queries.map((q) => q.normalized).sort()).toEqual(['blue', 'red']);
  });

  it('runs new queries again once the service is back', async () => {
    await emu.resume();
    const r = await text('purple');
    expect(r.cannotRun).toBeNull();
    expect(r.query.origin).toBe('service');
    expect(mod.service.status().service.state).toBe('online');
  });

  it('without a key, cached queries run and new ones say the key is missing', async () => {
    const saved = cfg;
    cfg = { ...cfg, apiKey: '' };
    try {
      expect((await text('red')).query.origin).toBe('cache');
      const r = await text('orange');
      expect(r.cannotRun?.kind).toBe('auth');
      expect(mod.service.status().service.state).toBe('unconfigured');
    } finally {
      cfg = saved;
    }
  });
});
