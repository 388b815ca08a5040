import { describe, expect, it } from 'vitest';
import { frameInShot, intersectSpans, spansFromSamples, type PersonSample } from '../../../src-main/core/people/person-spans';

// A shot of 250 frames at 25 fps from 10 s to 20 s (frames 250-500), sampled at 2 fps.
const shot = { clipId: 1, shotId: 7, shotStartS: 10, shotEndS: 20, shotStartFrame: 250, shotEndFrame: 500 };
const at = (personId: number, timeS: number, s: Partial<PersonSample> = {}): PersonSample => ({ personId, timeS, ...shot, ...s });

describe('person spans', () => {
  it('counts a time on the shot’s own frames, the end being Out', () => {
    expect(frameInShot(10, shot)).toBe(250);
    expect(frameInShot(20, shot)).toBe(500);
    expect(frameInShot(12.04, shot)).toBe(301);
    expect(frameInShot(30, shot)).toBe(500);
    expect(frameInShot(12, { ...shot, shotStartFrame: null })).toBeNull();
  });

  it('joins samples up to two steps apart and clamps to the shot', () => {
    const spans = spansFromSamples([at(1, 10), at(1, 10.5), at(1, 11.5), at(1, 14), at(1, 19.9)], 0.5);
    expect(spans.map((s) => [s.startS, s.endS, s.inFrame, s.outFrame])).toEqual([
      [10, 11.75, 250, 294],
      [13.75, 14.25, 344, 356],
      [19.65, 20, 491, 500],
    ]);
  });

  it('never joins across shots or people', () => {
    const spans = spansFromSamples([at(1, 12), at(2, 12.5), at(2, 13, { shotId: 8 })], 0.5);
    expect(spans.map((s) => [s.personId, s.shotId])).toEqual([[1, 7], [2, 7], [2, 8]]);
  });

  it('intersects people shot by shot: both at once, or nothing', () => {
    const maria = spansFromSamples([at(1, 10), at(1, 10.5), at(1, 11), at(1, 15, { shotId: 9 })], 0.5);
    const tom = spansFromSamples([at(2, 11), at(2, 11.5), at(2, 15.5, { shotId: 8 })], 0.5);
    const both = intersectSpans([maria, tom]);
    expect(both.map((s) => [s.shotId, s.startS, s.endS, s.inFrame, s.outFrame])).toEqual([[7, 10.75, 11.25, 269, 281]]);
    expect(intersectSpans([maria, []])).toEqual([]);
  });
});
