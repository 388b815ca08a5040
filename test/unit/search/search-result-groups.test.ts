import { describe, expect, it } from 'vitest';
import { groupResults, type Hit } from '../../../src-main/core/search/results/result-groups';

/** A local hit; its score is its cosine x 100 unless given (relevance is per segment, not per cosine). */
const seg = (clipId: number, segmentId: number, startS: number, similarity: number, len = 4, shotStartS = 0, score = similarity * 100): Hit => ({
  clipId,
  segmentId,
  shotStartS,
  startS,
  endS: startS + len,
  startFrame: null,
  endFrame: null,
  similarity,
  score,
  source: 'local',
});
const vid = (clipId: number, similarity: number, videoId: string, startS: number | null = null, endS: number | null = null): Hit => ({ clipId, segmentId: null, shotStartS: null, startS, endS, startFrame: null, endFrame: null, similarity, score: similarity * 100, source: 'collection', videoId });
const opts = (o: Partial<Parameters<typeof groupResults>[1]> = {}) => ({ identity: (c: number) => `clip:${c}`, ...o });

describe('one result per moment, one card per clip', () => {
  it('merges adjacent segments of a clip into one range named by its best segment', () => {
    const [g] = groupResults([seg(1, 10, 0, 0.5), seg(1, 11, 4, 0.8), seg(1, 12, 8, 0.6)], opts());
    expect(g!.best).toMatchObject({ segmentId: 11, segmentIds: [10, 11, 12], startS: 0, endS: 12, similarity: 0.8, score: 80 });
    expect(g!.more).toEqual([]);
  });

  it('merges the frames of the segments as well: a range is the frames of its segments, Out exclusive', () => {
    // 25 fps: segments of frames [0, 100), [100, 200), [200, 300).
    const framed = (h: Hit, f: number): Hit => ({ ...h, startFrame: f, endFrame: f + 100 });
    const [g] = groupResults([framed(seg(1, 10, 0, 0.5), 0), framed(seg(1, 11, 4, 0.8), 100), framed(seg(1, 12, 8, 0.6), 200)], opts());
    expect(g!.best).toMatchObject({ startS: 0, endS: 12, startFrame: 0, endFrame: 300 });
    // A collection hit inside the range keeps its frames; one that widens it leaves the range counted from its times.
    const [inside] = groupResults([framed(seg(1, 10, 0, 0.5), 0), vid(1, 0.4, 'v', 1, 3)], opts());
    expect(inside!.best).toMatchObject({ startS: 0, endS: 4, startFrame: 0, endFrame: 100 });
    const [wider] = groupResults([framed(seg(1, 10, 0, 0.5), 0), vid(1, 0.4, 'v', 2, 6)], opts());
    expect(wider!.best).toMatchObject({ startS: 0, endS: 6, startFrame: null, endFrame: null });
  });

  it('keeps adjacent segments of two shots apart: a cut separates moments', () => {
    const [g] = groupResults([seg(1, 10, 0, 0.5, 2, 0), seg(1, 11, 2, 0.8, 2, 2)], opts());
    expect([g!.best, ...g!.more].map((r) => [r.segmentId, r.startS, r.endS])).toEqual([[11, 2, 4], [10, 0, 2]]);
  });

  it('keeps separate moments of a clip apart, best first, the rest as "more"', () => {
    const [g] = groupResults([seg(1, 10, 0, 0.5), seg(1, 20, 30, 0.9), seg(1, 30, 60, 0.7)], opts());
    expect([g!.best, ...g!.more].map((r) => r.segmentId)).toEqual([20, 30, 10]);
  });

  it('orders cards by their score, so the order shown is the score shown', () => {
    const groups = groupResults([seg(1, 10, 0, 0.4), seg(2, 20, 0, 0.9), seg(3, 30, 0, 0.6), vid(4, 0.95, 'v4')], opts());
    expect(groups.map((g) => g.clipId)).toEqual([4, 2, 3, 1]);
    const scores = groups.map((g) => g.best.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('joins a collection hit to the moment it names, or to the clip\'s best moment, or stands for the whole clip', () => {
    const [a] = groupResults([seg(1, 10, 0, 0.5), seg(1, 20, 30, 0.6), vid(1, 0.7, 'v1', 1, 2)], opts());
    expect(a!.best).toMatchObject({ segmentId: 10, sources: ['local', 'collection'], remoteSimilarity: 0.7, videoId: 'v1', score: 70 });
    const [b] = groupResults([seg(1, 10, 0, 0.5), seg(1, 20, 30, 0.6), vid(1, 0.3, 'v1')], opts());
    expect(b!.best).toMatchObject({ segmentId: 20, sources: ['local', 'collection'], score: 60 });
    const [c] = groupResults([vid(5, 0.3, 'v5')], opts());
    expect(c!.best).toMatchObject({ segmentId: null, startS: null, sources: ['collection'] });
  });

  it('makes identical files one card, the other paths listed', () => {
    const same = (c: number) => (c === 1 || c === 2 ? 'file:abc' : `clip:${c}`);
    const groups = groupResults([seg(2, 20, 0, 0.8), seg(1, 10, 0, 0.8), seg(3, 30, 0, 0.5)], opts({ identity: same }));
    expect(groups.map((g) => g.clipId)).toEqual([1, 3]);
    expect(groups[0]).toMatchObject({ sameFile: [2] });
    expect(groups[0]!.best.segmentId).toBe(10);
  });

  it('counts cards, not hits, and ignores non-finite similarities and scores', () => {
    const hits = [1, 2, 3, 4, 5].flatMap((c) => [seg(c, c * 10, 0, c / 10), seg(c, c * 10 + 1, 4, c / 10)]);
    hits.push({ ...seg(9, 90, 0, 0), similarity: Number.NaN }, { ...seg(8, 80, 0, 0.9), score: Number.NaN });
    const groups = groupResults(hits, opts());
    expect(groups.map((g) => g.clipId)).toEqual([5, 4, 3, 2, 1]);
  });

  it('names a range by its best-scoring segment, which need not have the best cosine (each segment has its own baseline)', () => {
    const [g] = groupResults([seg(1, 10, 0, 0.9, 4, 0, 40), seg(1, 11, 4, 0.6, 4, 0, 85)], opts());
    expect(g!.best).toMatchObject({ segmentId: 11, similarity: 0.6, score: 85, segmentIds: [10, 11] });
  });

  it("merges adjacent segments of one shot across identical files, so a copy's segment never leaves two ranges of one shot", () => {
    const same = (c: number) => (c === 1 || c === 2 ? 'file:abc' : `clip:${c}`);
    // Clip 2 is a copy of clip 1: the shot starting at 0 holds 0-4 (found in the copy) and 4-8 (found in the original).
    const groups = groupResults([seg(2, 20, 0, 0.7, 4, 0), seg(1, 11, 4, 0.8, 4, 0), seg(1, 12, 8, 0.6, 4, 8)], opts({ identity: same }));
    expect(groups).toHaveLength(1);
    const ranges = [groups[0]!.best, ...groups[0]!.more].map((r) => [r.startS, r.endS, r.segmentId]);
    expect(ranges).toEqual([[0, 8, 11], [8, 12, 12]]);
    expect(groups[0]!.sameFile).toEqual([2]);
  });
});
