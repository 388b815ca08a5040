import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';

export interface ClipOptions {
  seconds?: number;
  width?: number;
  height?: number;
  fps?: number;
}

/**
 * A small H.264 mp4 of one solid colour (any ffmpeg colour name or 0xRRGGBB), `dir/name.mp4` (the
 * folder made if need be), for tests that need a known emulator ranking: the emulator places a red
 * clip nearest to the text "red". Size and rate vary the bytes of the same picture.
 */
export function makeColourClip(dir: string, name: string, colour: string, o: ClipOptions = {}): string {
  const file = path.join(dir, `${name}.mp4`);
  const { seconds = 1, width = 64, height = 48, fps = 10 } = o;
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(ffPath('ffmpeg'), [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${width}x${height}:d=${seconds}:r=${fps}`,
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', file,
  ]);
  return file;
}

/** A file with a video extension that no decoder accepts: uploads of it end in status failed. */
export function makeBrokenClip(dir: string, name = 'broken'): string {
  const file = path.join(dir, `${name}.mp4`);
  fs.writeFileSync(file, Buffer.from('this is not a video file, only text pretending to be one\n'.repeat(50)));
  return file;
}

export function fileUrl(file: string): string {
  return pathToFileURL(path.resolve(file)).href;
}
