import { afterEach, describe, expect, it } from 'vitest';
import { createQueryCache, normalizeQuery } from '../../src-main/core/search/query-cache';
import { openTestCatalog, TEST_SPACE } from '../helpers/search-catalog';
import { tempDir } from '../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function fresh() {
  const t = tempDir('rs-qcache-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('query normalisation', () => {
  it('folds case, width and whitespace but keeps words and punctuation', () => {
    expect(normalizeQuery('  Red   CAR\tat night ')).toBe('red car at night');
    expect(normalizeQuery('ＲＥＤ car')).toBe('red car');
    expect(normalizeQuery('red car?')).not.toBe(normalizeQuery('red car'));
    expect(normalizeQuery('red car')).not.toBe(normalizeQuery('blue car'));
  });
});

describe('query-embedding cache', () => {
  it('survives closing and reopening the catalog, keyed by normalised text, model and region', () => {
    const dir = fresh();
    let db = openTestCatalog(dir);
    const cache = createQueryCache(db);
    const v = Float32Array.from([0.25, -1.5, 3, 1e-7]);
    expect(cache.get('Red car', TEST_SPACE)).toBeUndefined();
    cache.put('Red car', TEST_SPACE, v);
    db.close();

    db = openTestCatalog(dir);
    const again = createQueryCache(db);
    const hit = again.get('  red   CAR ', TEST_SPACE);
    expect(hit).toBeDefined();
    expect(Array.from(hit!.vector)).toEqual(Array.from(v));
    // Another model or region is another embedding space: never served from this entry.
    expect(again.get('red car', { ...TEST_SPACE, model: 'other' })).toBeUndefined();
    expect(again.get('red car', { ...TEST_SPACE, region: 'usa' })).toBeUndefined();
    expect(again.count(TEST_SPACE)).toBe(1);
    db.close();
  });

  it('lists recent queries newest first with their use counts', () => {
    let t = 1000;
    const db = openTestCatalog(fresh());
    const cache = createQueryCache(db, { now: () => t });
    cache.put('red', TEST_SPACE, [1, 0]);
    t = 2000;
    cache.put('blue', TEST_SPACE, [0, 1]);
    t = 3000;
    cache.get('RED', TEST_SPACE);
    const recent = cache.recent(TEST_SPACE, 10);
    expect(recent.map((r) => r.normalized)).toEqual(['red', 'blue']);
    expect(recent[0]).toMatchObject({ text: 'RED', uses: 2, createdAt: 1000, lastUsedAt: 3000 });
    db.close();
  });

  it('keeps only the most recently used entries beyond its bound', () => {
    let t = 0;
    const db = openTestCatalog(fresh());
    const cache = createQueryCache(db, { maxEntries: 3, now: () => ++t });
    for (const w of ['a', 'b', 'c', 'd', 'e']) cache.put(w, TEST_SPACE, [1, 2]);
    cache.get('a', TEST_SPACE);
    expect(cache.prune()).toBe(2);
    expect(cache.recent(TEST_SPACE, 10).map((r) => r.normalized).sort()).toEqual(['a', 'd', 'e']);
    db.close();
  });

  it('treats a damaged stored vector as a miss instead of failing the search', () => {
    const db = openTestCatalog(fresh());
    const cache = createQueryCache(db);
    cache.put('red', TEST_SPACE, [1, 2, 3]);
    db.prepare(`UPDATE query_embeddings SET vector = x'0102' WHERE text_norm = 'red'`).run();
    expect(cache.get('red', TEST_SPACE)).toBeUndefined();
    db.close();
  });
});
