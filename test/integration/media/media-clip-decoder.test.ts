import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSource } from '../../../src-main/core/analysis/source-info';
import { ClipDecoder, buildDecodeArgs, decodeThreads, type VideoOutput } from '../../../src-main/core/media/clip-decoder';
import { SHOT_OUTPUT } from '../../../src-main/core/media/detect-shots-in-file';
import { detectorGeometry, motionGeometry } from '../../../src-main/core/media/frame-geometry';
import { tensorOutput } from '../../../src-main/core/tensors/shot-grid';
import { DEFAULT_TENSOR_PROFILE } from '../../../src-main/core/tensors/tensor-profile';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { runTool } from '../../../src-main/core/media/run-process';
import { mediaFile, tempDir } from '../../helpers/paths';

/**
 * A lossless clip whose frame N has luma 2N (as stored, read back as the Y plane), so every output
 * frame says which source frame it is.
 */
async function indexClip(file: string, rate: string): Promise<void> {
  const r = await runTool(ffPath('ffmpeg'), [
    '-hide_banner', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `nullsrc=s=16x16:r=${rate}:d=4,geq=lum='N*2':cb=128:cr=128`,
    '-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p', file,
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
}

/** The Y plane's first pixel, untouched by range conversion. */
const Y_ONLY = { outWidth: 1, outHeight: 1, filter: 'extractplanes=y,crop=1:1:0:0' };

async function decode(file: string, output: VideoOutput): Promise<{ values: number[]; frameTimes: number[] }> {
  const values: number[] = [];
  const r = await new ClipDecoder({ filePath: file, startS: 0, outputs: [output], audioRate: null }, { onFrame: (_o, f) => values.push(f[0]!), onAudio: () => {} }).run();
  return { values, frameTimes: r.frameTimes };
}

describe('ClipDecoder: which source frame each output frame is', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir('reelscout-decoder-');
  });
  afterAll(() => tmp?.cleanup());

  for (const [rate, fps] of [['25', 25], ['30000/1001', 30000 / 1001]] as const) {
    it(`samples a ${rate} fps clip on the grid with the picture on screen at k / fps, and passes every frame with its time`, async () => {
      const file = path.join(tmp.dir, `index-${rate.replace('/', '_')}.mp4`);
      await indexClip(file, rate);
      const onScreen = (t: number) => Math.floor(t * fps + 1e-6); // the last frame at or before t
      const n = Math.round(4 * fps);
      const grid = await decode(file, { name: 'grid', fps: 2, geometry: Y_ONLY, pixFmt: 'gray' });
      // Grid points while the clip lasts (its last frame stays on screen for 1/fps).
      expect(grid.values.length).toBe(Math.ceil((n / fps) * 2 - 1e-9));
      expect(grid.values.map((v) => v / 2)).toEqual(grid.values.map((_, k) => onScreen(k / 2)));
      const every = await decode(file, { name: 'every', fps: 'every', geometry: Y_ONLY, pixFmt: 'gray' });
      expect(every.values.length).toBe(n);
      expect(every.values.slice(0, 100).map((v) => v / 2)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(every.frameTimes).toHaveLength(n);
      every.frameTimes.forEach((t, i) => expect(t).toBeCloseTo(i / fps, 3));
    });
  }
});

describe('ClipDecoder: thread count', () => {
  it('splits the cores between the decodes running at once, at least one each', () => {
    expect([1, 2, 3, 4].map((n) => decodeThreads(2, n))).toEqual([2, 1, 1, 1]);
    expect([0, 1, 3, 8].map((n) => decodeThreads(8, n))).toEqual([8, 8, 2, 1]);
    expect(decodeThreads(1, 1)).toBe(1);
    const args = buildDecodeArgs({ filePath: 'x.mp4', startS: 0, outputs: [SHOT_OUTPUT], audioRate: null, threads: 1 }).args;
    expect(args.slice(args.indexOf('-threads'), args.indexOf('-threads') + 2)).toEqual(['-threads', '1']);
    // Before -i: an input option, the decoder's threads.
    expect(args.indexOf('-threads')).toBeLessThan(args.indexOf('-i'));
    expect(args.slice(args.indexOf('-filter_complex_threads'), args.indexOf('-filter_complex_threads') + 2)).toEqual(['-filter_complex_threads', '1']);
  });

  // The upload stage's rebuild may run with another thread count than the analysis that planned
  // the request ids from the same bytes.
  it('gives the same bytes on every output, audio included, whatever the thread count', async () => {
    const file = mediaFile('mdn_friday.mp4');
    const src = await probeSource(file);
    const t = tensorOutput(src, DEFAULT_TENSOR_PROFILE);
    const outputs: VideoOutput[] = [
      t.output,
      { name: 'faces', fps: 2, geometry: detectorGeometry(t.disp.width, t.disp.height, 320), pixFmt: 'bgr24' },
      { name: 'motion', fps: 5, geometry: motionGeometry(t.disp.width, t.disp.height, 160), pixFmt: 'gray' },
      SHOT_OUTPUT,
    ];
    const digests = async (threads: number | undefined) => {
      const h = [...outputs.map(() => crypto.createHash('sha256')), crypto.createHash('sha256')];
      const counts = outputs.map(() => 0);
      await new ClipDecoder(
        { filePath: file, startS: 0, outputs, audioRate: 16_000, threads },
        { onFrame: (o, f) => (h[o]!.update(f), counts[o]!++), onAudio: (a) => h[outputs.length]!.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) },
      ).run();
      expect(Math.min(...counts)).toBeGreaterThan(0);
      return h.map((x) => x.digest('hex'));
    };
    const own = await digests(undefined);
    expect(await digests(1)).toEqual(own);
    expect(await digests(3)).toEqual(own);
  });
});

describe('ClipDecoder: frames given back', () => {
  it('reads later frames into buffers given back, with the same bytes as fresh ones, and never one that is not its own size', async () => {
    const file = mediaFile('mdn_friday.mp4');
    const src = await probeSource(file);
    const t = tensorOutput(src, DEFAULT_TENSOR_PROFILE);
    const faces: VideoOutput = { name: 'faces', fps: 2, geometry: detectorGeometry(t.disp.width, t.disp.height, 320), pixFmt: 'yuv420p' };
    const run = async (giveBack: boolean) => {
      const digests: string[] = [];
      const seen = new Set<ArrayBufferLike>();
      let reused = 0;
      const decoder: ClipDecoder = new ClipDecoder(
        { filePath: file, startS: 0, outputs: [faces], audioRate: null },
        {
          onFrame: (_o, f) => {
            if (seen.has(f.buffer)) reused++;
            seen.add(f.buffer);
            digests.push(crypto.createHash('sha256').update(f).digest('hex'));
            if (giveBack) {
              decoder.reuse(0, f);
              // Another size (a view of part of it) is not taken: it could not hold a frame.
              decoder.reuse(0, f.subarray(1));
            }
          },
          onAudio: () => {},
        },
      );
      await decoder.run();
      return { digests, reused, buffers: seen.size };
    };
    const fresh = await run(false);
    const given = await run(true);
    expect(fresh.digests.length).toBeGreaterThan(4);
    expect(fresh.reused).toBe(0);
    expect(given.digests).toEqual(fresh.digests);
    // Each frame given back as soon as it came: its buffer holds the next one.
    expect(given.reused).toBe(given.digests.length - 1);
    expect(given.buffers).toBe(1);
  });
});
