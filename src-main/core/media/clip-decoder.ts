import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { AppError } from '../../../src-shared/errors';
import { ffPath } from './ffmpeg-locate';
import { frameSync } from './frame-sync';
import { killChild, spawnTool, toolStartFailure } from './run-process';
import { proxyBranch, type ProxyRequest } from './proxy-branch';
import { stillsBranches, type StillsRequest } from './stills';
import type { FitGeometry } from './frame-geometry';
import { gridFilter } from './frame-grid';

export type PixelFormat = 'rgb24' | 'bgr24' | 'gray' | 'yuv420p';

/** One raw video output of the decoder: a frame rate and a geometry of its own. */
export interface VideoOutput {
  name: string;
  /**
   * Frames per second on the grid from startS, or 'every' for every decoded frame as it is
   * (variable frame rate kept; their presentation times come back in DecodeResult.frameTimes).
   */
  fps: number | 'every';
  geometry: Pick<FitGeometry, 'outWidth' | 'outHeight' | 'filter'>;
  pixFmt: PixelFormat;
}

export interface DecodeResult {
  /** Presentation times (seconds from startS) of the 'every' output's frames; empty without one. */
  frameTimes: number[];
}

export interface DecodeRequest {
  filePath: string;
  /** Options before -i (a remote clip's relay: remote/remote-input.ts). */
  inputArgs?: readonly string[];
  /** Seconds from the start of the file; output times are startS + i / fps. */
  startS: number;
  durationS?: number;
  outputs: VideoOutput[];
  /** Mono float32 PCM at this rate as a further output; null for none (or no audio stream). */
  audioRate: number | null;
  /** Posters and filmstrip written as JPEGs by further branches of the same decode (frame numbers count from the decode's start). */
  stills?: StillsRequest;
  /** A viewing proxy written by a further branch of the same decode (media/proxy-branch.ts). */
  proxy?: ProxyRequest;
  /** Stop each video output after this many frames (single-frame seeks). */
  maxFramesPerOutput?: number;
  /** Threads of the decoder and of the filter graph (decodeThreads); absent: ffmpeg's own choice for each. */
  threads?: number;
  ffmpegPath?: string;
  signal?: AbortSignal;
}

export interface DecodeSinks {
  /**
   * A buffer per frame that owns its ArrayBuffer (it can be kept or transferred): a new one, or one
   * given back with ClipDecoder.reuse.
   */
  onFrame: (output: number, frame: Uint8Array, index: number) => void;
  /** Consecutive samples; sample 0 of the stream is at startS. */
  onAudio: (samples: Float32Array) => void;
}

/** yuv420p: a full-size Y plane and quarter-size U and V (even sizes only). */
const BYTES_PER_PIXEL: Record<PixelFormat, number> = { rgb24: 3, bgr24: 3, gray: 1, yuv420p: 1.5 };

function frameBytes(o: VideoOutput): number {
  return o.geometry.outWidth * o.geometry.outHeight * BYTES_PER_PIXEL[o.pixFmt];
}

/** Buffers kept per output for reuse: the frames of a few batches in flight. */
const SPARE_FRAMES = 8;

/**
 * Threads for a decode that shares the machine with `decodesAtOnce - 1` others: the cores split
 * between them, at least one; it sets the decoder's and the filter graph's threads (the JPEG
 * encoders of the stills keep their own). ffmpeg's own choice (cores + 1 decoder threads, a filter
 * thread per core) for each of three decodes on 2 cores cost 15% more CPU than one thread each on
 * the 60-clip bench card, for the same frames; a decode alone still gets every core.
 */
export function decodeThreads(cores: number, decodesAtOnce: number): number {
  return Math.max(1, Math.floor(cores / Math.max(1, decodesAtOnce)));
}

/**
 * The first frame of each output at `atS`: an exact seek (decoded from the keyframe before it)
 * that stops after one frame, for a span too short to hold a sample of the frame grid. Null for an
 * output with nothing decodable there (past the end of the stream).
 */
