import { AppError } from '../../../src-shared/errors';
import { float32FromLittleEndian, float32ToLittleEndian } from '../tensors/tensor-codec';

/**
 * The catalog stores vectors (embeddings, cached query embeddings) as float32 little-endian bytes,
 * the same encoding tensors use on the wire, so one codec serves both.
 */
export function float32ToBlob(values: ArrayLike<number>): Buffer {
  return float32ToLittleEndian(values instanceof Float32Array ? values : Float32Array.from(values));
}

/** Reads a stored vector; `dim` (when given) must match the blob's length. A mismatch is a damaged row. */
export function blobToFloat32(blob: Uint8Array, dim?: number): Float32Array {
  if (blob.byteLength % 4 !== 0) throw new AppError('io', `stored vector has ${blob.byteLength} bytes, not a multiple of 4`);
  const n = blob.byteLength / 4;
  if (dim !== undefined && dim !== n) throw new AppError('io', `stored vector has ${n} values, its row says ${dim}`);
  return float32FromLittleEndian(blob);
}
