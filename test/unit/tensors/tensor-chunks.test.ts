import { describe, expect, it } from 'vitest';
import { chunkRequestId, chunkUploadBody } from '../../../src-main/core/tensors/chunk-upload';
import { fitGeometry } from '../../../src-main/core/media/frame-geometry';
import { chunkShot, splitChunk, type ShotFrames } from '../../../src-main/core/tensors/shot-chunks';
import { decodeTensor } from '../../../src-main/core/tensors/tensor-codec';
import { createTensorProfile, DEFAULT_TENSOR_PROFILE, frameBytes, type TensorProfile } from '../../../src-main/core/tensors/tensor-profile';

function shot(profile: TensorProfile, startS: number, endS: number, id = 7): ShotFrames {
  const frames: Uint8Array[] = [];
  const frameTimes: number[] = [];
  // frames on the profile grid from 0, as the decoder produces them
  for (let i = Math.ceil(startS * profile.fps - 1e-9); i / profile.fps < endS - 1e-9; i++) {
    const t = i / profile.fps;
    const f = new Uint8Array(frameBytes(profile)).fill(i % 256);
    frames.push(f);
    frameTimes.push(t);
  }
  const n = Math.round((endS - startS) * profile.audioSampleRate);
  const audio = new Float32Array(n);
  for (let k = 0; k < n; k++) audio[k] = startS + k / profile.audioSampleRate; // sample value = its time
  const g = fitGeometry(1920, 1080, profile.frameWidth, profile.frameHeight, profile.fit);
  return { shotId: id, startS, endS, frames, frameTimes, audio, sourceWidth: 1920, sourceHeight: 1080, content: g.content };
}

describe('tensor profile', () => {
  it('is named and derives a new id when a parameter changes', () => {
    expect(DEFAULT_TENSOR_PROFILE.id).toBe('rs-v1-224-2fps');
    const same = createTensorProfile({});
    expect(same.id).toBe(DEFAULT_TENSOR_PROFILE.id);
    const tweaked = createTensorProfile({ fps: 4 });
    expect(tweaked.id).toMatch(/^rs-v1-224-2fps\+[0-9a-f]{8}$/);
    expect(createTensorProfile({ fps: 4 }).id).toBe(tweaked.id);
    expect(createTensorProfile({ fps: 4, id: 'rs-v1-224-4fps' }).id).toBe('rs-v1-224-4fps');
    expect(() => createTensorProfile({ fps: -1 })).toThrow(/fps/);
  });
});

