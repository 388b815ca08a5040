import { describe, expect, it } from 'vitest';
import { faceTracks, type TrackFace } from '../../../src-main/core/people/face-tracks';

const face = (shotId: number, timeS: number, x: number, y = 0.3, w = 0.2, h = 0.3): TrackFace => ({ shotId, timeS, x, y, w, h });

describe('face tracks', () => {
  it('links a face sample to sample while its box overlaps, one track per face of a two-shot', () => {
    const faces = [face(1, 0, 0.1), face(1, 0, 0.6), face(1, 0.5, 0.12), face(1, 0.5, 0.58), face(1, 1, 0.15), face(1, 1, 0.55)];
    expect(faceTracks(faces, 1.25, 0.3)).toEqual([
      [0, 2, 4],
      [1, 3, 5],
    ]);
  });

  it('never links across a cut, a long gap, a box that moved away or two faces of one sample', () => {
    const faces = [face(1, 0, 0.1), face(2, 0.5, 0.1), face(2, 2.5, 0.1), face(2, 3, 0.7), face(2, 3, 0.11)];
    expect(faceTracks(faces, 1.25, 0.3)).toEqual([[0], [1], [2, 4], [3]]);
  });

  it('takes a missed detection in its stride', () => {
    const faces = [face(1, 0, 0.1), face(1, 1, 0.1), face(1, 1.5, 0.1)];
    expect(faceTracks(faces, 1.25, 0.3)).toEqual([[0, 1, 2]]);
  });
});
