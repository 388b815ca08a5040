import { execFileSync, spawn } from 'node:child_process';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { readFramePattern } from './frame-pattern';

/**
 * The burnt-in frame number of every picture of a file (playback footage, its proxies and preview
 * windows), decoded at the file's own size as a player would (edit list applied); null where the
 * picture does not carry it (a flat grey picture, say).
 */
export async function burntInNumbers(file: string): Promise<(number | null)[]> {
  const [w, h] = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]).toString().trim().split(',').map(Number) as [number, number];
  const ff = spawn(ffPath('ffmpeg'), ['-v', 'error', '-i', file, '-map', '0:v:0', '-vsync', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  for await (const c of ff.stdout as AsyncIterable<Buffer>) chunks.push(c);
  const all = Buffer.concat(chunks);
  const size = w * h * 3;
  const read: (number | null)[] = [];
  for (let o = 0; o + size <= all.length; o += size) read.push(readFramePattern(new Uint8Array(all.subarray(o, o + size)), w, h, 3));
  return read;
}
