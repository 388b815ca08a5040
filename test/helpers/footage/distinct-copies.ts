import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { sampleClips } from '../paths';

/**
 * A valid ISO 'free' box carrying a copy's index: appended to an MP4 it gives every copy its own
 * bytes (and fingerprint) while the file stays valid. For generated cards in tests and benchmarks.
 */
export function freeBox(i: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32BE(16, 0);
  b.write('free', 4, 'latin1');
  b.writeBigUInt64BE(BigInt(i), 8);
  return b;
}

/**
 * `count` short clips whose pictures all differ (so their tensors, request ids and billing differ too,
 * as a card's clips do): consecutive windows of `seconds` cut from the real sample clips in turn,
 * scaled down to `width` and re-encoded, written as `dir/C0001.mp4`... A window is never cut twice
 * (the second pass over the samples takes their next window), and clips shorter than a window are left
 * out. The same samples give the same files on every run. Returns the files in name order.
 */
export function makeDistinctClips(dir: string, count: number, o: { seconds?: number; width?: number } = {}): string[] {
  const seconds = o.seconds ?? 1;
  const width = o.width ?? 320;
  // mdn_flower.webm is mdn_flower.mp4 in another codec: the same pictures.
  const sources = sampleClips()
    .filter((f) => !/mdn_flower\.webm$/.test(f))
    .map((f) => ({ file: f, windows: Math.floor(probeDurationS(f) / seconds) }))
    .filter((s) => s.windows > 0);
  fs.mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (let pass = 0; out.length < count; pass++) {
    const before = out.length;
    for (const s of sources) {
      if (out.length === count) break;
      if (pass >= s.windows) continue;
      const file = path.join(dir, `C${String(out.length + 1).padStart(4, '0')}.mp4`);
      execFileSync(ffPath('ffmpeg'), [
        '-hide_banner', '-loglevel', 'error', '-y', '-ss', String(pass * seconds), '-i', s.file, '-t', String(seconds),
        '-map', '0:v:0', '-map', '0:a:0?', '-vf', `scale=${width}:-2`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
        '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', file,
      ]);
      // The bundled ffmpeg cuts the AVI sample's h264 (no timestamps) into a file without frames: that sample is left out.
      if (probeDurationS(file) < seconds / 2) {
        fs.rmSync(file);
        s.windows = 0;
        continue;
      }
      out.push(file);
    }
    if (out.length === before) throw new Error(`the samples hold fewer than ${count} windows of ${seconds} s`);
  }
  return out;
}

function probeDurationS(file: string): number {
  const out = execFileSync(ffPath('ffprobe'), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return Number(out.trim()) || 0;
}
