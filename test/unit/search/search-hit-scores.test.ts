import { describe, expect, it } from 'vitest';
import { ExactVectorIndex } from '../../../src-main/core/search/index/exact-search';
import { TextRelevance } from '../../../src-main/core/search/relevance/relevance-model';
import { scoredCollectionHits, scoredHits, unit } from '../../../src-main/core/search/results/hit-scores';
import { inLibraryOrder } from '../../../src-main/core/search/results/page-response';
import { localHits } from '../../../src-main/core/search/results/paging';
import { groupResults, type Hit } from '../../../src-main/core/search/results/result-groups';
import type { SegmentPlace } from '../../../src-main/core/search/results/result-store';
import { seededRandom } from '../../../src-main/core/util/seeded-random';

const DIM = 16;

function randomUnit(rnd: () => number): Float32Array {
  return unit(Array.from({ length: DIM }, () => rnd() * 2 - 1));
}

/** An index of `n` random unit vectors, ids 1..n. */
function indexOf(n: number, seed = 7): ExactVectorIndex {
  const rnd = seededRandom(seed);
  const index = new ExactVectorIndex();
  for (let id = 1; id <= n; id++) index.add(id, randomUnit(rnd));
  return index;
}

const place = (segmentId: number, clipId: number, startS: number, endS: number): SegmentPlace => ({ segmentId, clipId, shotId: clipId * 100, shotStartS: 0, startS, endS, startFrame: null, endFrame: null });

describe('hits scored on one scale (results/hit-scores.ts)', () => {
  it('a collection hit on a clip with local vectors takes the cosine of the local segment it names, and brings that segment along', () => {
    const index = indexOf(3);
    const query = index.vector(2)!;
    // Clip 1 holds segments 1 (0-4 s) and 2 (4-8 s); the service names 5-7 s, which only segment 2 overlaps.
    const places = new Map([[1, [place(1, 1, 0, 4), place(2, 1, 4, 8)]]]);
    const hits = scoredCollectionHits([{ clipId: 1, videoId: 'v1', startS: 5, endS: 7, similarity: 0.3 }], places, query, index, null, 0);
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({ clipId: 1, segmentId: 2, source: 'local', startS: 4, endS: 8 });
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    // The service's similarity stays on the collection hit (the tooltip); its score is the local one.
    expect(hits[1]).toMatchObject({ clipId: 1, segmentId: null, source: 'collection', videoId: 'v1', similarity: 0.3, startS: 5, endS: 7 });
    expect(hits[1]!.score).toBeCloseTo(1, 5);
  });

  it('a collection hit without times is scored by the clip\'s best segment; a clip known only to the collection keeps the service\'s similarity', () => {
    const index = indexOf(3);
    const query = index.vector(1)!;
    const places = new Map([[1, [place(1, 1, 0, 4), place(2, 1, 4, 8)]]]);
    const hits = scoredCollectionHits(
      [
        { clipId: 1, videoId: 'v1', startS: null, endS: null, similarity: 0.2 },
        { clipId: 9, videoId: 'v9', startS: 3, endS: 6, similarity: 0.4 },
      ],
      places,
      query,
      index,
      null,
      0,
    );
    expect(hits.map((h) => [h.clipId, h.segmentId, h.source])).toEqual([
      [1, 1, 'local'],
      [1, null, 'collection'],
      [9, null, 'collection'],
    ]);
    expect(hits[2]).toMatchObject({ score: 0.4, similarity: 0.4, startS: 3, endS: 6, shotStartS: null });
  });

  it('without a scorer, local hits are ordered by cosine and no strictness drops them; hits of segments no longer catalogued are left out', () => {
    const found = [
      { id: 1, similarity: 0.9 },
      { id: 2, similarity: 0.1 },
      { id: 3, similarity: 0.5 },
    ];
    const places = new Map([[1, place(1, 1, 0, 4)], [2, place(2, 2, 0, 4)]]);
    expect(scoredHits(found, places, null, 60).map((h) => [h.segmentId, h.score])).toEqual([
      [1, 0.9],
      [2, 0.1],
    ]);
  });

  it('with a scorer, each hit scores against its own baseline and the strictness floor drops what is below it', () => {
    const rnd = seededRandom(11);
    const index = indexOf(40);
    const relevance = new TextRelevance();
    const rows = 24;
    const data = new Float32Array(rows * DIM);
    for (let r = 0; r < rows; r++) data.set(randomUnit(rnd), r * DIM);
    relevance.setBank({ key: 'bank', dimension: DIM, rows, data });
    const query = randomUnit(rnd);
    const found = index.search(query, 40);
    const places = new Map(found.map((h) => [h.id, place(h.id, h.id, 0, 4)]));
    const scorer = relevance.scorer(index, found.map((h) => h.id))!;
    const all = scoredHits(found, places, scorer, Number.NEGATIVE_INFINITY);
    expect(all.map((h) => h.score)).toEqual(found.map((h) => scorer.segment(h.id, h.similarity).score));
    // Random vectors: a few hits beat the bank, most score 0; the floor is the third best score.
    const cut = [...all.map((h) => h.score)].sort((a, b) => b - a)[2]!;
    expect(cut).toBeGreaterThan(0);
    const kept = scoredHits(found, places, scorer, cut);
    expect(kept.map((h) => h.segmentId)).toEqual(all.filter((h) => h.score >= cut).map((h) => h.segmentId));
    expect(kept.length).toBeLessThan(all.length);
  });
});

describe('candidates gathered from the index (results/paging.ts)', () => {
  it('an empty allow-set finds nothing; excluded ids are dropped and the page still gets k hits', async () => {
    const index = indexOf(50);
    const search = async (v: ArrayLike<number>, k: number, f?: Parameters<ExactVectorIndex['search']>[2]) => index.search(v, k, f);
    const query = index.vector(5)!;
    expect(await localHits(search, query, 10, new Set())).toEqual([]);
    const plain = await localHits(search, query, 10, null);
    expect(plain[0]!.id).toBe(5);
    const exclude = new Set(plain.slice(0, 3).map((h) => h.id));
    const without = await localHits(search, query, 10, null, exclude);
    expect(without).toHaveLength(10);
    expect(without.map((h) => h.id)).toEqual(index.search(query, 13).map((h) => h.id).filter((id) => !exclude.has(id)).slice(0, 10));
  });
});

describe('a listing without a score (results/page-response.ts)', () => {
  it('lists cards in the library\'s order and each card\'s moments in the order of time', () => {
    const hit = (clipId: number, segmentId: number, startS: number): Hit => ({ clipId, segmentId, shotStartS: startS, startS, endS: startS + 2, startFrame: null, endFrame: null, similarity: 0, score: 0, source: 'local' });
    const groups = groupResults([hit(1, 10, 30), hit(1, 11, 0), hit(2, 20, 5), hit(3, 30, 9), hit(1, 12, 12)], { identity: (c) => `clip:${c}` });
    const libraryPosition = new Map([[3, 0], [1, 1]]);
    const listed = inLibraryOrder(groups, (id) => libraryPosition.get(id) ?? Number.MAX_SAFE_INTEGER);
    expect(listed.map((g) => g.clipId)).toEqual([3, 1, 2]);
    expect([listed[1]!.best, ...listed[1]!.more].map((r) => r.startS)).toEqual([0, 12, 30]);
  });
});
