import { afterEach, describe, expect, it } from 'vitest';
import { createQueryEmbeddingStore, normalizeQuery } from '../../../../src-main/core/search/query/query-embedding-store';
import { openTestCatalog, TEST_SPACE } from '../../../helpers/catalog/search-catalog';
import { tempDir } from '../../../helpers/paths';

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

describe('query-embedding store', () => {
  it('survives closing and reopening the catalog, keyed by normalised text, model and region', () => {
    const dir = fresh();
    let db = openTestCatalog(dir);
    const cache = createQueryEmbeddingStore(db);
    const v = Float32Array.from([0.25, -1.5, 3, 1e-7]);
    expect(cache.cachedVector('Red car', TEST_SPACE)).toBeUndefined();
    cache.save('Red car', TEST_SPACE, v);
    db.close();

    db = openTestCatalog(dir);
    const again = createQueryEmbeddingStore(db);
    const hit = again.cachedVector('  red   CAR ', TEST_SPACE);
    expect(hit).toBeDefined();
    expect(Array.from(hit!.vector)).toEqual(Array.from(v));
    // Another model or region is another embedding space: never served from this entry.
    expect(again.cachedVector('red car', { ...TEST_SPACE, model: 'other' })).toBeUndefined();
    expect(again.cachedVector('red car', { ...TEST_SPACE, region: 'usa' })).toBeUndefined();
    expect(again.typedCount(TEST_SPACE)).toBe(1);
    db.close();
  });

  it('lists recent queries newest first with their use counts', () => {
    let t = 1000;
    const db = openTestCatalog(fresh());
    const cache = createQueryEmbeddingStore(db, { now: () => t });
    cache.save('red', TEST_SPACE, [1, 0]);
    t = 2000;
    cache.save('blue', TEST_SPACE, [0, 1]);
    t = 3000;
    cache.cachedVector('RED', TEST_SPACE);
    const recent = cache.recentTyped(TEST_SPACE, 10);
    expect(recent.map((r) => r.normalized)).toEqual(['red', 'blue']);
    expect(recent[0]).toMatchObject({ text: 'RED', uses: 2, createdAt: 1000, lastUsedAt: 3000 });
    db.close();
  });

  it('keeps only the most recently used entries beyond its bound', () => {
    let t = 0;
    const db = openTestCatalog(fresh());
    const cache = createQueryEmbeddingStore(db, { maxEntries: 3, now: () => ++t });
    for (const w of ['a', 'b', 'c', 'd', 'e']) cache.save(w, TEST_SPACE, [1, 2]);
    cache.cachedVector('a', TEST_SPACE);
    expect(cache.prune()).toBe(2);
    expect(cache.recentTyped(TEST_SPACE, 10).map((r) => r.normalized).sort()).toEqual(['a', 'd', 'e']);
    db.close();
  });

  it('treats a damaged stored vector as a miss instead of failing the search', () => {
    const db = openTestCatalog(fresh());
    const cache = createQueryEmbeddingStore(db);
    cache.save('red', TEST_SPACE, [1, 2, 3]);
    db.prepare(`UPDATE query_embeddings SET vector = x'0102' WHERE text_norm = 'red'`).run();
    expect(cache.cachedVector('red', TEST_SPACE)).toBeUndefined();
    db.close();
  });
});
