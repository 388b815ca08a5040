import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import { checkTensorDescriptor, checkTensorSize, encodeTensor, littleEndianBytes, tensorRequestId, base64Length, tensorByteLength } from '../../../src-main/core/service/tensor';
import { decodeDescriptor } from '../../emulator/tensors';

describe('encodeTensor', () => {
  it('writes uint8 bytes as base64, C order as given', () => {
    const d = encodeTensor(new Uint8Array([1, 2, 3, 4, 5, 6]), [1, 2, 3], 'uint8');
    expect(d).toEqual({ data: Buffer.from([1, 2, 3, 4, 5, 6]).toString('base64'), shape: [1, 2, 3], dtype: 'uint8' });
  });

  it('writes multi-byte types little-endian, the same through the portable DataView path', () => {
    const i16 = new Int16Array([0x0102, -2]);
    expect([...littleEndianBytes(i16, { portable: true })]).toEqual([0x02, 0x01, 0xfe, 0xff]);
    const f = new Float32Array([1, -0.5, 3.25, Math.PI]);
    const fast = encodeTensor(f, [4], 'float32');
    const portable = encodeTensor(f, [4], 'float32', { portable: true });
    expect(portable.data).toBe(fast.data);
    const bytes = Buffer.from(fast.data, 'base64');
    expect(bytes.readFloatLE(8)).toBe(3.25);
    const big = new BigInt64Array([1n, -1n]);
    expect(encodeTensor(big, [2], undefined, { portable: true }).data).toBe(encodeTensor(big, [2]).data);
    const f64 = new Float64Array([1.5]);
    expect(Buffer.from(encodeTensor(f64, [1], 'float64', { portable: true }).data, 'base64').readDoubleLE(0)).toBe(1.5);
  });

  it('respects a subarray view (offset into a larger buffer)', () => {
    const whole = new Float32Array([9, 9, 1, 2]);
    const view = whole.subarray(2);
    expect(Buffer.from(encodeTensor(view, [2], 'float32').data, 'base64').readFloatLE(4)).toBe(2);
  });

  it('refuses a shape or dtype that does not fit the array', () => {
    expect(() => encodeTensor(new Uint8Array(5), [2, 3], 'uint8')).toThrow(AppError);
    expect(() => encodeTensor(new Uint8Array(6), [2, 3], 'float32')).toThrow(/does not match/);
    expect(() => encodeTensor(new Uint8Array(6), [], 'uint8')).toThrow(AppError);
    expect(() => encodeTensor(new Uint8Array(6), [2, -3], 'uint8')).toThrow(AppError);
  });

  it('produces descriptors the emulator decodes to the same bytes', () => {
    const frames = new Uint8Array(2 * 4 * 4 * 3).map((_, i) => i % 251);
    const d = encodeTensor(frames, [2, 4, 4, 3], 'uint8');
    expect([...decodeDescriptor(d, 'video_input').bytes]).toEqual([...frames]);
    const audio = new Float32Array(100).map((_, i) => Math.sin(i));
    const a = encodeTensor(audio, [1, 100], 'float32');
    const back = decodeDescriptor(a, 'audio_input').bytes;
    expect(back.readFloatLE(40)).toBe(audio[10]);
    expect(tensorByteLength([2, 4, 4, 3], 'uint8')).toBe(96);
    expect(base64Length(96)).toBe(d.data.length);
  });
});

describe('checkTensorDescriptor and checkTensorSize', () => {
  const ok = encodeTensor(new Float32Array(6), [2, 3], 'float32');

  it('catches length, dtype and base64 mistakes in a descriptor from outside', () => {
    expect(() => checkTensorDescriptor(ok, 'v')).not.toThrow();
    expect(() => checkTensorDescriptor({ ...ok, shape: [3, 3] }, 'v')).toThrow(/needs 36/);
    expect(() => checkTensorDescriptor({ ...ok, dtype: 'complex64' as never }, 'v')).toThrow(/dtype/);
    expect(() => checkTensorDescriptor({ ...ok, data: 'not base64!' }, 'v')).toThrow(/base64/);
    expect(() => checkTensorDescriptor({ ...ok, data: `${ok.data.slice(0, -4)}A*AA` }, 'v')).toThrow(/base64/);
  });

  it('checks an upload in constant time: dtype and size against the shape, not the alphabet', () => {
    expect(() => checkTensorSize(ok, 'v')).not.toThrow();
    expect(() => checkTensorSize({ ...ok, shape: [3, 3] }, 'v')).toThrow(/needs 36/);
    expect(() => checkTensorSize({ ...ok, dtype: 'complex64' as never }, 'v')).toThrow(/dtype/);
    expect(() => checkTensorSize({ ...ok, dtype: 'toString' as never }, 'v')).toThrow(/unsupported dtype toString/);
    expect(() => checkTensorSize({ ...ok, data: ok.data.slice(1) }, 'v')).toThrow(/base64/);
    // Same length, a character outside the alphabet: only the scan of checkTensorDescriptor sees it.
    expect(() => checkTensorSize({ ...ok, data: `${ok.data.slice(0, -4)}A*AA` }, 'v')).not.toThrow();
  });
});

describe('tensorRequestId', () => {
  const d = encodeTensor(new Uint8Array([1, 2, 3]), [3], 'uint8');

  it('is stable for the same content and profile, and differs otherwise', () => {
    const id = tensorRequestId({ profileId: 'p1', service: 'embedding', contents: [d] });
    expect(id).toMatch(/^rs-[0-9a-f]{64}$/);
    expect(tensorRequestId({ profileId: 'p1', service: 'embedding', contents: [{ ...d, shape: [3] }] })).toBe(id);
    expect(tensorRequestId({ profileId: 'p2', service: 'embedding', contents: [d] })).not.toBe(id);
    expect(tensorRequestId({ profileId: 'p1', service: 'tagging', contents: [d] })).not.toBe(id);
    const d2 = encodeTensor(new Uint8Array([1, 2, 4]), [3], 'uint8');
    expect(tensorRequestId({ profileId: 'p1', service: 'embedding', contents: [d2] })).not.toBe(id);
    expect(tensorRequestId({ profileId: 'p1', service: 'embedding', contents: [{ ...d, shape: [1, 3] }] })).not.toBe(id);
  });

  it('ignores kwargs key order and separates adjacent parts', () => {
    const a = tensorRequestId({ profileId: 'p', service: 'tagging', contents: [d, { fps: 2, size: 224 }] });
    const b = tensorRequestId({ profileId: 'p', service: 'tagging', contents: [d, { size: 224, fps: 2 }] });
    expect(a).toBe(b);
    expect(tensorRequestId({ profileId: 'p', service: 'tagging', contents: ['ab', 'c'] })).not.toBe(tensorRequestId({ profileId: 'p', service: 'tagging', contents: ['a', 'bc'] }));
  });
});
