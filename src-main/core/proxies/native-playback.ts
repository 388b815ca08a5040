/**
 * Whether the viewer's player (Chromium's <video>, so Electron's too) can show a clip from its own
 * file. Chromium decodes H.264 only in 8-bit 4:2:0 (High 10, 4:2:2 and 4:4:4 profiles, i.e. most
 * XAVC-I and AVC-Intra, fail), VP8, VP9 (profile 0), AV1 and Theora; it does not decode ProRes,
 * DNxHD/DNxHR, MPEG-2 (XDCAM, IMX), MJPEG, DV or CineForm at all, and HEVC only where the platform
 * lends a hardware decoder, which a desktop app cannot count on. Its demuxers read MP4/MOV,
 * WebM/Matroska, Ogg and WAV: MXF, AVI, MPEG-TS and MPEG-PS files do not open. An unknown fact is
 * a "no": a proxy plays everywhere, a black picture helps nobody.
 */
export interface PlaybackFacts {
  container: string | null;
  videoCodec: string | null;
  pixFmt: string | null;
  audioCodec: string | null;
}

export type NativePlayback = { ok: true } | { ok: false; why: string };

const CONTAINERS = new Set(['mp4', 'mov', 'm4v', 'webm', 'matroska', 'ogg']);
const EIGHT_BIT_420 = new Set(['yuv420p', 'yuvj420p', 'nv12']);
/** Codecs Chromium decodes in software, each with the pixel formats it takes. */
const VIDEO: Record<string, (pix: string) => boolean> = {
  h264: (p) => EIGHT_BIT_420.has(p),
  vp8: (p) => EIGHT_BIT_420.has(p) || p === 'yuva420p',
  vp9: (p) => EIGHT_BIT_420.has(p) || p === 'yuva420p',
  av1: (p) => EIGHT_BIT_420.has(p) || p === 'yuv420p10le',
  theora: (p) => EIGHT_BIT_420.has(p),
};
/** Sound Chromium decodes; another codec (AC-3 in a camera's MOV, say) plays silent. */
const AUDIO = new Set(['aac', 'mp3', 'opus', 'vorbis', 'flac', 'pcm_s16le', 'pcm_s24le', 'pcm_f32le', 'pcm_u8', 'pcm_mulaw', 'pcm_alaw']);

/** Codec names as an editor reads them, for the reason shown. */
const LABELS: Record<string, string> = {
  prores: 'ProRes', dnxhd: 'DNxHD/DNxHR', mpeg2video: 'MPEG-2', mjpeg: 'Motion JPEG', hevc: 'HEVC', dvvideo: 'DV', cfhd: 'CineForm', h264: 'H.264',
};

export function nativePlayback(f: PlaybackFacts): NativePlayback {
  const container = (f.container ?? '').toLowerCase();
  if (!CONTAINERS.has(container)) return { ok: false, why: `the player cannot open ${f.container ? `${f.container.toUpperCase()} files` : 'this container'}` };
  const codec = (f.videoCodec ?? '').toLowerCase();
  const takes = VIDEO[codec];
  const label = LABELS[codec] ?? f.videoCodec ?? 'this picture codec';
  if (!takes) return { ok: false, why: `the player does not decode ${label}` };
  if (!takes((f.pixFmt ?? '').toLowerCase())) return { ok: false, why: `the player does not decode ${label} in ${f.pixFmt ?? 'this pixel format'}` };
  if (f.audioCodec && !AUDIO.has(f.audioCodec.toLowerCase())) return { ok: false, why: `the player does not decode its ${f.audioCodec} sound` };
  return { ok: true };
}
