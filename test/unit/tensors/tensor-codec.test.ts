import { describe, expect, it } from 'vitest';
import {
  base64Length,
  decodeTensor,
  encodeFloat32Tensor,
  encodeUint8Tensor,
  float32FromLittleEndian,
  float32ToLittleEndian,
} from '../../../src-main/core/tensors/tensor-codec';

describe('tensor codec', () => {
  it('writes float32 little-endian whatever the host', () => {
    const bytes = float32ToLittleEndian(new Float32Array([1, -2, 0.5]));
    // IEEE 754: 1.0 = 0x3f800000, -2.0 = 0xc0000000, 0.5 = 0x3f000000, least significant byte first.
    expect([...bytes]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f]);
    expect([...float32FromLittleEndian(bytes)]).toEqual([1, -2, 0.5]);
  });

  it('encodes uint8 [T,H,W,3] in C order and decodes it back', () => {
    const [T, H, W] = [2, 3, 4];
    const v = new Uint8Array(T * H * W * 3);
    // value encodes its own index: (t, y, x, c) -> offset ((t*H + y)*W + x)*3 + c in C order
    for (let i = 0; i < v.length; i++) v[i] = i % 251;
    const d = encodeUint8Tensor(v, [T, H, W, 3]);
    expect(d.dtype).toBe('uint8');
    expect(d.shape).toEqual([T, H, W, 3]);
    expect(d.data.length).toBe(base64Length(v.length));
    const back = decodeTensor(JSON.parse(JSON.stringify(d)));
    expect(back.dtype).toBe('uint8');
    expect(back.shape).toEqual([T, H, W, 3]);
    expect(Buffer.from(back.array).equals(Buffer.from(v))).toBe(true);
    const at = (t: number, y: number, x: number, c: number) => back.array[((t * H + y) * W + x) * 3 + c];
    expect(at(1, 2, 3, 2)).toBe(v.length - 1);
  });

  it('round-trips float32 audio exactly, including awkward values', () => {
    const a = new Float32Array([0, -0, 1e-38, -1, 0.999_999, Math.fround(Math.PI), -3.4e38, Number.NaN]);
    const d = encodeFloat32Tensor(a, [a.length]);
    expect(d).toMatchObject({ dtype: 'float32', shape: [8] });
    expect(Buffer.from(d.data, 'base64').length).toBe(32);
    const back = decodeTensor(d);
    expect(back.dtype).toBe('float32');
    expect(Buffer.from(back.array.buffer, back.array.byteOffset, back.array.byteLength).equals(Buffer.from(a.buffer))).toBe(true);
  });

  it('rejects shapes that do not match the data', () => {
    expect(() => encodeUint8Tensor(new Uint8Array(10), [3, 3])).toThrow(/9 elements/);
    expect(() => encodeFloat32Tensor(new Float32Array(4), [])).toThrow(/at least one dimension/);
    const d = encodeFloat32Tensor(new Float32Array(4), [4]);
    expect(() => decodeTensor({ ...d, shape: [5] })).toThrow(/needs 20/);
    expect(() => decodeTensor({ ...d, dtype: 'int64' })).toThrow(/not a tensor descriptor/);
    expect(() => decodeTensor({ ...d, data: '***' })).toThrow(/base64/);
  });

  it('computes base64 sizes used by the byte budget', () => {
    for (const n of [0, 1, 2, 3, 4, 150_528, 64_001]) expect(base64Length(n)).toBe(Buffer.alloc(n).toString('base64').length);
  });
});
