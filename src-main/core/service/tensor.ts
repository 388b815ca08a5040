import { createHash } from 'node:crypto';
import os from 'node:os';
import { AppError } from '../../../src-shared/errors';

/**
 * The spec says "encoded tensor data" and names uint8 and float32. Reading: base64 of the raw
 * little-endian, C-order (row-major) bytes. Everything else about the layout lives in a tensor profile.
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
  if (!Array.isArray(shape) || shape.length === 0) throw new AppError('invalid', 'tensor shape must be a non-empty array');
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

/** Encoded size of a descriptor's data, for byte budgets before a body is built. */
export function base64Length(byteLength: number): number {
  return 4 * Math.ceil(byteLength / 3);
}

/** Bytes of a typed array in little-endian order, whatever the host's byte order. */
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

export function encodeTensor(a: TensorArray, shape: readonly number[], dtype?: TensorDtype, opts: { portable?: boolean } = {}): TensorDescriptor {
  const actual = dtypeOfArray(a);
  if (dtype !== undefined && dtype !== actual) throw new AppError('invalid', `tensor dtype ${dtype} does not match a ${actual} array`);
  const n = elementCount(shape);
  if (n !== a.length) throw new AppError('invalid', `tensor shape [${shape.join(',')}] holds ${n} elements, the array has ${a.length}`);
  return { data: littleEndianBytes(a, opts).toString('base64'), shape: [...shape], dtype: actual };
}

/** Decoded byte length of base64 text without decoding it. */
export function base64DecodedLength(b64: string): number {
  const len = b64.length;
  if (len === 0) return 0;
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((len * 3) / 4) - pad;
}

/** Catches a descriptor the service would reject with 422 before paying for the upload. */
export function checkTensorDescriptor(d: TensorDescriptor, name: string): void {
  if (!(d.dtype in DTYPE_BYTES)) throw new AppError('invalid', `${name}: unsupported dtype ${String(d.dtype)}`);
  const expected = tensorByteLength(d.shape, d.dtype);
  if (typeof d.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(d.data) || d.data.length % 4 !== 0) {
    throw new AppError('invalid', `${name}: data is not base64`);
  }
  const got = base64DecodedLength(d.data);
  if (got !== expected) {
    throw new AppError('invalid', `${name}: data holds ${got} bytes, shape [${d.shape.join(',')}] ${d.dtype} needs ${expected}`);
  }
}

export interface TensorRequestIdParts {
  /** Names encoding, frame size, fps, frame count and audio rate: a new profile is a new task. */
  profileId: string;
  service: 'embedding' | 'tagging';
  /** The tensors (or their raw bytes) in a fixed order, and any kwargs. */
  contents: Array<TensorDescriptor | Uint8Array | string | Record<string, unknown>>;
}

/**
 * Same content + same profile -> same id, so a retry after a crash re-sends the same request_id
 * and the service (and our catalog) can recognise it. Every part is length-prefixed so that
 * ["ab","c"] and ["a","bc"] differ.
 */
export function tensorRequestId(parts: TensorRequestIdParts): string {
  const h = createHash('sha256');
  const feed = (tag: string, bytes: Buffer) => {
    h.update(tag);
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(bytes.length));
    h.update(len);
    h.update(bytes);
  };
  feed('profile', Buffer.from(parts.profileId, 'utf8'));
  feed('service', Buffer.from(parts.service, 'utf8'));
  for (const c of parts.contents) {
    if (typeof c === 'string') feed('s', Buffer.from(c, 'utf8'));
    else if (c instanceof Uint8Array) feed('b', Buffer.from(c.buffer, c.byteOffset, c.byteLength));
    else if (isDescriptor(c)) {
      feed('d', Buffer.from(`${c.dtype}:${c.shape.join('x')}`, 'utf8'));
      feed('data', Buffer.from(c.data, 'utf8'));
    } else feed('j', Buffer.from(stableJson(c), 'utf8'));
  }
  return `rs-${h.digest('hex')}`;
}

function isDescriptor(c: unknown): c is TensorDescriptor {
  return typeof c === 'object' && c !== null && typeof (c as TensorDescriptor).data === 'string' && Array.isArray((c as TensorDescriptor).shape);
}

/** JSON with sorted keys, so kwargs built in a different order hash the same. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