describe('byte-budget chunking', () => {
  it('keeps a short shot in one chunk with the full time range', () => {
    const p = DEFAULT_TENSOR_PROFILE;
    const chunks = chunkShot(shot(p, 1.2, 5.1), p);
    expect(chunks).toHaveLength(1);
    const c = chunks[0]!;
    expect(c.videoShape).toEqual([8, 224, 224, 3]); // ticks 1.5 .. 5.0
    expect(c.video.length).toBe(8 * 224 * 224 * 3);
    expect(c.audioShape).toEqual([Math.round(3.9 * 16000)]);
    expect([c.startS, c.endS]).toEqual([1.2, 5.1]);
    expect(c.videoKwargs).toMatchObject({ fps: 2, num_frames: 8, shot_start: 1.2, shot_end: 5.1, source_width: 1920, source_height: 1080, fit: 'letterbox', chunk_count: 1, profile: p.id });
    expect(c.videoKwargs.content_box).toEqual([0, 49, 224, 126]);
    expect(c.videoKwargs.frame_timestamps[0]).toBe(1.5);
  });

  it('splits long shots into consecutive chunks that cover the shot and respect the frame limit', () => {
    const p = DEFAULT_TENSOR_PROFILE;
    const s = shot(p, 0, 20.3);
    const chunks = chunkShot(s, p);
    expect(chunks.length).toBe(3); // 41 frames, 16 per tensor at most -> 14 + 13 + 14 (balanced)
    expect(chunks.map((c) => c.videoShape[0])).toEqual([13, 14, 14]);
    expect(chunks[0]!.startS).toBe(0);
    expect(chunks.at(-1)!.endS).toBe(20.3);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startS).toBe(chunks[i - 1]!.endS);
    expect(chunks.reduce((n, c) => n + c.videoShape[0], 0)).toBe(s.frames.length);
    expect(chunks.reduce((n, c) => n + c.audio.length, 0)).toBe(s.audio.length);
    for (const c of chunks) {
      expect(c.videoKwargs.chunk_count).toBe(3);
      // every frame and every audio sample lies inside the chunk's own range
      for (const t of c.videoKwargs.frame_timestamps) expect(t >= c.startS && t < c.endS).toBe(true);
      expect(c.audio[0]).toBeCloseTo(c.startS, 3);
      expect(c.audio.at(-1)!).toBeLessThan(c.endS);
    }
  });

  it('splits by the byte budget, and the estimate bounds the real upload bodies', () => {
    // 48 kHz audio and a 1.5 MB budget: the budget binds long before 16 frames.
    const p = createTensorProfile({ audioSampleRate: 48_000, byteBudget: 1_500_000 });
    const s = shot(p, 0, 8);
    const chunks = chunkShot(s, p);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.videoShape[0]).toBeLessThan(p.maxFramesPerTensor);
      expect(c.estimatedBytes).toBeLessThanOrEqual(p.byteBudget);
      for (const service of ['embedding', 'tagging'] as const) {
        const body = chunkUploadBody(c, service, chunkRequestId(p, service, 'clip-1', c));
        expect(JSON.stringify(body).length).toBeLessThanOrEqual(c.estimatedBytes);
      }
    }
    expect(chunks.reduce((n, c) => n + c.videoShape[0], 0)).toBe(16);
  });

  it('upload bodies decode back to the chunk tensors', () => {
    const p = DEFAULT_TENSOR_PROFILE;
    const [c] = chunkShot(shot(p, 0, 2), p);
    const emb = chunkUploadBody(c!, 'embedding', 'x');
    expect(emb.video_kwargs).toBeUndefined();
    const v = decodeTensor(emb.video_input);
    const a = decodeTensor(emb.audio_input);
    expect(v.shape).toEqual([4, 224, 224, 3]);
    expect(Buffer.from(v.array).equals(Buffer.from(c!.video))).toBe(true);
    expect(a.dtype).toBe('float32');
    expect([...a.array]).toEqual([...c!.audio]);
    const tag = chunkUploadBody(c!, 'tagging', 'y');
    expect(tag.audio_input).toBeUndefined();
    expect(tag.video_kwargs?.frame_timestamps).toEqual([0, 0.5, 1, 1.5]);
  });

  it('halves a chunk after a 413 and refuses when one frame is too much', () => {
    const p = DEFAULT_TENSOR_PROFILE;
    const [c] = chunkShot(shot(p, 0, 7), p);
    const halves = splitChunk(c!, p);
    expect(halves.map((h) => h.videoShape[0])).toEqual([7, 7]);
    expect(halves[0]!.startS).toBe(0);
    expect(halves[0]!.endS).toBe(halves[1]!.startS);
    expect(halves[1]!.endS).toBe(7);
    expect(halves[0]!.audio.length + halves[1]!.audio.length).toBe(c!.audio.length);
    expect(chunkRequestId(p, 'embedding', 'k', halves[0]!)).not.toBe(chunkRequestId(p, 'embedding', 'k', halves[1]!));
    const [one] = chunkShot(shot(p, 0, 0.4), p);
    expect(() => splitChunk(one!, p)).toThrow(/too large/);
    const tiny = createTensorProfile({ byteBudget: 100_000 });
    expect(() => chunkShot(shot(tiny, 0, 2), tiny)).toThrow(expect.objectContaining({ kind: 'too_large' }));
  });

  it('puts the profile id in request ids', () => {
    const p = DEFAULT_TENSOR_PROFILE;
    const id = chunkRequestId(p, 'tagging', 'clip 12/ä', { shotId: 3, chunkIndex: 1, startS: 8, endS: 16.25 });
    expect(id).toBe('rs-v1-224-2fps.tagging.clip_12__.s3.c1.8000-16250');
    expect(id).toMatch(/^[A-Za-z0-9._+-]+$/);
    expect(chunkRequestId(createTensorProfile({ fps: 3 }), 'tagging', 'clip', { shotId: 3, chunkIndex: 1, startS: 8, endS: 16 })).not.toContain('rs-v1-224-2fps.');
  });
});
