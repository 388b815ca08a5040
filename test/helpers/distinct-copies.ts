/**
 * A valid ISO 'free' box carrying a copy's index: appended to an MP4 it gives every copy its own
 * bytes (and fingerprint) while the file stays valid. For generated cards in tests and benchmarks.
 */
export function freeBox(i: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32BE(16, 0);
  b.write('free', 4, 'latin1');
  b.writeBigUInt64BE(BigInt(i), 8);
  return b;
}
