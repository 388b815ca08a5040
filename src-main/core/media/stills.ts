import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { lastToolLine, plainToolFailure } from './tool-words';
import { ffPath } from './ffmpeg-locate';
import { frameSync } from './frame-sync';
import { jpegSize } from './jpeg-size';
import { runTool } from './run-process';
import { gridFilter } from './frame-grid';

/**
 * The per-shot posters and the filmstrip of a clip, made inside the clip's one decode. That decode
 * also finds the shots, so it cannot know which frames the posters will be: it writes poster
 * candidates on a grid (frame k at k / posterFps s from the start of the file), and readStills
 * keeps, for each shot, the candidate nearest its middle.
 */
export interface StillsRequest {
  /** Poster candidates per second of footage. */
  posterFps: number;
  /** Frame indices (decode order from the start of the file) for the filmstrip sprite, left to right. */
  stripFrames: number[];
  outDir: string;
  posterWidth?: number;
  tileWidth?: number;
}

export interface RenderedImage {
  file: string;
  width: number;
  height: number;
}

export interface RenderedStills {
  /** One per span asked of readStills, with the time of the frame it shows (null: nothing decoded). */
  posters: Array<(RenderedImage & { timeS: number }) | null>;
  strip: (RenderedImage & { frames: number; tileWidth: number; tileHeight: number }) | null;
}

export interface RenderOptions {
  signal?: AbortSignal;
  ffmpeg?: string;
}

/**
 * Square pixels, then the requested width; height follows the displayed aspect, kept even for the
 * encoder. Area averaging: a still is a 6-12x reduction of the full picture, where swscale's
 * bicubic filter is four times as wide as the area one for a picture that looks the same; in the
 * clip's one decode the stills' scaling was the largest part of the work beyond decoding
 * (callgrind, a 2 s 1080p clip: the stills' branches took 0.31 G instructions with bicubic and
 * 0.17 G with area, of 2.33 G for the whole decode with every branch). Only pictures for people
 * are made here; what the analysis reads keeps its own scalers.
 */
function scaleTo(width: number): string {
  return `scale=trunc(iw*sar/2)*2:ih,setsar=1,scale=${width}:-2:flags=area`;
}

function selectExpr(frames: number[]): string {
  return frames.map((n) => `eq(n\\,${n})`).join('+');
}

const sortedUnique = (frames: number[]) => [...new Set(frames)].sort((a, b) => a - b);

const candidateFile = (req: StillsRequest, k: number) => path.join(req.outDir, `candidate-${String(k + 1).padStart(6, '0')}.jpg`);

/**
 * The stills as branches of a decode's filter graph, ffmpeg writing the JPEGs: the poster
 * candidates on their grid, and the filmstrip's exact frames picked by number (one decode for
 * every image, cheaper than a seek per image). ffmpeg applies the display rotation before
 * scaling, so portrait phone footage stays portrait.
 */
export function stillsBranches(req: StillsRequest): Array<{ filter: string; outputArgs: string[] }> {
  const stripFrames = sortedUnique(req.stripFrames);
  const out: Array<{ filter: string; outputArgs: string[] }> = [
    {
      filter: `${gridFilter(req.posterFps)},${scaleTo(req.posterWidth ?? 320)}`,
      outputArgs: ['-q:v', '4', path.join(req.outDir, 'candidate-%06d.jpg')],
    },
  ];
  if (stripFrames.length > 0) {
    out.push({
      filter: `select='${selectExpr(stripFrames)}',${scaleTo(req.tileWidth ?? 160)},tile=${stripFrames.length}x1`,
      outputArgs: ['-frames:v', '1', '-q:v', '5', path.join(req.outDir, 'filmstrip.jpg')],
    });
  }
  return out;
}

/**
 * Reads back what the branches wrote once the shots are known: for each span (a shot), the
 * candidate nearest its middle, preferring one inside it (a shot shorter than the candidate step
 * may hold none: it gets its neighbour's nearest frame). Candidates no span kept are deleted. A
 * decode that produced no image at all is a media error.
 */
