import { describe, expect, it } from 'vitest';
import { AudioSpool } from '../../../src-main/core/tensors/audio-spool';

/** A ramp: sample i has the value i (exact in float32 below 2^24). */
function ramp(from: number, n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, k) => from + k);
}

describe('AudioSpool', () => {
  for (const memory of [1 << 30, 64_000]) {
    it(`cuts any range out of what was pushed in odd-sized parts (${memory > 1e6 ? 'in memory' : 'spilled past one block'})`, () => {
      const spool = new AudioSpool(memory);
      const sizes = [1000, 15_000, 7, 40_000, 3333, 20_000];
      let at = 0;
      for (const n of sizes) {
        spool.push(ramp(at, n));
        at += n;
      }
      expect(spool.total).toBe(at);
      for (const [from, to] of [[0, 10], [15_990, 16_010], [31_999, 48_001], [at - 5, at], [100, 70_000]] as const) {
        expect(Array.from(spool.take(from, to))).toEqual(Array.from(ramp(from, to - from)));
      }
      // Past the end and before the start: silence.
      const tail = spool.take(at - 2, at + 3);
      expect(Array.from(tail)).toEqual([at - 2, at - 1, 0, 0, 0]);
      expect(Array.from(spool.take(-2, 2))).toEqual([0, 0, 0, 1]);
      spool.close();
      expect(spool.total).toBe(0);
    });
  }
});
