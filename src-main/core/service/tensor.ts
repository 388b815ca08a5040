import { createHash } from 'node:crypto';
import type { TensorDescriptor } from '../tensors/tensor-codec';

// The descriptor codec lives in tensors/; the service surface keeps exporting what it always did.
export {
  base64DecodedLength,
  base64Length,
  checkTensorDescriptor,
  checkTensorSize,
  DTYPE_BYTES,
  dtypeOfArray,
  elementCount,
  encodeTensor,
  littleEndianBytes,
  tensorByteLength,
  type TensorArray,
  type TensorDescriptor,
  type TensorDtype,
} from '../tensors/tensor-codec';

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
