import { frameSync } from './frame-sync';
import { proxyEncoderArgs, type ProxyEncoder } from './proxy-encoder';

/**
 * A viewing proxy written by a further branch of a clip's one decode: the frames already decoded
 * for the analysis are also scaled and encoded, so no second decode of the original is made.
 * The proxy keeps every frame with its presentation time (`-vsync passthrough`: no frame added or
 * dropped, VFR kept), so frame k of the proxy is frame k of the original, and a position counted in
 * the original's frames is found in the proxy by the same number.
 */
export interface ProxyRequest {
  /** Where ffmpeg writes (a `.part` file the caller renames once the decode is over). */
  outFile: string;
  /** Picture height (square pixels, width follows the displayed aspect, kept even). */
  height: number;
  /** Video bitrate in kbit/s (a ceiling: x264's VBV keeps short peaks under 1.5x). */
  videoKbps: number;
  /** Keyframe interval in frames: short, so that frame steps and reverse play seek cheaply. */
  gop: number;
  /** The source's first audio stream, carried as it is or encoded (proxyAudio); null: no sound to carry. */
  audio: ProxyAudio;
  /** Encoder threads (the decode's share of the cores; x264's only, the others are off the CPU). */
  threads?: number;
  /** The H.264 encoder (proxy-encoder.ts: the platform's where it works, else x264). */
  encoder: ProxyEncoder;
  /** The source is variable-rate: the proxy counts time on its clock (proxy-encoder.ts `SOURCE_CLOCK`), not its average rate's. */
  vfr: boolean;
  /** The source's frame rate (a VFR source's, the one it was shot at): the encoder's budget pace on a VFR clock (proxyEncoderArgs). */
  fps: number | null;
  /** The picture encoded from the decoded frames, or the source's own packets copied (proxies/proxy-picture.ts says when). */
  picture: ProxyPicture;
}

/** How the proxy gets its picture: scaled and encoded, or the source's H.264 packets as they are. */
export type ProxyPicture = 'encode' | 'copy';

/** How the proxy carries the source's first audio stream. */
export type ProxyAudio = 'copy' | 'aac' | null;

/**
 * Mono or stereo AAC, what phones and most cameras record, is copied: no encode (and none of the
 * resampling and downmix before it), the one part of the proxy's cost that can go without a
 * change to what it holds. On a 20 s 1080p clip inside the full analysis decode (bundled ffmpeg
 * 4.1, one thread, a loaded machine) the copy saved 0.2-0.5 s of CPU of the proxy's ~3 s. Copied
 * packets keep their times and an MP4/MOV source's encoder delay (its edit list is written again), so sound starts
 * with the picture as in the original: a beep at 1 s began on the same sample (48001 at 48 kHz)
 * in MP4 and MOV originals and in their proxies, copied or encoded. Anything else (PCM, more
 * channels, other codecs) is encoded to stereo AAC, whose size the proxy's budget counts on.
 */
export function proxyAudio(codec: string | null, channels: number | null): ProxyAudio {
  if (codec === null) return null;
  return codec === 'aac' && channels !== null && channels <= 2 ? 'copy' : 'aac';
}

/** Defaults for a 540p proxy: ~1.5 Mbit/s picture + 128 kbit/s sound, about 0.7 GB an hour. */
export const PROXY_DEFAULTS = { height: 540, videoKbps: 1500, audioKbps: 128 } as const;

/**
 * Keyframe interval: a third of a second of frames (at least 4). Reverse play and steps backwards
 * seek to the keyframe before each picture and decode forward from it, so the interval bounds the
 * cost of every backward step; at 540p the extra keyframes cost ~10% in size at the same quality.
 */
export function proxyGop(fps: number | null): number {
  return Math.max(4, Math.round((fps && fps > 0 ? fps : 25) / 3));
}

/**
 * The branch's filter (from its split output) and its output options. One scale to square pixels
 * and the height at once (the width is the displayed one, `iw*sar`, at the new height, kept even),
 * never upscaled (`min(ih, height)`), 8-bit 4:2:0: the only H.264 Chromium and Electron decode
 * everywhere (10-bit and 4:2:2 are what the proxy replaces). Two scales (square pixels at full
 * size, then the height) made a full-size pass of every frame of a non-square source: on a 20 s
 * HDV-like 1440x1080 SAR 4:3 clip (bundled ffmpeg 4.1, one thread, CPU) the decode took 2.7 s,
 * with the two scales 4.4, with the one 3.4 (square pixels cost the same either way: scale passes
 * an unchanged frame through).
 * libx264 at `ultrafast` with a bitrate ceiling: the encoder is the proxy's largest cost, and on a
 * 1080p H.264 source (CPU of one thread, bundled ffmpeg 4.1) the decode alone took 0.5 s, with the
 * 540p scale 0.7-0.8, and with the encode 2.1 at `veryfast`, 1.5 at `superfast`, 1.3-1.4 at
 * `ultrafast` (before trellis was turned off as the preset has it: proxy-encoder.ts): a viewing
 * proxy at 1.5 Mbit/s stays watchable without CABAC and B-frames. A source that already is a
 * proxy's picture skips all of it: its packets are copied (proxies/proxy-picture.ts).
 * `+faststart` puts the index first so the player starts at once.
 */
export function proxyBranch(req: ProxyRequest): { filter: string | null; outputArgs: string[] } {
  // A copied picture takes no branch of the split: its packets go from the demuxer to the file.
  const filter = req.picture === 'copy' ? null : proxyPictureFilter(req.height);
  const args = req.picture === 'copy' ? ['-map', '0:v:0', '-c:v', 'copy'] : [...frameSync('passthrough'), ...proxyEncoderArgs(req.encoder, { ...req, vfr: req.vfr ? { rate: req.fps ? String(Number(req.fps.toFixed(6))) : null } : null })];
  if (req.audio === 'copy') args.push('-map', '0:a:0', '-c:a', 'copy');
  if (req.audio === 'aac') args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', `${PROXY_DEFAULTS.audioKbps}k`, '-ac', '2');
  args.push('-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', req.outFile);
  return { filter, outputArgs: args };
}


/**
 * The proxy's picture: square pixels at `height` (never upscaled), 8-bit 4:2:0 (see proxyBranch). Also
 * the preview stream's (proxies/range-stream-args.ts). Area averaging, not bilinear: swscale widens a
 * bilinear filter with the ratio, so a UHD source cost 0.6 s of scale per 200 frames against area's
 * 0.35 (bundled ffmpeg 4.1, one thread), and area's pictures were the closer to a Lanczos scale
 * (PSNR 53.5 against 48.7 dB from UHD, 54.4 against 53.2 from 1080p, 41.8 against 39.8 from 720p).
 * swscale upscales (an anamorphic source's width) bilinearly under either flag.
 */
export function proxyPictureFilter(height: number): string {
  return `scale='trunc(iw*sar*oh/ih/2)*2':'trunc(min(ih,${height})/2)*2':flags=area,setsar=1,format=yuv420p`;
}
