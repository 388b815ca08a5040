import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClipDecoder, type VideoOutput } from '../../src-main/core/media/clip-decoder';
import { ffPath } from '../../src-main/core/media/ffmpeg-locate';
import { runTool } from '../../src-main/core/media/run-process';
import { tempDir } from '../helpers/paths';

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
