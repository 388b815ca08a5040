import os from 'node:os';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';

/**
 * Wire form of a tensor, as the spec's "tensor descriptor": base64 of the raw bytes in C order
 * (row-major, last axis fastest), little-endian for multi-byte types. Everything else about the
 * layout lives in a tensor profile. The spec names uint8 and float32, the only types the pipeline
 * produces and decodes; the encoder takes any typed array so a profile can try another dtype.
 */
export interface TensorDescriptor {
  data: string;
  shape: number[];
  dtype: TensorDtype;
}

export const DTYPE_BYTES = {
  uint8: 1,
  int8: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  float64: 8,
  int64: 8,
  uint64: 8,
} as const;

export type TensorDtype = keyof typeof DTYPE_BYTES;

/** The dtypes the spec names: the ones the pipeline produces and `decodeTensor` reads. */
export const TENSOR_DTYPES = ['uint8', 'float32'] as const;

export const tensorDescriptorSchema = z.object({
  data: z.string(),
  shape: z.array(z.number().int().nonnegative()).min(1),
  dtype: z.enum(TENSOR_DTYPES),
});

export type DecodedTensor = { dtype: 'uint8'; shape: number[]; array: Uint8Array } | { dtype: 'float32'; shape: number[]; array: Float32Array };

export type TensorArray =
  | Uint8Array
  | Uint8ClampedArray
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

const ARRAY_DTYPE: Array<[new (...a: never[]) => TensorArray, TensorDtype]> = [
  [Uint8Array, 'uint8'],
  [Uint8ClampedArray, 'uint8'],
  [Int8Array, 'int8'],
  [Uint16Array, 'uint16'],
  [Int16Array, 'int16'],
  [Uint32Array, 'uint32'],
  [Int32Array, 'int32'],
  [Float32Array, 'float32'],
  [Float64Array, 'float64'],
  [BigInt64Array, 'int64'],
  [BigUint64Array, 'uint64'],
];

export function dtypeOfArray(a: TensorArray): TensorDtype {
  for (const [ctor, dtype] of ARRAY_DTYPE) if (a instanceof ctor) return dtype;
  throw new AppError('invalid', 'unsupported typed array');
}

export function elementCount(shape: readonly number[]): number {
  if (!Array.isArray(shape) || shape.length === 0) throw new AppError('invalid', 'tensor shape must have at least one dimension');
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new AppError('invalid', `tensor shape has a bad dimension: ${String(d)}`);
    n *= d;
  }
  return n;
}

export function tensorByteLength(shape: readonly number[], dtype: TensorDtype): number {
  return elementCount(shape) * DTYPE_BYTES[dtype];
}

/** Length of the base64 text for `bytes` raw bytes (with padding), used by byte budgets. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** Decoded byte length of base64 text without decoding it. */
export function base64DecodedLength(b64: string): number {
  const len = b64.length;
  if (len === 0) return 0;
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((len * 3) / 4) - pad;
}

/**
 * Bytes of a typed array in little-endian order, whatever the host's byte order. On a
 * little-endian host the fast path is a view of the array's memory; `portable` always writes a
 * copy through a DataView with littleEndian=true (the path a big-endian host takes).
 */
export function littleEndianBytes(a: TensorArray, opts: { portable?: boolean } = {}): Buffer {
  const width = a.BYTES_PER_ELEMENT;
  if (width === 1 || (!opts.portable && os.endianness() === 'LE')) {
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  }
  const out = Buffer.alloc(a.byteLength);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const dtype = dtypeOfArray(a);
  for (let i = 0; i < a.length; i++) {
    const off = i * width;
    switch (dtype) {
      case 'uint16':
        view.setUint16(off, (a as Uint16Array)[i]!, true);
        break;
      case 'int16':
        view.setInt16(off, (a as Int16Array)[i]!, true);
        break;
      case 'uint32':
        view.setUint32(off, (a as Uint32Array)[i]!, true);
        break;
      case 'int32':
        view.setInt32(off, (a as Int32Array)[i]!, true);
        break;
      case 'float32':
        view.setFloat32(off, (a as Float32Array)[i]!, true);
        break;
      case 'float64':
        view.setFloat64(off, (a as Float64Array)[i]!, true);
        break;
      case 'int64':
        view.setBigInt64(off, (a as BigInt64Array)[i]!, true);
        break;
      case 'uint64':
        view.setBigUint64(off, (a as BigUint64Array)[i]!, true);
        break;
      default:
        throw new AppError('internal', `no portable writer for ${dtype}`);
    }
  }
  return out;
}

