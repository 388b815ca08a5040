import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { FrameSpool } from '../../../src-main/core/tensors/frame-spool';

const spoolDirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('reelscout-frames-'));

describe('FrameSpool', () => {
  it('keeps frames in memory up to its budget, the rest in a temporary file, and gives every one back in order', () => {
    const before = new Set(spoolDirs());
    const spool = new FrameSpool(6, 12); // two frames in memory
    const frames = Array.from({ length: 5 }, (_, i) => Uint8Array.from([i, i + 1, i + 2, 250 - i, 7, i * 3]));
    frames.forEach((f) => spool.push(f));
    expect(spool.length).toBe(5);
    const made = spoolDirs().filter((n) => !before.has(n));
    expect(made).toHaveLength(1);
    // Read back out of order: the file is random access.
    for (const i of [4, 0, 3, 1, 2]) expect(Array.from(spool.get(i))).toEqual(Array.from(frames[i]!));
    expect(() => spool.get(5)).toThrow(RangeError);
    expect(() => spool.push(new Uint8Array(5))).toThrow(RangeError);
    spool.close();
    expect(spoolDirs().filter((n) => !before.has(n))).toEqual([]);
    expect(spool.length).toBe(0);
  });

  it('writes no file while everything fits in memory', () => {
    const before = new Set(spoolDirs());
    const spool = new FrameSpool(4, 1024);
    for (let i = 0; i < 10; i++) spool.push(new Uint8Array(4).fill(i));
    expect(spoolDirs().filter((n) => !before.has(n))).toEqual([]);
    expect(Array.from(spool.get(9))).toEqual([9, 9, 9, 9]);
    spool.close();
  });
});
