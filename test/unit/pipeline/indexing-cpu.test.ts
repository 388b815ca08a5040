import { describe, expect, it } from 'vitest';
import { keyframePosterArgs, stillsBranches } from '../../../src-main/core/media/stills';
import { chunkContentSha, chunkRequestIds, planChunks } from '../../../src-main/core/pipeline/stages/shot-tensors';
import { createTensorProfile } from '../../../src-main/core/tensors/tensor-profile';
import type { ShotFrames } from '../../../src-main/core/tensors/shot-chunks';

/** What the indexing's CPU work was cut to (issue 26), and what those cuts must not change. */
describe('indexing CPU', () => {
  it("the stills' branches scale with area averaging, the cheap filter for a large reduction", () => {
    const branches = stillsBranches({ posterFps: 2, stripFrames: [3, 40, 90], outDir: '/tmp/x' });
    expect(branches).toHaveLength(2);
    for (const b of branches) {
      const scales = b.filter.split(',').filter((f) => f.startsWith('scale='));
      // The square-pixel step (a no-op for square pixels), then the reduction to the still's width.
      expect(scales).toHaveLength(2);
      expect(scales[1]).toMatch(/^scale=\d+:-2:flags=area$/);
    }
  });

  it('content hashes and request ids of planned chunks stay those pinned before the change (the audio bytes are a view on little-endian hosts)', () => {
    const profile = createTensorProfile({ id: 'unit-32', fps: 1, frameWidth: 32, frameHeight: 32, maxFramesPerTensor: 4, audioSampleRate: 8000, byteBudget: 256 * 1024 });
    const fb = 32 * 32 * 3;
    const shot: ShotFrames = {
      shotId: 7,
      startS: 10,
      endS: 16,
      frames: Array.from({ length: 6 }, (_, i) => new Uint8Array(fb).map((_, j) => (i * 31 + j * 7) & 255)),
      frameTimes: Array.from({ length: 6 }, (_, i) => 10 + i),
      audio: new Float32Array(6 * 8000).map((_, i) => Math.sin(i / 10)),
      sourceWidth: 640,
      sourceHeight: 360,
      content: { x: 0, y: 4, width: 32, height: 24 },
    };
    const chunks = planChunks(shot, profile, profile.byteBudget);
    // Computed with the DataView copy of the samples (float32ToLittleEndian) on main at 0268faf.
    expect(chunks.map((c) => ({ sha: chunkContentSha(c), ids: chunkRequestIds(profile, c) }))).toEqual([
      {
        sha: '7a522cb6ba955c611218f88339b8cd79203d40692aa166ee296bf1b50c66724f',
        ids: {
          embedding: 'rs-84a71386902c9f3941ed8ddfe3fc54a4f0482788c08f61e9cd76c004fab36e67',
          tagging: 'rs-a9e62b05f97a9009be621e365e7ace0cda965f215bb347e8a19d75ffe1b176ba',
        },
      },
      {
        sha: 'e48e3b43e7c540e2b925d83725597d729621245012a200385b52ebe4ada6d509',
        ids: {
          embedding: 'rs-99a0f894e148c556fc61f7be8a510601326e24d8f12ddae9ebb01920987ca6e9',
          tagging: 'rs-faee9837f02a4d41c7302f3fa902d07d4e5b97eda06ccd46429fd9745971aaae',
        },
      },
    ]);
  });
});

describe('keyframe poster arguments', () => {
  it('showinfo reads the poster-size frame, after the scaling, not the full picture', () => {
    const args = keyframePosterArgs('/clips/a.mp4', 2.5, '/tmp/p.jpg');
    const filters = args[args.indexOf('-vf') + 1]!.split(',');
    expect(filters.at(-1)).toBe('showinfo');
    expect(filters.filter((f) => f === 'showinfo')).toHaveLength(1);
    expect(filters.at(-2)).toBe('scale=320:-2:flags=area');
  });
});