/** Float32 values as a fresh little-endian copy, the same bytes on any host. */
export function float32ToLittleEndian(values: Float32Array): Buffer {
  return littleEndianBytes(values, { portable: true });
}

export function float32FromLittleEndian(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new AppError('invalid', `float32 data has ${bytes.byteLength} bytes, not a multiple of 4`);
  const out = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function encodeTensor(a: TensorArray, shape: readonly number[], dtype?: TensorDtype, opts: { portable?: boolean } = {}): TensorDescriptor {
  const actual = dtypeOfArray(a);
  if (dtype !== undefined && dtype !== actual) throw new AppError('invalid', `tensor dtype ${dtype} does not match a ${actual} array`);
  const n = elementCount(shape);
  if (n !== a.length) throw new AppError('invalid', `tensor shape [${shape.join(',')}] holds ${n} elements, the array has ${a.length}`);
  return { data: littleEndianBytes(a, opts).toString('base64'), shape: [...shape], dtype: actual };
}

export function encodeUint8Tensor(values: Uint8Array, shape: readonly number[]): TensorDescriptor {
  return encodeTensor(values, shape, 'uint8');
}

export function encodeFloat32Tensor(values: Float32Array, shape: readonly number[]): TensorDescriptor {
  return encodeTensor(values, shape, 'float32');
}

/**
 * Catches a descriptor the service would reject with 422 before paying for the upload: a dtype
 * the codec does not know, or data whose length does not fit the shape. Constant time: it does
 * not read the data, whose alphabet is right by construction when the app encoded it
 * (encodeTensor); scanning megabytes of base64 per upload held the main process's event loop for
 * 10-20 ms each.
 */
export function checkTensorSize(d: TensorDescriptor, name: string): void {
  if (!Object.hasOwn(DTYPE_BYTES, d.dtype)) throw new AppError('invalid', `${name}: unsupported dtype ${String(d.dtype)}`);
  const expected = tensorByteLength(d.shape, d.dtype);
  if (typeof d.data !== 'string' || d.data.length % 4 !== 0) throw new AppError('invalid', `${name}: data is not base64`);
  const got = base64DecodedLength(d.data);
  if (got !== expected) {
    throw new AppError('invalid', `${name}: data holds ${got} bytes, shape [${d.shape.join(',')}] ${d.dtype} needs ${expected}`);
  }
}

/** checkTensorSize and the base64 alphabet, for a descriptor that comes from outside the app. */
export function checkTensorDescriptor(d: TensorDescriptor, name: string): void {
  if (typeof d.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(d.data)) throw new AppError('invalid', `${name}: data is not base64`);
  checkTensorSize(d, name);
}

/** Inverse of the encoders for the spec's dtypes; validates that the byte count matches shape and dtype. */
export function decodeTensor(input: unknown): DecodedTensor {
  const parsed = tensorDescriptorSchema.safeParse(input);
  if (!parsed.success) throw new AppError('invalid', `not a tensor descriptor: ${parsed.error.issues[0]?.message ?? ''}`);
  const d = parsed.data;
  checkTensorDescriptor(d, 'tensor');
  const bytes = Buffer.from(d.data, 'base64');
  if (d.dtype === 'uint8') return { dtype: 'uint8', shape: d.shape, array: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  return { dtype: 'float32', shape: d.shape, array: float32FromLittleEndian(bytes) };
}
