import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { ffPath } from './ffmpeg-locate';
import { jpegSize } from './jpeg-size';
import { runTool } from './run-process';

/** The per-shot posters and the filmstrip of a clip, made inside the clip's analysis decode. */
export interface StillsRequest {
  /** Frame indices (decode order from the start of the file, as shot detection counts) wanted as posters. */
  posterFrames: number[];
  /** Frame indices for the filmstrip sprite, left to right. */
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
  /** posterFrames[i] -> its image (a missing frame is replaced by the nearest one that decoded). */
  posters: RenderedImage[];
  strip: (RenderedImage & { frames: number; tileWidth: number; tileHeight: number }) | null;
}

export interface RenderOptions {
  signal?: AbortSignal;
  ffmpeg?: string;
}

/** Square pixels, then the requested width; height follows the displayed aspect, kept even for the encoder. */
function scaleTo(width: number): string {
  return `scale=trunc(iw*sar/2)*2:ih,setsar=1,scale=${width}:-2:flags=bicubic`;
}

function selectExpr(frames: number[]): string {
  return frames.map((n) => `eq(n\\,${n})`).join('+');
}

const sortedUnique = (frames: number[]) => [...new Set(frames)].sort((a, b) => a - b);

/**
 * The stills as branches of a decode's filter graph: each branch picks its exact frames by number
 * (one decode for every image, cheaper than a seek per image) and has ffmpeg write the JPEGs.
 * ffmpeg applies the display rotation before scaling, so portrait phone footage stays portrait.
 */
export function stillsBranches(req: StillsRequest): Array<{ filter: string; outputArgs: string[] }> {
  const posterFrames = sortedUnique(req.posterFrames);
  const stripFrames = sortedUnique(req.stripFrames);
  const out: Array<{ filter: string; outputArgs: string[] }> = [];
  if (posterFrames.length > 0) {
    out.push({
      filter: `select='${selectExpr(posterFrames)}',${scaleTo(req.posterWidth ?? 320)}`,
      outputArgs: ['-fps_mode', 'passthrough', '-q:v', '4', path.join(req.outDir, 'poster-%04d.jpg')],
    });
  }
  if (stripFrames.length > 0) {
    out.push({
      filter: `select='${selectExpr(stripFrames)}',${scaleTo(req.tileWidth ?? 160)},tile=${stripFrames.length}x1`,
      outputArgs: ['-frames:v', '1', '-q:v', '5', path.join(req.outDir, 'filmstrip.jpg')],
    });
  }
  return out;
}

/** Reads back what the branches wrote; a decode that produced no image at all is a media error. */
export function readStills(req: StillsRequest): RenderedStills {
  const posterFrames = sortedUnique(req.posterFrames);
  const stripFrames = sortedUnique(req.stripFrames);
  const posters: (RenderedImage | null)[] = posterFrames.map((_, i) => readImage(path.join(req.outDir, `poster-${String(i + 1).padStart(4, '0')}.jpg`)));
  const strip = stripFrames.length > 0 ? readImage(path.join(req.outDir, 'filmstrip.jpg')) : null;
  if (!posters.some(Boolean) && !strip) {
    throw new AppError('media', 'no frame could be decoded for thumbnails');
  }
  // A frame past a damaged tail never decodes: reuse the closest poster that did.
  const filled = posters.map((p, i) => p ?? nearest(posters, i));
  const byFrame = new Map(posterFrames.map((f, i) => [f, filled[i]!] as const));
  return {
    posters: req.posterFrames.map((f) => byFrame.get(f)).filter((p): p is RenderedImage => Boolean(p)),
    strip: strip
      ? { ...strip, frames: stripFrames.length, tileWidth: Math.round(strip.width / stripFrames.length), tileHeight: strip.height }
      : null,
  };
}

/**
 * One poster from a keyframe near `atS` (input seek without accurate seeking, non-key frames
 * skipped: ffmpeg decodes one keyframe only). Its time is read back from the showinfo filter.
 */
export async function renderKeyframePoster(
  file: string,
  atS: number,
  outDir: string,
  opts: RenderOptions & { width?: number } = {},
): Promise<RenderedImage & { timeS: number | null }> {
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, 'poster.jpg');
  // -skip_frame nokey: the decoder drops everything but keyframes, so it never decodes its way from
  // the keyframe to the seek point (0.23 s instead of 0.8 s for a 1080p clip here); one thread,
  // since frame threading holds the first picture back until several frames are in flight.
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'info', '-y', '-threads', '1', '-skip_frame', 'nokey', '-noaccurate_seek', '-ss', atS.toFixed(3), '-i', file];
  args.push('-map', '0:v:0', '-frames:v', '1', '-vf', `showinfo,${scaleTo(opts.width ?? 320)}`, '-q:v', '4', out);
  const res = await runTool(opts.ffmpeg ?? ffPath('ffmpeg'), args, { signal: opts.signal });
  const img = readImage(out);
  if (!img && atS > 0) return renderKeyframePoster(file, 0, outDir, opts);
  if (!img) throw new AppError('media', `no frame could be decoded for a poster: ${res.stderr.trim().split('\n').at(-1)?.slice(0, 200) ?? ''}`);
  // Input seeking shifts timestamps to the seek point: the keyframe before it has a negative pts.
  const pts = /pts_time:\s*(-?[0-9.]+)/.exec(res.stderr);
  return { ...img, timeS: pts ? atS + Number(pts[1]) : null };
}

function nearest(list: (RenderedImage | null)[], i: number): RenderedImage | null {
  for (let d = 1; d < list.length; d++) {
    const a = list[i - d];
    if (a) return a;
    const b = list[i + d];
    if (b) return b;
  }
  return null;
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