export function readStills(req: StillsRequest, spans: ReadonlyArray<{ startS: number; endS: number }>): RenderedStills {
  const stripFrames = sortedUnique(req.stripFrames);
  const candidates = fs
    .readdirSync(req.outDir)
    .map((name) => /^candidate-(\d+)\.jpg$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]) - 1)
    .sort((a, b) => a - b);
  const timeOf = (k: number) => k / req.posterFps;
  const pick = (span: { startS: number; endS: number }): number | null => {
    const mid = (span.startS + span.endS) / 2;
    let best: number | null = null;
    let bestCost = Infinity;
    for (const k of candidates) {
      const t = timeOf(k);
      // Outside the span costs more than any distance inside it.
      const cost = Math.abs(t - mid) + (t >= span.startS - 1e-6 && t < span.endS - 1e-6 ? 0 : 1e6);
      if (cost < bestCost) [best, bestCost] = [k, cost];
    }
    return best;
  };
  const posters: RenderedStills['posters'] = [];
  const kept = new Set<number>();
  for (const span of spans) {
    const k = pick(span);
    const img = k === null ? null : readImage(candidateFile(req, k));
    if (k !== null && img) kept.add(k);
    posters.push(k !== null && img ? { ...img, timeS: timeOf(k) } : null);
  }
  for (const k of candidates) if (!kept.has(k)) fs.rmSync(candidateFile(req, k), { force: true });
  const strip = stripFrames.length > 0 ? readImage(path.join(req.outDir, 'filmstrip.jpg')) : null;
  if (!posters.some(Boolean) && !strip) {
    throw new AppError('media', 'no frame could be decoded for thumbnails');
  }
  return {
    posters,
    strip: strip
      ? { ...strip, frames: stripFrames.length, tileWidth: Math.round(strip.width / stripFrames.length), tileHeight: strip.height }
      : null,
  };
}

/**
 * ffmpeg's arguments for renderKeyframePoster. showinfo (whose log gives the frame's time) comes
 * after the scaling: in ffmpeg 4.1 it sums and checksums every pixel of the frame it sees, which on
 * a 1080p keyframe was a quarter of the poster process's instructions (callgrind: 328 M before
 * the scale, 251 M after it); the scale keeps the frame's timestamp, so the time read is the same.
 */
export function keyframePosterArgs(file: string, atS: number, out: string, width = 320): string[] {
  // -skip_frame nokey: the decoder drops everything but keyframes, so it never decodes its way from
  // the keyframe to the seek point (0.23 s instead of 0.8 s for a 1080p clip here); one thread,
  // since frame threading holds the first picture back until several frames are in flight.
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'info', '-y', '-threads', '1', '-skip_frame', 'nokey', '-noaccurate_seek', '-ss', atS.toFixed(3), '-i', file];
  // Passthrough: the keyframe before atS arrives with a negative timestamp, which the image
  // muxer's constant-rate sync drops; the JPEG was then the next keyframe (or, in a clip with one
  // keyframe, nothing, and a second ffmpeg from 0), while the time read below was the dropped one's.
  args.push('-map', '0:v:0', '-frames:v', '1', ...frameSync('passthrough'), '-vf', `${scaleTo(width)},showinfo`, '-q:v', '4', out);
  return args;
}

/**
 * One poster from the keyframe at or before `atS` (input seek without accurate seeking, non-key
 * frames skipped: ffmpeg decodes one keyframe only). Its time is read back from the showinfo
 * filter. A file whose seek finds nothing (a broken index) gets the first keyframe instead.
 */