export async function firstFramesAt(
  filePath: string,
  atS: number,
  outputs: VideoOutput[],
  opts: { ffmpegPath?: string; signal?: AbortSignal; inputArgs?: readonly string[] } = {},
): Promise<Array<Uint8Array | null>> {
  const got: Array<Uint8Array | null> = outputs.map(() => null);
  const slowest = Math.min(...outputs.map((o) => (o.fps === 'every' ? 25 : o.fps)));
  await new ClipDecoder(
    { filePath, inputArgs: opts.inputArgs, startS: atS, durationS: Math.max(0.5, 2 / slowest), outputs, audioRate: null, maxFramesPerOutput: 1, ffmpegPath: opts.ffmpegPath, signal: opts.signal },
    { onFrame: (o, frame) => void (got[o] ??= frame), onAudio: () => {} },
  ).run();
  return got;
}

/**
 * ffmpeg arguments for one decode that feeds every consumer: the source is decoded once, split,
 * and each branch is rate-reduced first (fps before scale: only kept frames are scaled), then
 * scaled to its own size. Each branch goes to its own pipe as raw pixels; audio goes to the last
 * pipe as f32le. Pipe numbers follow the child's stdio: 1, then 3, 4, ... The 'every' output
 * passes frames through unchanged in number and timing; showinfo logs their times (hence the
 * info log level, with level tags so errors can still be told apart).
 */
export function buildDecodeArgs(req: DecodeRequest): { args: string[]; fds: number[]; audioFd: number | null } {
  if (req.outputs.length === 0 && !req.proxy) throw new AppError('internal', 'decode needs at least one video output');
  if (req.outputs.filter((o) => o.fps === 'every').length > 1) throw new AppError('internal', "at most one 'every' output per decode");
  const timed = req.outputs.some((o) => o.fps === 'every');
  const fds = req.outputs.map((_, i) => (i === 0 ? 1 : i + 2));
  const audioFd = req.audioRate ? req.outputs.length + 2 : null;
  const threads = String(req.threads ?? 0);
  const args = ['-hide_banner', '-nostdin', '-nostats', '-y', '-loglevel', timed ? 'level+info' : 'level+error', '-threads', threads, '-filter_complex_threads', threads];
  // Input seeking: fast (from the keyframe before), exact (frames before the point are decoded
  // and dropped), and output timestamps restart at 0 = startS.
  if (req.startS > 0) args.push('-ss', req.startS.toFixed(3));
  if (req.durationS !== undefined) args.push('-t', Math.max(0.001, req.durationS).toFixed(3));
  args.push(...(req.inputArgs ?? []), '-i', req.filePath);
  const stills = req.stills ? stillsBranches(req.stills) : [];
  const proxy = req.proxy ? proxyBranch(req.proxy) : null;
  const n = req.outputs.length + stills.length + (proxy?.filter ? 1 : 0);
  const labels = req.outputs.map((_, i) => `v${i}`);
  const branches = req.outputs.map((o, i) =>
    o.fps === 'every' ? `[s${i}]${o.geometry.filter},format=${o.pixFmt},showinfo[${labels[i]}]` : `[s${i}]${gridFilter(o.fps)},${o.geometry.filter},format=${o.pixFmt}[${labels[i]}]`,
  );
  stills.forEach((b, i) => branches.push(`[s${req.outputs.length + i}]${b.filter}[j${i}]`));
  if (proxy?.filter) branches.push(`[s${n - 1}]${proxy.filter}[p0]`);
  const split = n === 1 ? '[0:v:0]null[s0]' : `[0:v:0]split=${n}${Array.from({ length: n }, (_, i) => `[s${i}]`).join('')}`;
  // A copied proxy alone (the proxy stage's remux) decodes nothing: no filter graph.
  if (n > 0) args.push('-filter_complex', [split, ...branches].join(';'));
  req.outputs.forEach((o, i) => {
    args.push('-map', `[${labels[i]}]`);
    if (req.maxFramesPerOutput) args.push('-frames:v', String(req.maxFramesPerOutput));
    if (o.fps === 'every') args.push(...frameSync('passthrough'));
    args.push('-f', 'rawvideo', '-pix_fmt', o.pixFmt, `pipe:${fds[i]}`);
  });
  stills.forEach((b, i) => args.push('-map', `[j${i}]`, ...b.outputArgs));
  if (proxy) args.push(...(proxy.filter ? ['-map', '[p0]'] : []), ...proxy.outputArgs);
  if (audioFd !== null) {
    args.push('-map', '0:a:0', '-ac', '1', '-ar', String(req.audioRate), '-c:a', 'pcm_f32le', '-f', 'f32le', `pipe:${audioFd}`);
  }
  return { args, fds, audioFd };
}

