import { AppError } from '../../../src-shared/errors';

/** float32 little-endian bytes, the catalog's vector format, whatever the host's byte order. */
export function float32ToBlob(values: ArrayLike<number>): Buffer {
  const out = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) out.writeFloatLE(values[i]!, i * 4);
  return out;
}

/** Reads a stored vector; `dim` (when given) must match the blob's length. */
export function blobToFloat32(blob: Uint8Array, dim?: number): Float32Array {
  if (blob.byteLength % 4 !== 0) throw new AppError('io', `stored vector has ${blob.byteLength} bytes, not a multiple of 4`);
  const n = blob.byteLength / 4;
  if (dim !== undefined && dim !== n) throw new AppError('io', `stored vector has ${n} values, its row says ${dim}`);
  const out = new Float32Array(n);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
