import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { killChild, spawnTool, toolStartFailure } from '../media/run-process';

/**
 * The proxy sent in place of a large or non-mp4/mov original: H.264 (yuv420p, so every decoder
 * takes it) and AAC in an mp4 with the index at the front, at most 720 lines high. Small enough to
 * go under the direct-upload limit for hours of footage, sharp enough for a video model.
 */
export const PROXY_ARGS: readonly string[] = [
  '-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn',
  '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p',
  // Even height: yuv420p needs it, and min(720,ih) alone keeps an odd source height.
  '-vf', "scale=-2:'min(720,trunc(ih/2)*2)'",
  '-c:a', 'aac', '-b:a', '96k',
  '-movflags', '+faststart',
  '-max_muxing_queue_size', '1024',
];

export interface ProxyJob {
  ffmpeg: string;
  input: string;
  /** Final path; written under a temporary name and renamed, so an existing file is always whole. */
  output: string;
  /** Source duration, for progress; without it progress stays unknown. */
  durationS: number | null;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/** Reads ffmpeg's `-progress` key=value stream: out_time_us (older builds spell it out_time_ms, also in µs). */
export function progressParser(durationS: number | null, onProgress?: (fraction: number) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_(?:us|ms)=(\d+)/.exec(line.trim());
      if (m && durationS && durationS > 0) onProgress?.(Math.min(1, Number(m[1]) / 1e6 / durationS));
      if (line.trim() === 'progress=end') onProgress?.(1);
    }
  };
}

/** The last meaningful stderr line: what an editor sees when the transcode fails. */
export function ffmpegFailureReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^(frame=|size=|Press \[q\])/.test(l));
  const last = lines.at(-1) ?? 'no message';
  return last.slice(0, 300);
}

/**
 * Transcodes one proxy. Cancelling the signal kills ffmpeg and removes the partial file; a failure
 * is AppError('media') with ffmpeg's reason.
 */
export async function transcodeProxy(job: ProxyJob): Promise<void> {
  fs.mkdirSync(path.dirname(job.output), { recursive: true });
  const partial = `${job.output}.partial-${process.pid}.mp4`;
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-i', job.input, ...PROXY_ARGS, '-progress', 'pipe:1', '-nostats', '-f', 'mp4', partial];
  const child = spawnTool(job.ffmpeg, args, job.signal);
  const parse = progressParser(job.durationS, job.onProgress);
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (c: string) => parse(c));
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-16_384);
  });
  child.stdin!.end();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (e: NodeJS.ErrnoException) => reject(toolStartFailure(job.ffmpeg, e)));
    child.once('close', (c) => resolve(c));
  }).catch((e: unknown) => {
    killChild(child);
    fs.rmSync(partial, { force: true });
    throw e;
  });
  if (job.signal?.aborted) {
    fs.rmSync(partial, { force: true });
    throw new AppError('cancelled', 'proxy transcode cancelled');
  }
  if (code !== 0) {
    fs.rmSync(partial, { force: true });
    throw new AppError('media', `could not transcode a proxy of ${path.basename(job.input)}: ${ffmpegFailureReason(stderr)}`);
  }
  fs.renameSync(partial, job.output);
}