/**
 * One ffmpeg process per decode, several outputs read concurrently. pause()/resume() stop all
 * pipes together: ffmpeg then blocks on its next write, which is the backpressure when analysis
 * falls behind decoding. The returned promise settles when ffmpeg has exited and every pipe has
 * been drained.
 */
export class ClipDecoder {
  private child: ChildProcess | null = null;
  private readonly streams: Readable[] = [];
  private paused = false;
  /** Frames delivered per output. */
  private readonly counts: number[] = [];
  /** Per output, buffers given back (reuse) for its next frames. */
  private readonly spare: Uint8Array[][] = [];

  constructor(
    private readonly req: DecodeRequest,
    private readonly sinks: DecodeSinks,
  ) {}

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    for (const s of this.streams) s.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const s of this.streams) s.resume();
  }

  /**
   * Gives back a frame of output `o` its reader is done with (nothing else holds it): a later frame of
   * that output is read into it. A frame of the identity output is ~0.8 MB at 1 fps per clip; each new
   * one is fresh memory from the system, zeroed and faulted in, then garbage to collect, where a
   * reused one costs nothing. At most SPARE_FRAMES are kept per output.
   */
  reuse(o: number, frame: Uint8Array): void {
    const out = this.req.outputs[o];
    if (!out || frame.byteLength !== frameBytes(out) || frame.byteLength !== frame.buffer.byteLength) return;
    const spare = (this.spare[o] ??= []);
    if (spare.length < SPARE_FRAMES) spare.push(frame);
  }

  run(): Promise<DecodeResult> {
    const { args, fds, audioFd } = buildDecodeArgs(this.req);
    if (this.req.stills) fs.mkdirSync(this.req.stills.outDir, { recursive: true });
    const bin = this.req.ffmpegPath ?? ffPath('ffmpeg');
    const maxFd = Math.max(2, ...fds, audioFd ?? 0);
    const stdio: Array<'ignore' | 'pipe'> = Array.from({ length: maxFd + 1 }, (_, i) => (i === 0 ? 'ignore' : 'pipe'));
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawnTool(bin, args, this.req.signal, { stdio });
      } catch (e) {
        reject(e);
        return;
      }
      this.child = child;
      let failure: unknown = null;
      const log = new DecodeLog();
      const fail = (e: unknown) => {
        if (!failure) failure = e;
        killChild(child);
      };

      this.req.outputs.forEach((o, i) => {
        const stream = child.stdio[fds[i]!] as Readable;
        const size = frameBytes(o);
        // Taken when the frame's first bytes come, so a frame given back meanwhile is read into.
        let frame: Uint8Array | null = null;
        let filled = 0;
        let index = 0;
        stream.on('data', (chunk: Buffer) => {
          if (failure) return;
          let off = 0;
          while (off < chunk.length) {
            const take = Math.min(size - filled, chunk.length - off);
            frame ??= this.spare[i]?.pop() ?? new Uint8Array(size);
            frame.set(chunk.subarray(off, off + take), filled);
            filled += take;
            off += take;
            if (filled === size) {
              const done = frame;
              frame = null;
              filled = 0;
              this.counts[i] = index + 1;
              try {
                this.sinks.onFrame(i, done, index++);
              } catch (e) {
                fail(e);
                return;
              }
            }
          }
        });
        this.streams.push(stream);
      });

      if (audioFd !== null) {
        const stream = child.stdio[audioFd] as Readable;
        let carry: Buffer | null = null;
        stream.on('data', (chunk: Buffer) => {
          if (failure) return;
          const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
          const whole = buf.length - (buf.length % 4);
          carry = whole < buf.length ? Buffer.from(buf.subarray(whole)) : null;
          if (whole === 0) return;
          // f32le is little-endian by definition; DataView reads it right on any host.
          const view = new DataView(buf.buffer, buf.byteOffset, whole);
          const samples = new Float32Array(whole / 4);
          for (let k = 0; k < samples.length; k++) samples[k] = view.getFloat32(k * 4, true);
          try {
            this.sinks.onAudio(samples);
          } catch (e) {
            fail(e);
          }
        });
        this.streams.push(stream);
      }

      child.stderr!.on('data', (c: Buffer) => log.push(c.toString('utf8')));
      child.once('error', (err: NodeJS.ErrnoException) => {
        failure = failure ?? toolStartFailure(bin, err);
      });
      child.once('close', (code) => {
        this.child = null;
        if (this.req.signal?.aborted) return reject(new AppError('cancelled', 'analysis cancelled'));
        if (failure) return reject(failure);
        log.end();
        const everyFrames = this.counts[this.req.outputs.findIndex((o) => o.fps === 'every')] ?? 0;
        // A damaged tail can make ffmpeg exit non-zero after good frames: an 'every' output keeps what decoded.
        if (code !== 0 && !(everyFrames > 0)) {
          const last = log.lastError() ?? `exit code ${code}`;
          return reject(new AppError('media', `decoding ${this.req.filePath} failed: ${last.slice(0, 300)}`));
        }
        resolve({ frameTimes: fillMissingTimes(Array.from({ length: everyFrames }, (_, k) => log.times[k] ?? Number.NaN)) });
      });
    });
  }

  /** Ends the decode early (the caller has what it needs); run() then rejects unless already done. */
  kill(): void {
    if (this.child) killChild(this.child);
  }
}

