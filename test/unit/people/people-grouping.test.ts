import { describe, expect, it } from 'vitest';
import { dbscan, DEFAULT_THRESHOLDS, dot, keepGroupIds, linkGroups, matchFace, prototypeOf } from '../../../src-main/core/people/grouping';

/** Unit vectors around a few random centres: `spread` noise per dimension. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
function unit(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  return v.map((x) => x / n);
}
function around(centre: Float32Array, spread: number, r: () => number): Float32Array {
  return unit(centre.map((x) => x + spread * r()));
}

describe('people grouping', () => {
  const r = rng(7);
  const centres = [0, 1, 2].map(() => unit(Float32Array.from({ length: 128 }, () => r())));

  it('finds each person of a pool as one group and leaves strays out', () => {
    const pool = [...centres.flatMap((c) => Array.from({ length: 6 }, () => around(c, 0.08, r))), unit(Float32Array.from({ length: 128 }, () => r()))];
    const groups = dbscan(pool, DEFAULT_THRESHOLDS);
    expect(groups).toEqual([[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]);
  });

  it('needs minFaces faces for a group', () => {
    const two = [around(centres[0]!, 0.05, r), around(centres[0]!, 0.05, r)];
    expect(dbscan(two, DEFAULT_THRESHOLDS)).toEqual([]);
    expect(dbscan(two, { ...DEFAULT_THRESHOLDS, minFaces: 2 })).toEqual([[0, 1]]);
    // A point standing for a track of several faces counts them: two tracks of 2 and 1 faces are 3.
    expect(dbscan(two, DEFAULT_THRESHOLDS, [2, 1])).toEqual([[0, 1]]);
    expect(dbscan(two.slice(0, 1), DEFAULT_THRESHOLDS, [2])).toEqual([]);
  });

  it('joins two groups of one person when their prototypes are close and each is the other’s clearly nearest', () => {
    // A unit vector at cosine `c` to `a` (a and `ortho` orthogonal unit vectors).
    const at = (a: Float32Array, ortho: Float32Array, c: number) => unit(a.map((x, i) => c * x + Math.sqrt(1 - c * c) * ortho[i]!));
    const [a, b, c] = [0, 1, 2].map((k) => Float32Array.from({ length: 128 }, (_, i) => (i === k ? 1 : 0)));
    const d = Float32Array.from({ length: 128 }, (_, i) => (i === 3 ? 1 : 0));
    // Group 1 is group 0 seen worse (0.45 to it); group 2 someone else, 0.2 to both.
    const groups = [a!, at(a!, b!, 0.45), at(c!, d, 1)];
    expect(linkGroups(groups, DEFAULT_THRESHOLDS)).toEqual([[0, 1], [2]]);
    // The same groups in another order join the same way.
    expect(linkGroups([groups[2]!, groups[1]!, groups[0]!], DEFAULT_THRESHOLDS)).toEqual([[0], [1, 2]]);
    // Under the link cosine (0.35: as close as two different people can be), no join.
    expect(linkGroups([a!, at(a!, b!, 0.35)], DEFAULT_THRESHOLDS)).toEqual([[0], [1]]);
    // A group as close to two others (a face between two people) joins neither.
    const between = unit(a!.map((x, i) => x + c![i]!));
    expect(linkGroups([a!, between, c!], DEFAULT_THRESHOLDS)).toEqual([[0], [1], [2]]);
  });

  it('matches a face to the closest prototype, unless refused or ambiguous', () => {
    const protos = centres.map((c, k) => ({ personId: k + 1, vector: prototypeOf([around(c, 0.05, r), around(c, 0.05, r)])! }));
    const face = around(centres[1]!, 0.08, r);
    expect(matchFace(face, protos, new Set(), DEFAULT_THRESHOLDS)?.personId).toBe(2);
    expect(matchFace(face, protos, new Set([2]), DEFAULT_THRESHOLDS)).toBeNull();
    // Two prototypes of one look: nobody can tell which, so the face waits.
    const twins = [protos[1]!, { personId: 9, vector: protos[1]!.vector }];
    expect(matchFace(face, twins, new Set(), DEFAULT_THRESHOLDS)).toBeNull();
    const stranger = unit(Float32Array.from({ length: 128 }, () => r()));
    expect(matchFace(stranger, protos, new Set(), DEFAULT_THRESHOLDS)).toBeNull();
  });

  it('keeps a proposed group’s id where most of its faces stay together, and leaves refused faces out', () => {
    // Faces 1-4 were group 10, 5-7 group 11; the pool regrouped: 10's faces with two new ones, 11 split 2 + 1.
    const before = new Map([[1, 10], [2, 10], [3, 10], [4, 10], [5, 11], [6, 11], [7, 11]]);
    const clusters = [[1, 2, 3, 4, 8, 9], [5, 6, 20], [7, 21, 22]];
    expect(keepGroupIds(clusters, before, new Map(), 3)).toEqual([
      { personId: 10, faces: [1, 2, 3, 4, 8, 9] },
      { personId: 11, faces: [5, 6, 20] },
      { personId: null, faces: [7, 21, 22] },
    ]);
    // Half of a group is not most of it: two clusters of 2 + 2 faces of group 10, both new.
    expect(keepGroupIds([[1, 2, 30], [3, 4, 31]], before, new Map(), 3).map((g) => g.personId)).toEqual([null, null]);
    // A face the editor said is not person 10 stays out of 10, and a group left too small is none.
    const refused = new Map([[8, new Set([10])], [20, new Set([11])]]);
    expect(keepGroupIds(clusters, before, refused, 3)).toEqual([
      { personId: 10, faces: [1, 2, 3, 4, 9] },
      { personId: null, faces: [7, 21, 22] },
    ]);
  });
});
