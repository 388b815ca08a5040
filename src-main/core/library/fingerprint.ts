import { createHash } from 'node:crypto';
import fsp, { type FileHandle } from 'node:fs/promises';

export const FINGERPRINT_CHUNK = 64 * 1024;

/**
 * Content identity that costs two small reads whatever the file size: SHA-256 over the size, the
 * first 64 KiB and the last 64 KiB (the whole file when it is smaller than both). Camera files of
 * equal size differ in their headers (timestamps, timecode) and their tails (index, moov), so
 * this tells re-encoded, truncated or replaced files apart, and recognises a moved one.
 */
export async function fingerprintFile(file: string, size?: number): Promise<string> {
  const fh = await fsp.open(file, 'r');
  try {
    return await fingerprintOf(fh, size ?? (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

/** The fingerprint of a file already open: what is hashed is what the descriptor reads, whatever its path is now. */
export async function fingerprintOf(fh: FileHandle, total: number): Promise<string> {
  const hash = createHash('sha256');
  const sizeBuf = Buffer.alloc(8);
  sizeBuf.writeBigUInt64LE(BigInt(total));
  hash.update(sizeBuf);
  if (total <= 2 * FINGERPRINT_CHUNK) {
    const buf = Buffer.alloc(total);
    const { bytesRead } = await fh.read(buf, 0, total, 0);
    hash.update(buf.subarray(0, bytesRead));
  } else {
    const buf = Buffer.alloc(FINGERPRINT_CHUNK);
    let { bytesRead } = await fh.read(buf, 0, FINGERPRINT_CHUNK, 0);
    hash.update(buf.subarray(0, bytesRead));
    ({ bytesRead } = await fh.read(buf, 0, FINGERPRINT_CHUNK, total - FINGERPRINT_CHUNK));
    hash.update(buf.subarray(0, bytesRead));
  }
  return hash.digest('hex').slice(0, 32);
}
