import { describe, expect, it } from 'vitest';
import type { PersonSpan } from '../../../src-main/core/people/person-presence';
import { allowedWithPeople, narrowHits, peopleScope, piecesOf, unindexedHits, type ScopeSegment } from '../../../src-main/core/search/query/people-scope';
import type { Hit } from '../../../src-main/core/search/results/result-groups';
import { groupResults } from '../../../src-main/core/search/results/result-groups';

/** 25 fps: frame = 25 * seconds, so the frames and times of a case agree. */
const seg = (segmentId: number, shotId: number, startS: number, endS: number, frames = true): ScopeSegment => ({
  segmentId,
  shotId,
  startS,
  endS,
  startFrame: frames ? startS * 25 : null,
  endFrame: frames ? endS * 25 : null,
});
const span = (personId: number, shotId: number, startS: number, endS: number, frames = true): PersonSpan => ({
  personId,
  clipId: 1,
  shotId,
  shotStartS: 0,
  startS,
  endS,
  inFrame: frames ? startS * 25 : null,
  outFrame: frames ? endS * 25 : null,
});
const hit = (segmentId: number, s: ScopeSegment, score = 1): Hit => ({
  clipId: 1,
  segmentId,
  shotStartS: 0,
  startS: s.startS,
  endS: s.endS,
  startFrame: s.startFrame,
  endFrame: s.endFrame,
  similarity: score,
  score,
  source: 'local',
});

describe('people scope: a segment narrowed to where the people are', () => {
  it('cuts a segment to the span inside it, in frames and times', () => {
    expect(piecesOf(seg(1, 10, 0, 8), [span(7, 10, 2, 5)], [])).toEqual([{ startS: 2, endS: 5, startFrame: 50, endFrame: 125 }]);
  });

  it('clamps a span running past the segment to the segment', () => {
    expect(piecesOf(seg(1, 10, 4, 8), [span(7, 10, 2, 6)], [])).toEqual([{ startS: 4, endS: 6, startFrame: 100, endFrame: 150 }]);
  });

  it('gives two pieces for two separate spans in one segment, not one range over the gap', () => {
    const p = piecesOf(seg(1, 10, 0, 10), [span(7, 10, 6, 8), span(7, 10, 1, 2)], []);
    expect(p.map((x) => [x.startFrame, x.endFrame])).toEqual([
      [25, 50],
      [150, 200],
    ]);
  });

  it('ignores spans of another shot, even at the same times', () => {
    expect(piecesOf(seg(1, 10, 0, 8), [span(7, 11, 2, 5)], [])).toEqual([]);
  });

  it('takes an excluded person out of the middle, the start, or all of a piece', () => {
    expect(piecesOf(seg(1, 10, 0, 10), [span(7, 10, 0, 10)], [span(8, 10, 4, 6)]).map((x) => [x.startFrame, x.endFrame])).toEqual([
      [0, 100],
      [150, 250],
    ]);
    expect(piecesOf(seg(1, 10, 0, 10), null, [span(8, 10, 0, 3)]).map((x) => [x.startS, x.endS])).toEqual([[3, 10]]);
    expect(piecesOf(seg(1, 10, 2, 4), null, [span(8, 10, 0, 6)])).toEqual([]);
  });

  it('reads times when one side counts no frames', () => {
    expect(piecesOf(seg(1, 10, 0, 8, false), [span(7, 10, 2, 5)], [])).toEqual([{ startS: 2, endS: 5, startFrame: null, endFrame: null }]);
  });

  it('a span ending on a segment boundary does not give the next segment an empty piece', () => {
    expect(piecesOf(seg(2, 10, 5, 10), [span(7, 10, 2, 5)], [])).toEqual([]);
  });
});

describe('people scope over a library', () => {
  const segments = [seg(1, 10, 0, 5), seg(2, 10, 5, 10), seg(3, 11, 10, 15), seg(4, 12, 15, 20)];

  it('lists the segments where the included people are, ANDed with the filters', () => {
    const scope = peopleScope(segments, [span(7, 10, 3, 7), span(7, 12, 16, 17)], []);
    expect([...scope.segments!].sort()).toEqual([1, 2, 4]);
    expect([...allowedWithPeople(null, scope)!].sort()).toEqual([1, 2, 4]);
    expect([...allowedWithPeople(new Set([2, 3, 4]), scope)!].sort()).toEqual([2, 4]);
  });

  it('with only exclusions keeps the filters (or every segment) and drops only segments wholly taken', () => {
    const scope = peopleScope(segments, null, [span(8, 10, 0, 5), span(8, 11, 12, 13)]);
    expect(scope.segments).toBeNull();
    expect([...scope.pieces.keys()].sort()).toEqual([1, 3]);
    expect(allowedWithPeople(null, scope)).toBeNull();
    expect([...allowedWithPeople(new Set([1, 2, 3, 4]), scope)!].sort()).toEqual([2, 3, 4]);
  });

  it('narrows hits to the pieces, and a span over two segments merges back into one range', () => {
    const scope = peopleScope(segments, [span(7, 10, 3, 7)], []);
    const hits = narrowHits([hit(1, segments[0]!, 0.9), hit(2, segments[1]!, 0.8)], scope);
    expect(hits.map((h) => [h.segmentId, h.startFrame, h.endFrame])).toEqual([
      [1, 75, 125],
      [2, 125, 175],
    ]);
    const [group] = groupResults(hits, { identity: (c) => `clip:${c}` });
    expect(group!.more).toEqual([]);
    expect([group!.best.startFrame, group!.best.endFrame, group!.best.segmentId]).toEqual([75, 175, 1]);
  });

  it('drops the hits of a segment with nothing left, and leaves untouched segments whole', () => {
    const scope = peopleScope(segments, null, [span(8, 10, 0, 5)]);
    const hits = narrowHits([hit(1, segments[0]!), hit(3, segments[2]!)], scope);
    expect(hits.map((h) => [h.segmentId, h.startS, h.endS])).toEqual([[3, 10, 15]]);
  });

  it('answers shots without a searchable segment from the spans alone, less the excluded people', () => {
    // Shot 13 has no segment (its clip was never sent to the service); shot 10 has.
    const scope = peopleScope(segments, [span(7, 10, 3, 7), span(7, 13, 20, 30)], [span(8, 13, 24, 26)]);
    expect([...scope.segments!].sort()).toEqual([1, 2]);
    expect(scope.unindexed.map((p) => [p.shotId, p.startFrame, p.endFrame])).toEqual([
      [13, 500, 600],
      [13, 650, 750],
    ]);
    const hits = unindexedHits(scope, null);
    expect(hits.every((h) => h.segmentId === null && h.judged === false)).toBe(true);
    // Clips the other filters refuse are left out.
    expect(unindexedHits(scope, new Set([2]))).toEqual([]);
    // Only exclusions list searchable segments, as before: nothing from the spans.
    expect(peopleScope(segments, null, [span(8, 13, 24, 26)]).unindexed).toEqual([]);
  });

  it('lists unscored moments after every scored one, whatever the scores', () => {
    const unjudged: Hit = { ...hit(9, seg(9, 13, 20, 30), 0), segmentId: null, clipId: 2, judged: false };
    const weak = { ...hit(1, segments[0]!, -0.2), clipId: 3 };
    const groups = groupResults([unjudged, weak], { identity: (c) => `clip:${c}` });
    expect(groups.map((g) => [g.clipId, g.best.judged])).toEqual([
      [3, true],
      [2, false],
    ]);
  });
});
