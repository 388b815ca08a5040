import { AppError } from '../../../src-shared/errors';

/** How a picture fits a frame of another shape: with bars, or cut to fill it. */
export const FIT_MODES = ['letterbox', 'center-crop'] as const;
export type FitMode = (typeof FIT_MODES)[number];

/** Where the picture sits inside an output frame, in output pixels. */
export interface ContentBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FitGeometry {
  /** Size the decoded picture is scaled to before padding or cropping. */
  scaledWidth: number;
  scaledHeight: number;
  outWidth: number;
  outHeight: number;
  /** Visible part of the picture in the output frame (letterbox: inside the bars; crop: all of it). */
  content: ContentBox;
  /** The ffmpeg filter chain that produces it (without pixel format). */
  filter: string;
}

function even(n: number): number {
  return Math.max(2, 2 * Math.round(n / 2));
}

/**
 * Display size of a source: coded size times the sample aspect ratio, so anamorphic footage
 * (SAR != 1, e.g. 176x144 at 128:117) is not squeezed. Width and height are the displayed
 * (already rotated) size, because ffmpeg autorotates before our filters run.
 */
export function displaySize(width: number, height: number, sar = 1): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new AppError('media', `source has no usable picture size (${width}x${height})`);
  const s = Number.isFinite(sar) && sar > 0 ? sar : 1;
  return { width: width * s, height };
}

/**
 * Geometry that maps a source of display size srcW x srcH into outW x outH. Explicit sizes are
 * computed here rather than with ffmpeg's force_original_aspect_ratio so that the content box is
 * known exactly (for video_kwargs and face coordinates) and SAR is honoured.
 */
export function fitGeometry(srcW: number, srcH: number, outW: number, outH: number, fit: FitMode): FitGeometry {
  if (fit === 'letterbox') {
    const f = Math.min(outW / srcW, outH / srcH);
    const w = Math.min(outW, even(srcW * f));
    const h = Math.min(outH, even(srcH * f));
    const x = Math.floor((outW - w) / 2);
    const y = Math.floor((outH - h) / 2);
    return {
      scaledWidth: w,
      scaledHeight: h,
      outWidth: outW,
      outHeight: outH,
      content: { x, y, width: w, height: h },
      filter: `scale=${w}:${h},setsar=1,pad=${outW}:${outH}:${x}:${y}:black`,
    };
  }
  const f = Math.max(outW / srcW, outH / srcH);
  const w = Math.max(outW, even(srcW * f));
  const h = Math.max(outH, even(srcH * f));
  const x = Math.floor((w - outW) / 2);
  const y = Math.floor((h - outH) / 2);
  return {
    scaledWidth: w,
    scaledHeight: h,
    outWidth: outW,
    outHeight: outH,
    content: { x: 0, y: 0, width: outW, height: outH },
    filter: `scale=${w}:${h},setsar=1,crop=${outW}:${outH}:${x}:${y}`,
  };
}

/**
 * Face-detector input: the long side scaled to `longSide`, padded right/bottom to multiples of 32
 * (YuNet's dynamic model needs that). The picture sits at the top-left, so a detection's pixel
 * coordinates divided by the content size are fractions of the source frame.
 */
export function detectorGeometry(srcW: number, srcH: number, longSide: number): FitGeometry {
  const f = longSide / Math.max(srcW, srcH);
  const w = even(srcW * f);
  const h = even(srcH * f);
  const outW = Math.ceil(w / 32) * 32;
  const outH = Math.ceil(h / 32) * 32;
  return {
    scaledWidth: w,
    scaledHeight: h,
    outWidth: outW,
    outHeight: outH,
    content: { x: 0, y: 0, width: w, height: h },
    filter: `scale=${w}:${h},setsar=1,pad=${outW}:${outH}:0:0:black`,
  };
}

/** The source scaled by `f`, aspect kept, even sides, no padding (motion and identity frames). */
function unpadded(srcW: number, srcH: number, f: number, scaleFlags: string): FitGeometry {
  const w = even(srcW * f);
  const h = even(srcH * f);
  return {
    scaledWidth: w,
    scaledHeight: h,
    outWidth: w,
    outHeight: h,
    content: { x: 0, y: 0, width: w, height: h },
    filter: `scale=${w}:${h}${scaleFlags},setsar=1`,
  };
}

/** Low-resolution gray frames for motion: aspect kept, long side `longSide`, no padding. */
export function motionGeometry(srcW: number, srcH: number, longSide: number): FitGeometry {
  return unpadded(srcW, srcH, longSide / Math.max(srcW, srcH), ':flags=area');
}

/** Frames to align faces from: aspect kept, long side `longSide` or the source's when smaller (never upscaled), no padding. */
export function identityGeometry(srcW: number, srcH: number, longSide: number): FitGeometry {
  return unpadded(srcW, srcH, Math.min(1, longSide / Math.max(srcW, srcH)), '');
}
