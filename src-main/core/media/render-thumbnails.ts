import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import { ffPath } from './ffmpeg-locate';
import { jpegSize } from './jpeg-size';
import { runTool } from './run-process';

export interface ThumbnailRequest {
  /** Frame indices (decode order, as counted by shot detection) wanted as posters. */
  posterFrames: number[];
  /** Frame indices for the filmstrip sprite, left to right. */
  stripFrames: number[];
  posterWidth?: number;
  tileWidth?: number;
}

export interface RenderedImage {
  file: string;
  width: number;
  height: number;
}

export interface RenderedThumbnails {
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

/**
 * All posters and the filmstrip in one decode of the clip: the frame indices are exact (the same
 * decode order shot detection counted), and one process is cheaper than a seek per image.
 * ffmpeg applies the display rotation before scaling, so portrait phone footage stays portrait.
 */
export async function renderThumbnails(file: string, req: ThumbnailRequest, outDir: string, opts: RenderOptions = {}): Promise<RenderedThumbnails> {
  const posterWidth = req.posterWidth ?? 320;
  const tileWidth = req.tileWidth ?? 160;
  const posterFrames = [...new Set(req.posterFrames)].sort((a, b) => a - b);
  const stripFrames = [...new Set(req.stripFrames)].sort((a, b) => a - b);
  if (posterFrames.length === 0 && stripFrames.length === 0) return { posters: [], strip: null };
  fs.mkdirSync(outDir, { recursive: true });

  const graph: string[] = [];
  const outputs: string[] = [];
  const split = posterFrames.length > 0 && stripFrames.length > 0;
  const inP = split ? '[p0]' : '[0:v:0]';
  const inS = split ? '[s0]' : '[0:v:0]';
  if (split) graph.push('[0:v:0]split=2[p0][s0]');
  if (posterFrames.length > 0) {
    graph.push(`${inP}select='${selectExpr(posterFrames)}',${scaleTo(posterWidth)}[posters]`);
    outputs.push('-map', '[posters]', '-fps_mode', 'passthrough', '-q:v', '4', path.join(outDir, 'poster-%04d.jpg'));
  }
  if (stripFrames.length > 0) {
    graph.push(`${inS}select='${selectExpr(stripFrames)}',${scaleTo(tileWidth)},tile=${stripFrames.length}x1[strip]`);
    outputs.push('-map', '[strip]', '-frames:v', '1', '-q:v', '5', path.join(outDir, 'filmstrip.jpg'));
  }
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', file, '-filter_complex', graph.join(';'), ...outputs];
  const res = await runTool(opts.ffmpeg ?? ffPath('ffmpeg'), args, { signal: opts.signal });

  const posters: (RenderedImage | null)[] = posterFrames.map((_, i) => readImage(path.join(outDir, `poster-${String(i + 1).padStart(4, '0')}.jpg`)));
  const anyPoster = posters.some(Boolean);
  const strip = stripFrames.length > 0 ? readImage(path.join(outDir, 'filmstrip.jpg')) : null;
  if (!anyPoster && !strip) {
    const last = res.stderr.trim().split('\n').at(-1) ?? '';
    throw new AppError('media', `no frame could be decoded for thumbnails${last ? `: ${last.slice(0, 200)}` : ''}`);
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
