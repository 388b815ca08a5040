import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FINGERPRINT_CHUNK, fingerprintFile } from '../../../src-main/core/library/fingerprint';
import { tempDir } from '../../helpers/paths';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function dir(): string {
  const t = tempDir('reelscout-fp-');
  cleanups.push(t.cleanup);
  return t.dir;
}

function bytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

describe('fingerprintFile', () => {
  it('hashes size + whole content for small files', async () => {
    const d = dir();
    const f = path.join(d, 'small.mp4');
    const data = bytes(1000, 1);
    fs.writeFileSync(f, data);
    const size = Buffer.alloc(8);
    size.writeBigUInt64LE(1000n);
    const expected = createHash('sha256').update(size).update(data).digest('hex').slice(0, 32);
    expect(await fingerprintFile(f)).toBe(expected);
  });

  it('reads only head and tail of large files: they change it, the middle does not', async () => {
    const d = dir();
    const f = path.join(d, 'big.mov');
    const data = bytes(5 * FINGERPRINT_CHUNK, 2);
    fs.writeFileSync(f, data);
    const base = await fingerprintFile(f);
    expect(base).toMatch(/^[0-9a-f]{32}$/);

    const mid = Buffer.from(data);
    mid[2 * FINGERPRINT_CHUNK] = mid[2 * FINGERPRINT_CHUNK]! ^ 0xff;
    fs.writeFileSync(f, mid);
    expect(await fingerprintFile(f)).toBe(base); // by design: two reads, whatever the size

    const head = Buffer.from(data);
    head[10] = head[10]! ^ 0xff;
    fs.writeFileSync(f, head);
    expect(await fingerprintFile(f)).not.toBe(base);

    const tail = Buffer.from(data);
    tail[tail.length - 1] = tail[tail.length - 1]! ^ 0xff;
    fs.writeFileSync(f, tail);
    expect(await fingerprintFile(f)).not.toBe(base);

    fs.writeFileSync(f, Buffer.concat([data, Buffer.alloc(0)]));
    expect(await fingerprintFile(f)).toBe(base);
    fs.writeFileSync(f, data.subarray(0, data.length - 1));
    expect(await fingerprintFile(f)).not.toBe(base);
  });

  it('rejects with the OS error for a missing file', async () => {
    await expect(fingerprintFile(path.join(dir(), 'nope.mp4'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