export async function renderKeyframePoster(
  file: string,
  atS: number,
  outDir: string,
  opts: RenderOptions & { width?: number } = {},
): Promise<RenderedImage & { timeS: number | null }> {
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, 'poster.jpg');
  const res = await runTool(opts.ffmpeg ?? ffPath('ffmpeg'), keyframePosterArgs(file, atS, out, opts.width), { signal: opts.signal });
  const img = readImage(out);
  if (!img && atS > 0) return renderKeyframePoster(file, 0, outDir, opts);
  if (!img) throw new AppError('media', `no poster could be made: ${plainToolFailure(res.stderr)}`, { cause: new Error(lastToolLine(res.stderr, res.code)) });
  // Input seeking shifts timestamps to the seek point: the keyframe before it has a negative pts.
  const pts = /pts_time:\s*(-?[0-9.]+)/.exec(res.stderr);
  return { ...img, timeS: pts ? atS + Number(pts[1]) : null };
}

function readImage(file: string): RenderedImage | null {
  let buf: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      buf = Buffer.alloc(64 * 1024);
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      buf = buf.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const size = jpegSize(buf);
  return size ? { file, ...size } : null;
}

/**
 * A poster and a filmstrip from exact seeks, for a clip read through range requests (one that
 * lives at an address: decoding it through would download it whole). One ffmpeg with one input
 * per tile, each opened at its time, so only the bytes around those points (and the file's index)
 * are read; the tile at `posterTile` is also written at poster size. `inputArgs` go before every
 * -i (the relay's protocol and demuxer limits).
 */
export async function renderSeekStills(
  file: string,
  timesS: readonly number[],
  posterTile: number,
  outDir: string,
  opts: RenderOptions & { inputArgs?: readonly string[]; posterWidth?: number; tileWidth?: number } = {},
): Promise<RenderedStills> {
  if (timesS.length === 0 || posterTile < 0 || posterTile >= timesS.length) throw new AppError('internal', 'seek stills need times and a poster tile among them');
  fs.mkdirSync(outDir, { recursive: true });
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  for (const t of timesS) args.push(...(opts.inputArgs ?? []), '-ss', Math.max(0, t).toFixed(3), '-i', file);
  const graph: string[] = [];
  const tiles = timesS.map((_, k) => `t${k}`);
  timesS.forEach((_, k) => {
    const first = `[${k}:v:0]trim=end_frame=1,setpts=PTS-STARTPTS`;
    if (k !== posterTile) graph.push(`${first},${scaleTo(opts.tileWidth ?? 160)}[t${k}]`);
    else graph.push(`${first},split[pa][pb]`, `[pa]${scaleTo(opts.tileWidth ?? 160)}[t${k}]`, `[pb]${scaleTo(opts.posterWidth ?? 320)}[poster]`);
  });
  const strip = timesS.length > 1;
  graph.push(strip ? `${tiles.map((t) => `[${t}]`).join('')}hstack=inputs=${tiles.length}[strip]` : `[t0]nullsink`);
  const posterFile = path.join(outDir, 'poster.jpg');
  const stripFile = path.join(outDir, 'filmstrip.jpg');
  args.push('-filter_complex', graph.join(';'), '-map', '[poster]', '-frames:v', '1', '-q:v', '4', posterFile);
  if (strip) args.push('-map', '[strip]', '-frames:v', '1', '-q:v', '5', stripFile);
  const res = await runTool(opts.ffmpeg ?? ffPath('ffmpeg'), args, { signal: opts.signal });
  return readPosterAndStrip(outDir, res, strip ? timesS.length : 0, timesS[posterTile]!);
}

/** What renderSeekStills wrote: the poster (required) and the strip of `tiles` frames (0: none). */
function readPosterAndStrip(outDir: string, res: { code: number; stderr: string }, tiles: number, posterTimeS: number): RenderedStills {
  const poster = readImage(path.join(outDir, 'poster.jpg'));
  if (!poster) throw new AppError('media', `no poster could be made: ${plainToolFailure(res.stderr)}`, { cause: new Error(lastToolLine(res.stderr, res.code)) });
  const sprite = tiles > 0 ? readImage(path.join(outDir, 'filmstrip.jpg')) : null;
  return {
    posters: [{ ...poster, timeS: posterTimeS }],
    strip: sprite ? { ...sprite, frames: tiles, tileWidth: Math.round(sprite.width / tiles), tileHeight: sprite.height } : null,
  };
}
