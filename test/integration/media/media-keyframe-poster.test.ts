import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { renderKeyframePoster } from '../../../src-main/core/media/stills';
import { tempDir } from '../../helpers/paths';

/**
 * The preview lane's poster is one keyframe seek. Clips made here have known keyframes and a
 * colour per stretch, so what the JPEG shows can be checked against the time reported for it:
 * red 0-2 s, blue 2-4 s, green 4-6 s; keyframes at 0 and 2 s only ('two-keys'), or at 0 only
 * ('one-key': a long GOP, as x264's default 250 frames gives every short clip).
 */
const COLOURS = { red: [255, 0, 0], blue: [0, 0, 255], green: [0, 128, 0] } as const;

function makeClip(file: string, keyframes: string): void {
  const parts = Object.keys(COLOURS).map((c, i) => `color=${c}:s=160x90:r=25:d=2[c${i}]`);
  execFileSync(ffPath('ffmpeg'), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-filter_complex', `${parts.join(';')};[c0][c1][c2]concat=n=3:v=1[v]`, '-map', '[v]',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '1000', '-keyint_min', '1000', '-sc_threshold', '0', '-force_key_frames', keyframes,
    file,
  ]);
}

/** The mean colour of a JPEG, read back by ffmpeg (an independent decoder). */
function meanColour(jpeg: string): number[] {
  const px = execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-i', jpeg, '-vf', 'scale=1:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  return [...px.subarray(0, 3)];
}

function nearest(rgb: number[]): string {
  const d = (c: readonly number[]) => c.reduce((s, v, i) => s + (v - rgb[i]!) ** 2, 0);
  return Object.entries(COLOURS).sort((a, b) => d(a[1]) - d(b[1]))[0]![0];
}

describe('keyframe poster: the keyframe before the asked time, with its true time, in one process', () => {
  const tmp = tempDir('rs-keyframe-poster-');
  const log = path.join(tmp.dir, 'spawns.log');
  let ffmpeg: string;
  const clips = { 'two-keys': path.join(tmp.dir, 'two-keys.mp4'), 'one-key': path.join(tmp.dir, 'one-key.mp4') };

  beforeAll(() => {
    makeClip(clips['two-keys'], '0,2');
    makeClip(clips['one-key'], '0');
    ffmpeg = path.join(tmp.dir, 'ffmpeg');
    fs.writeFileSync(ffmpeg, `#!/bin/sh\necho run >> '${log}'\nexec '${ffPath('ffmpeg')}' "$@"\n`, { mode: 0o755 });
  });
  afterAll(() => tmp.cleanup());

  const cases: Array<{ clip: keyof typeof clips; atS: number; colour: string; timeS: number }> = [
    { clip: 'two-keys', atS: 3, colour: 'blue', timeS: 2 },
    { clip: 'two-keys', atS: 5, colour: 'blue', timeS: 2 },
    { clip: 'two-keys', atS: 1, colour: 'red', timeS: 0 },
    { clip: 'one-key', atS: 3, colour: 'red', timeS: 0 },
  ];
  for (const c of cases) {
    it(`${c.clip} at ${c.atS} s: the ${c.colour} keyframe at ${c.timeS} s`, async () => {
      fs.rmSync(log, { force: true });
      const out = path.join(tmp.dir, `${c.clip}-${c.atS}`);
      const img = await renderKeyframePoster(clips[c.clip], c.atS, out, { ffmpeg });
      expect(nearest(meanColour(img.file))).toBe(c.colour);
      expect(img.timeS).toBeCloseTo(c.timeS, 2);
      expect([img.width, img.height]).toEqual([320, 180]);
      // No second try from the start of the file.
      expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    });
  }
});
