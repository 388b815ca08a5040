import { describe, expect, it } from 'vitest';
import { fittingRows } from '../../../src-main/core/search/index/stored-rows';

const row = (segmentId: number, vector: number[] | null) => ({ segmentId, model: 'm', region: 'r', vector: vector && Float32Array.from(vector) });

describe('the stored rows an index takes (index/stored-rows.ts)', () => {
  it('an empty index takes the first usable row\'s dimension; other dimensions, zero, non-finite and damaged vectors are skipped', () => {
    const got = fittingRows([row(1, null), row(2, [0, 0, 0]), row(3, [1, 0, 0]), row(4, [1, 0]), row(5, [0, Number.NaN, 1]), row(6, [0, 1, 0])], 0);
    expect(got.ids).toEqual([3, 6]);
    expect(got.vectors.map((v) => [...v])).toEqual([[1, 0, 0], [0, 1, 0]]);
    expect(got.skipped).toBe(4);
  });

  it('an index with vectors keeps its dimension', () => {
    const got = fittingRows([row(1, [1, 0, 0]), row(2, [1, 0])], 2);
    expect(got).toMatchObject({ ids: [2], skipped: 1 });
  });
});
