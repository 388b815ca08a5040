import { describe, expect, it } from 'vitest';
import { mergeSearchResults, type LocalHit, type RemoteHit } from '../../src-main/core/collections/merge-search-results';

const seg = (clipId: number, segmentId: number, similarity: number): LocalHit => ({ clipId, segmentId, startS: segmentId, endS: segmentId + 1, similarity });
const vid = (videoId: string, clipId: number | null, similarity: number): RemoteHit => ({ videoId, clipId, similarity });

describe('mergeSearchResults: reciprocal rank fusion of local segments and collection hits', () => {
  it('local only: order and scores follow the local ranks', () => {
    const out = mergeSearchResults([seg(1, 10, 0.2), seg(2, 20, 0.9), seg(1, 11, 0.5)], []);
    expect(out.map((r) => r.segmentId)).toEqual([20, 11, 10]);
    expect(out.map((r) => r.localRank)).toEqual([1, 2, 3]);
    expect(out[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(out[2]!.score).toBeCloseTo(1 / 63, 12);
    expect(out.every((r) => r.sources.join() === 'local' && !r.wholeClip)).toBe(true);
  });

  it('a clip found by both sources gets the remote term on its best segment only', () => {
    const local = [seg(1, 10, 0.9), seg(2, 20, 0.8), seg(2, 21, 0.7)];
    const remote = [vid('v2', 2, 0.3)];
    const out = mergeSearchResults(local, remote);
    // clip 2's best segment: 1/(60+2) + 1/(60+1) beats clip 1's 1/(60+1).
    expect(out.map((r) => r.segmentId)).toEqual([20, 10, 21]);
    expect(out[0]).toMatchObject({ clipId: 2, videoId: 'v2', remoteRank: 1, remoteSimilarity: 0.3, sources: ['local', 'remote'] });
    expect(out[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(out.find((r) => r.segmentId === 21)).toMatchObject({ sources: ['local'], remoteRank: null, videoId: null });
  });

  it('a clip found only remotely appears once as a whole-clip result', () => {
    const out = mergeSearchResults([seg(1, 10, 0.9)], [vid('v3', 3, 0.99), vid('v3b', 3, 0.5)]);
    const whole = out.filter((r) => r.clipId === 3);
    expect(whole).toHaveLength(1);
    expect(whole[0]).toMatchObject({ wholeClip: true, segmentId: null, startS: null, endS: null, videoId: 'v3', remoteRank: 1, sources: ['remote'] });
    // Both are rank 1 of their source, so the scores tie; the tie goes to the result with a local similarity.
    expect(out.map((r) => r.clipId)).toEqual([1, 3]);
  });

  it('similarity scales are never compared: a tiny remote score at rank 1 counts as rank 1', () => {
    const out = mergeSearchResults([seg(1, 10, 0.99), seg(2, 20, 0.98)], [vid('a', 2, 0.0001), vid('b', 1, 0.00005)]);
    // Clip 2: 1/62 + 1/61; clip 1: 1/61 + 1/62: a tie, broken by local similarity.
    expect(out.map((r) => r.clipId)).toEqual([1, 2]);
    expect(out[0]!.score).toBeCloseTo(out[1]!.score, 12);
    // Scaling every remote similarity by 1000 changes nothing.
    const scaled = mergeSearchResults([seg(1, 10, 0.99), seg(2, 20, 0.98)], [vid('a', 2, 0.1), vid('b', 1, 0.05)]);
    expect(scaled.map((r) => [r.clipId, r.score])).toEqual(out.map((r) => [r.clipId, r.score]));
  });

  it('unmapped videos are dropped unless asked for, but still take their rank', () => {
    const remote = [vid('x', null, 0.9), vid('v1', 1, 0.8)];
    const dropped = mergeSearchResults([], remote);
    expect(dropped.map((r) => r.videoId)).toEqual(['v1']);
    expect(dropped[0]!.remoteRank).toBe(2);
    const kept = mergeSearchResults([], remote, { keepUnmapped: true });
    expect(kept.map((r) => [r.videoId, r.clipId])).toEqual([
      ['x', null],
      ['v1', 1],
    ]);
  });

  it('duplicate segments keep their best similarity, topK cuts, k changes how much rank 1 dominates', () => {
    const out = mergeSearchResults([seg(1, 10, 0.1), seg(1, 10, 0.8), seg(2, 20, 0.5)], [], { topK: 1 });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ segmentId: 10, localSimilarity: 0.8 });
    // With k = 0, rank 1 scores 1 and rank 2 only 1/2: the remote-only clip 3 (rank 1) passes local rank 2.
    const k0 = mergeSearchResults([seg(1, 10, 0.9), seg(2, 20, 0.8)], [vid('v3', 3, 0.1)], { k: 0 });
    expect(k0.map((r) => r.clipId)).toEqual([1, 3, 2]);
    expect(() => mergeSearchResults([], [], { k: -1 })).toThrow(RangeError);
  });

  it('non-finite similarities are ignored, and the output is deterministic for shuffled input', () => {
    const local = [seg(1, 10, 0.5), seg(2, 20, 0.5), seg(3, 30, Number.NaN), seg(4, 40, 0.7)];
    const remote = [vid('a', 4, 0.2), vid('b', 5, Number.POSITIVE_INFINITY), vid('c', 2, 0.2)];
    const a = mergeSearchResults(local, remote);
    const b = mergeSearchResults([...local].reverse(), remote);
    expect(a).toEqual(b);
    expect(a.some((r) => r.clipId === 3 || r.clipId === 5)).toBe(false);
    expect(a[0]).toMatchObject({ clipId: 4, sources: ['local', 'remote'] });
  });
});
