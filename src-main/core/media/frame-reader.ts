import { AppError } from '../../../src-shared/errors';
import { ffPath } from './ffmpeg-locate';
import { killChild, spawnTool } from './run-process';

export interface FrameReadOptions {
  width: number;
  height: number;
  signal?: AbortSignal;
  ffmpeg?: string;
  /** Called with each decoded frame (rgb24, width*height*3 bytes) in decode order; the buffer is reused after return. */
  onFrame: (rgb: Uint8Array, index: number) => void;
}

export interface FrameReadResult {
  frames: number;
  /** Presentation time of each frame in seconds, from showinfo: real timestamps, so variable frame rate stays exact. */
  ptsTimes: number[];
}

const SHOWINFO_RE = /\bn:\s*(\d+)\s+pts:\s*-?\d+\s+pts_time:(-?[\d.]+)/;

/**
 * Decodes every frame of the first video stream, downscaled and converted to rgb24 by ffmpeg, and
 * hands them over one by one so memory stays at one frame whatever the clip length. The display
 * matrix is applied (ffmpeg autorotates), and frames are passed through without duplication or drops.
 */
export function readSmallFrames(file: string, opts: FrameReadOptions): Promise<FrameReadResult> {
  const bin = opts.ffmpeg ?? ffPath('ffmpeg');
  const frameBytes = opts.width * opts.height * 3;
  const args = [
    '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info',
    // Deblocking is invisible once a frame is averaged down to 64x36, and costs about a sixth of an
    // H.264 decode: skipped (decoders without a loop filter ignore it).
    '-skip_loop_filter', 'all',
    '-i', file,
    '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', `scale=${opts.width}:${opts.height}:flags=area,format=rgb24,showinfo`,
    '-fps_mode', 'passthrough',
    '-f', 'rawvideo', 'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawnTool(bin, args, opts.signal);
    } catch (e) {
      reject(e);
      return;
    }
    const frame = new Uint8Array(frameBytes);
    let filled = 0;
    let index = 0;
    let failed: unknown = null;
    const ptsTimes: number[] = [];
    let stderrTail = '';
    let partial = '';

    child.stdout!.on('data', (chunk: Buffer) => {
      if (failed) return;
      let off = 0;
      while (off < chunk.length) {
        const take = Math.min(frameBytes - filled, chunk.length - off);
        frame.set(chunk.subarray(off, off + take), filled);
        filled += take;
        off += take;
        if (filled === frameBytes) {
          try {
            opts.onFrame(frame, index++);
          } catch (e) {
            failed = e;
            killChild(child);
            return;
          }
          filled = 0;
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const m = SHOWINFO_RE.exec(line);
        if (m) ptsTimes[Number(m[1])] = Number(m[2]);
        else if (line.trim()) stderrTail = (stderrTail + '\n' + line).slice(-4000);
      }
    });
    child.once('error', (err: NodeJS.ErrnoException) => reject(new AppError('media', `${bin}: ${err.message}`, { cause: err })));
    child.once('close', (code) => {
      if (opts.signal?.aborted) return reject(new AppError('cancelled', 'frame decoding cancelled'));
      if (failed) return reject(failed);
      if (code !== 0 && index === 0) {
        const last = stderrTail.trim().split('\n').at(-1) ?? '';
        return reject(new AppError('media', `no frame could be decoded: ${last.slice(0, 200)}`));
      }
      // A damaged tail can make ffmpeg exit non-zero after good frames: keep what decoded.
      const times = Array.from({ length: index }, (_, i) => ptsTimes[i] ?? Number.NaN);
      resolve({ frames: index, ptsTimes: fillMissingTimes(times) });
    });
  });
}

/** showinfo lines can be lost when ffmpeg is killed mid-line: interpolate gaps rather than fail. */
export function fillMissingTimes(times: readonly number[]): number[] {
  const out = times.slice();
  const known = out.map((t, i) => (Number.isFinite(t) ? i : -1)).filter((i) => i >= 0);
  if (known.length === 0) return out.map((_, i) => i / 25);
  const typicalStep = known.length > 1 ? (out[known.at(-1)!]! - out[known[0]!]!) / (known.at(-1)! - known[0]!) : 1 / 25;
  for (let i = 0; i < out.length; i++) {
    if (Number.isFinite(out[i])) continue;
    let j = i;
    while (j < out.length && !Number.isFinite(out[j])) j++;
    const before = i > 0 ? out[i - 1]! : null;
    const after = j < out.length ? out[j]! : null;
    for (let k = i; k < j; k++) {
      if (before !== null && after !== null) out[k] = before + ((after - before) * (k - i + 1)) / (j - i + 1);
      else if (before !== null) out[k] = before + typicalStep * (k - i + 1);
      else out[k] = Math.max(0, after! - typicalStep * (j - k));
    }
    i = j - 1;
  }
  return out;
}