const SHOWINFO_RE = /\bn:\s*(\d+)\s+pts:\s*(-?\d+)\s+pts_time:(-?[\d.]+)/;
const TIME_BASE_RE = /\bconfig in time_base:\s*(\d+)\/(\d+)/;
const ERROR_RE = /\[(error|fatal|panic)\] /;

/** ffmpeg's log (level-tagged lines): showinfo's frame times, and the last error for the message. */
class DecodeLog {
  readonly times: number[] = [];
  private timeBase: [number, number] | null = null;
  private partial = '';
  private last: string | null = null;

  push(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  lastError(): string | null {
    return this.last;
  }

  /**
   * A frame's time from its integer pts and the filter's time base, not from pts_time: showinfo
   * prints that with six significant digits (frame 221 at 24 fps, 9.208333 s, reads "9.20833"),
   * which put a shot's first frame on the frame before it in every later count.
   */
  private line(line: string): void {
    const m = SHOWINFO_RE.exec(line);
    if (m) {
      this.times[Number(m[1])] = this.timeBase ? (Number(m[2]) * this.timeBase[0]) / this.timeBase[1] : Number(m[3]);
      return;
    }
    const tb = TIME_BASE_RE.exec(line);
    if (tb && Number(tb[1]) > 0 && Number(tb[2]) > 0) this.timeBase = [Number(tb[1]), Number(tb[2])];
    else if (ERROR_RE.test(line)) this.last = line.replace(ERROR_RE, '').trim();
  }
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
