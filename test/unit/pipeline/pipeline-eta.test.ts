import { describe, expect, it } from 'vitest';
import { EtaModel } from '../../../src-main/core/pipeline/view/eta';
import { ShotFrameCache } from '../../../src-main/core/pipeline/stages/shot-frame-cache';
import { resubmitRequestId } from '../../../src-main/core/pipeline/stages/poll-stage';
import { chunkForSegment, chunkRequestIds, chunkContentSha, planChunks } from '../../../src-main/core/pipeline/stages/shot-tensors';
import { createTensorProfile } from '../../../src-main/core/tensors/tensor-profile';
import type { ShotFrames } from '../../../src-main/core/tensors/shot-chunks';

const resourceOf = (s: string) => (s === 'upload' || s === 'poll' ? 'network' : 'cpu') as 'cpu' | 'network';

describe('ETA', () => {
  it('is unknown until every stage with work left has been seen', () => {
    const eta = new EtaModel(resourceOf);
    eta.observe({ stage: 'decode', ms: 2000, workS: 10 });
    expect(eta.estimate([{ stage: 'decode', progress: 0, later: ['upload'], workS: 10 }], { cpu: 1, network: 1 })).toBeNull();
    eta.observe({ stage: 'upload', ms: 500, workS: 10 });
    expect(eta.estimate([{ stage: 'decode', progress: 0, later: ['upload'], workS: 10 }], { cpu: 1, network: 1 })).toBe(2000);
  });

  it('scales by media length, counts what is left of the current stage, and runs the two lanes side by side', () => {
    const eta = new EtaModel(resourceOf);
    eta.observe({ stage: 'decode', ms: 1000, workS: 10 }); // 100 ms per media second
    eta.observe({ stage: 'upload', ms: 3000, workS: 10 }); // 300 ms per media second
    const clips = [
      { stage: 'decode', progress: 0.5, later: ['upload'], workS: 20 }, // 1000 cpu + 6000 net
      { stage: 'upload', progress: 0, later: [], workS: 10 }, // 3000 net
    ];
    expect(eta.estimate(clips, { cpu: 1, network: 1 })).toBe(9000);
    expect(eta.estimate(clips, { cpu: 1, network: 3 })).toBe(3000);
    // Unknown length: the per-job average.
    expect(eta.stageMs('decode', null)).toBe(1000);
  });

  it('follows recent runs (exponential weighting)', () => {
    const eta = new EtaModel(resourceOf, 0.5);
    eta.observe({ stage: 'decode', ms: 1000, workS: 10 });
    eta.observe({ stage: 'decode', ms: 3000, workS: 10 });
    expect(eta.stageMs('decode', 10)).toBe(2000);
  });
});

function fakeShot(frames: number, profile: ReturnType<typeof createTensorProfile>): ShotFrames {
  const fb = profile.frameWidth * profile.frameHeight * 3;
  return {
    shotId: 7,
    startS: 10,
    endS: 10 + frames / profile.fps,
    frames: Array.from({ length: frames }, (_, i) => new Uint8Array(fb).fill(i * 10)),
    frameTimes: Array.from({ length: frames }, (_, i) => 10 + i / profile.fps),
    audio: new Float32Array(Math.round((frames / profile.fps) * profile.audioSampleRate)).map((_, i) => Math.sin(i / 10)),
    sourceWidth: 640,
    sourceHeight: 360,
    content: { x: 0, y: 4, width: 32, height: 24 },
  };
}

describe('segment tensors', () => {
  const profile = createTensorProfile({ id: 'unit-32', fps: 1, frameWidth: 32, frameHeight: 32, maxFramesPerTensor: 4, audioSampleRate: 8000, byteBudget: 256 * 1024 });

  it('request ids come from the content: the same bytes give the same ids, other bytes other ids', () => {
    const a = planChunks(fakeShot(8, profile), profile, profile.byteBudget);
    const b = planChunks(fakeShot(8, profile), profile, profile.byteBudget);
    expect(a).toHaveLength(2);
    expect(chunkRequestIds(profile, a[0]!)).toEqual(chunkRequestIds(profile, b[0]!));
    expect(chunkContentSha(a[0]!)).toBe(chunkContentSha(b[0]!));
    expect(chunkRequestIds(profile, a[0]!).embedding).not.toBe(chunkRequestIds(profile, a[1]!).embedding);
    expect(chunkRequestIds(profile, a[0]!).embedding).not.toBe(chunkRequestIds(profile, a[0]!).tagging);
    const other = createTensorProfile({ ...profile, id: 'unit-32b' });
    expect(chunkRequestIds(other, a[0]!).embedding).not.toBe(chunkRequestIds(profile, a[0]!).embedding);
  });

  it('a split segment is rebuilt from the plan by its part path', () => {
    const planned = planChunks(fakeShot(8, profile), profile, profile.byteBudget);
    const whole = chunkForSegment(planned, 1, '', profile);
    const secondHalf = chunkForSegment(planned, 1, '1', profile);
    const firstQuarter = chunkForSegment(planned, 1, '00', profile);
    expect(whole.videoShape[0]).toBe(4);
    expect(secondHalf.videoShape[0]).toBe(2);
    expect(firstQuarter.videoShape[0]).toBe(1);
    expect(secondHalf.startS).toBeGreaterThan(whole.startS);
    expect(secondHalf.endS).toBeCloseTo(whole.endS, 6);
    expect(firstQuarter.startS).toBeCloseTo(whole.startS, 6);
    expect(() => chunkForSegment(planned, 5, '', profile)).toThrow(/not in the plan/);
  });

  it('a failed task gets a fresh request id per resubmission', () => {
    expect(resubmitRequestId('rs-abc', 1)).toBe('rs-abc.r1');
    expect(resubmitRequestId('rs-abc.r1', 2)).toBe('rs-abc.r2');
  });
});

describe('shot frame cache', () => {
  const profile = createTensorProfile({ id: 'unit-32', fps: 1, frameWidth: 32, frameHeight: 32, maxFramesPerTensor: 4, audioSampleRate: 8000, byteBudget: 256 * 1024 });
  it('keeps decoded shots within its byte bound, least recently used out first', () => {
    const shot = fakeShot(4, profile);
    const bytes = 4 * 32 * 32 * 3 + shot.audio.byteLength;
    const cache = new ShotFrameCache(bytes * 2);
    cache.set('a', shot);
    cache.set('b', shot);
    expect(cache.get('a')).toBe(shot); // a is now the most recent
    cache.set('c', shot);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(shot);
    expect(cache.get('c')).toBe(shot);
    new ShotFrameCache(10).set('x', shot); // larger than the bound: not kept, no error
    const none = new ShotFrameCache(0);
    none.set('x', shot);
    expect(none.size).toBe(0);
  });
});
