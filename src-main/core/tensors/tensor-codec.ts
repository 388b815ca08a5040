import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';

/**
 * Wire form of a tensor, as the spec's "tensor descriptor": base64 of the raw bytes in C order
 * (row-major, last axis fastest), little-endian for multi-byte types. The spec names uint8 and
 * float32; those are the only types the pipeline produces.
 */
export const TENSOR_DTYPES = ['uint8', 'float32'] as const;
export type TensorDtype = (typeof TENSOR_DTYPES)[number];

export interface TensorDescriptor {
  data: string;
  shape: number[];
  dtype: TensorDtype;
}

export const tensorDescriptorSchema = z.object({
  data: z.string(),
  shape: z.array(z.number().int().nonnegative()).min(1),
  dtype: z.enum(TENSOR_DTYPES),
});

export type DecodedTensor = { dtype: 'uint8'; shape: number[]; array: Uint8Array } | { dtype: 'float32'; shape: number[]; array: Float32Array };

export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new AppError('invalid', `tensor shape has a bad dimension: ${String(d)}`);
    n *= d;
  }
  return n;
}

/** Length of the base64 text for `bytes` raw bytes (with padding), used by byte budgets. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

function checkShape(length: number, shape: readonly number[]): void {
  if (shape.length === 0) throw new AppError('invalid', 'tensor shape must have at least one dimension');
  const n = elementCount(shape);
  if (n !== length) throw new AppError('invalid', `tensor shape [${shape.join(',')}] holds ${n} elements, the data has ${length}`);
}

/**
 * Float32 values as little-endian bytes. Written through a DataView with littleEndian=true, so
 * the bytes are the same on a big-endian host; a native copy would follow the host's order.
 */
export function float32ToLittleEndian(values: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(values.length * 4);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  return out;
}

export function float32FromLittleEndian(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new AppError('invalid', `float32 data has ${bytes.byteLength} bytes, not a multiple of 4`);
  const out = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function encodeUint8Tensor(values: Uint8Array, shape: readonly number[]): TensorDescriptor {
  checkShape(values.length, shape);
  return { data: Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64'), shape: [...shape], dtype: 'uint8' };
}

export function encodeFloat32Tensor(values: Float32Array, shape: readonly number[]): TensorDescriptor {
  checkShape(values.length, shape);
  return { data: float32ToLittleEndian(values).toString('base64'), shape: [...shape], dtype: 'float32' };
}

/** Inverse of the encoders; validates that the byte count matches shape and dtype. */
export function decodeTensor(input: unknown): DecodedTensor {
  const parsed = tensorDescriptorSchema.safeParse(input);
  if (!parsed.success) throw new AppError('invalid', `not a tensor descriptor: ${parsed.error.issues[0]?.message ?? ''}`);
  const d = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(d.data) || d.data.length % 4 !== 0) throw new AppError('invalid', 'tensor data is not base64');
  const bytes = Buffer.from(d.data, 'base64');
  const n = elementCount(d.shape);
  const width = d.dtype === 'uint8' ? 1 : 4;
  if (bytes.byteLength !== n * width) {
    throw new AppError('invalid', `tensor data has ${bytes.byteLength} bytes, shape [${d.shape.join(',')}] ${d.dtype} needs ${n * width}`);
  }
  if (d.dtype === 'uint8') return { dtype: 'uint8', shape: d.shape, array: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  return { dtype: 'float32', shape: d.shape, array: float32FromLittleEndian(bytes) };
}
