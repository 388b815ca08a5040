import { createHash } from 'node:crypto';
import type { Frames } from './semantics';

/** dtypes the emulator accepts (the spec shows uint8 and float32 and leaves the full set open). */
export const DTYPE_BYTES: Record<string, number> = {
  uint8: 1,
  int8: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float16: 2,
  float32: 4,
  float64: 8,
  int64: 8,
  uint64: 8,
  bool: 1,
};

export class TensorProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DecodedTensor {
  dtype: string;
  shape: number[];
  bytes: Buffer;
  sha256: string;
}

/** Checks a descriptor the way a strict service would: 422 material on any mismatch. */
export function decodeDescriptor(v: unknown, field: string): DecodedTensor {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TensorProblem(field, 'must be an object {data, shape, dtype}');
  const d = v as Record<string, unknown>;
  if (typeof d.dtype !== 'string') throw new TensorProblem(`${field}.dtype`, 'field required (string)');
  const width = DTYPE_BYTES[d.dtype];
  if (width === undefined) throw new TensorProblem(`${field}.dtype`, `unsupported dtype ${d.dtype}; accepted: ${Object.keys(DTYPE_BYTES).join(', ')}`);
  if (!Array.isArray(d.shape) || d.shape.length === 0 || !d.shape.every((x) => Number.isInteger(x) && (x as number) >= 0)) {
    throw new TensorProblem(`${field}.shape`, 'must be a non-empty array of non-negative integers');
  }
  const shape = d.shape as number[];
  if (typeof d.data !== 'string') throw new TensorProblem(`${field}.data`, 'field required (base64 string)');
  if (d.data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(d.data)) throw new TensorProblem(`${field}.data`, 'is not valid base64');
  const bytes = Buffer.from(d.data, 'base64');
  const expected = shape.reduce((a, b) => a * b, 1) * width;
  if (bytes.length !== expected) {
    throw new TensorProblem(`${field}.data`, `holds ${bytes.length} bytes but shape [${shape.join(', ')}] of ${d.dtype} needs ${expected}`);
  }
  return { dtype: d.dtype, shape, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Reads a video tensor as frames: uint8 (0..255) or float32 (0..1, or 0..255 when values exceed
 * 1.5), layout [T,H,W,3] or [T,3,H,W], leading 1s squeezed. Returns a reason when it cannot.
 */
export function videoTensorFrames(t: DecodedTensor, fps = 1): Frames | string {
  const shape = [...t.shape];
  while (shape.length > 4 && shape[0] === 1) shape.shift();
  if (shape.length === 3) shape.unshift(1);
  if (shape.length !== 4) return `video_input must be [T,H,W,3] or [T,3,H,W], got [${t.shape.join(', ')}]`;
  if (t.dtype !== 'uint8' && t.dtype !== 'float32') return `video_input must be uint8 or float32, got ${t.dtype}`;
  const [T, a, b, c] = shape as [number, number, number, number];
  const channelsLast = c === 3;
  if (!channelsLast && a !== 3) return `video_input needs 3 colour channels, got [${t.shape.join(', ')}]`;
  const H = channelsLast ? a : b;
  const W = channelsLast ? b : c;
  if (T === 0 || H === 0 || W === 0) return 'video_input is empty';
  const n = T * H * W * 3;
  const times = Array.from({ length: T }, (_, i) => i / fps);
  if (t.dtype === 'uint8' && channelsLast) {
    const frames = Array.from({ length: T }, (_, i) => new Uint8Array(t.bytes.buffer, t.bytes.byteOffset + i * H * W * 3, H * W * 3));
    return { frames, width: W, height: H, times };
  }
  let read: (i: number) => number;
  if (t.dtype === 'uint8') read = (i) => t.bytes[i]!;
  else {
    const f = new Float32Array(n);
    for (let i = 0; i < n; i++) f[i] = t.bytes.readFloatLE(i * 4);
    let max = 0;
    for (let i = 0; i < n; i += 97) max = Math.max(max, f[i]!);
    const scale = max > 1.5 ? 1 : 255;
    read = (i) => Math.max(0, Math.min(255, Math.round(f[i]! * scale)));
  }
  const frames: Uint8Array[] = [];
  for (let ti = 0; ti < T; ti++) {
    const fr = new Uint8Array(H * W * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        for (let ch = 0; ch < 3; ch++) {
          const src = channelsLast ? ((ti * H + y) * W + x) * 3 + ch : ((ti * 3 + ch) * H + y) * W + x;
          fr[(y * W + x) * 3 + ch] = read(src);
        }
      }
    }
    frames.push(fr);
  }
  return { frames, width: W, height: H, times };
}
