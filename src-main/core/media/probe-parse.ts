import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import type { MediaInfo } from './media-info';

/** ffprobe prints numbers as strings in some fields and numbers in others, and "N/A" when unknown. */
const numLike = z.union([z.number(), z.string()]).optional();
const tags = z.record(z.string(), z.union([z.string(), z.number()])).optional();

const streamSchema = z.looseObject({
  index: z.number().optional(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  r_frame_rate: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  duration: numLike,
  nb_frames: numLike,
  channels: z.number().optional(),
  sample_rate: numLike,
  pix_fmt: z.string().optional(),
  sample_aspect_ratio: z.string().optional(),
  tags,
  disposition: z.record(z.string(), z.number()).optional(),
  side_data_list: z.array(z.looseObject({ side_data_type: z.string().optional(), rotation: numLike })).optional(),
});

const probeSchema = z.looseObject({
  streams: z.array(streamSchema).default([]),
  format: z
    .looseObject({
      format_name: z.string().optional(),
      duration: numLike,
      bit_rate: numLike,
      tags,
    })
    .optional(),
});

export type FfprobeJson = z.infer<typeof probeSchema>;
type Stream = z.infer<typeof streamSchema>;

function num(v: string | number | undefined): number | null {
  if (v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** "30000/1001" -> 29.97; "0/0" and garbage -> null. */
export function parseRate(r: string | undefined): number | null {
  if (!r) return null;
  const [a, b] = r.split('/');
  const n = Number(a);
  const d = b === undefined ? 1 : Number(b);
  if (!Number.isFinite(n) || !Number.isFinite(d) || n <= 0 || d <= 0) return null;
  return n / d;
}

/**
 * ffprobe's r_frame_rate is the smallest rate that represents every timestamp, avg_frame_rate is
 * frames / duration. On a constant-rate file they agree; phone footage and screen recordings drift
 * apart. Half a percent absorbs rounding in containers that store durations in milliseconds.
 */
export function isVariableFrameRate(rFrameRate: number | null, avgFrameRate: number | null): boolean {
  if (rFrameRate === null || avgFrameRate === null) return false;
  return Math.abs(rFrameRate - avgFrameRate) / Math.max(rFrameRate, avgFrameRate) > 0.005;
}

/**
 * The rate a variable-rate clip is counted at (conformed to the nearest standard one): the rate it
 * was shot at, not its average. A phone shooting "30 fps" drops to 20 in low light; counted at its
 * average (24) a fifth of its 30 fps pictures would fall between two frames and no frame would show
 * them, where a project at 30 shows each (NLEs take the stream's nominal rate too). ffprobe's
 * r_frame_rate is that rate when it is a camera's (at most twice the average and 120); a timestamp
 * clock's tick (1000, 90000 for some screen recorders) is not, and the average stands. What the
 * probe keeps only when the clip's first pictures show no camera's rate (nominalRateOfTimes, probe.ts).
 */
export function nominalRate(rFrameRate: number | null, avgFrameRate: number | null): number | null {
  if (avgFrameRate === null) return rFrameRate;
  if (rFrameRate !== null && rFrameRate > avgFrameRate && rFrameRate <= Math.min(120, 2 * avgFrameRate)) return rFrameRate;
  return avgFrameRate;
}

/** The pictures a VFR clip's nominal rate is read from (nominalRateOfTimes): the first ones, enough to find a stretch at the camera's rate. */
export const NOMINAL_RATE_PICTURES = 300;
/** Pictures' intervals averaged into one local rate: a phone's timestamps jitter by up to a few ms a picture. */
const RATE_WINDOW = 10;
/** How far a local rate may be from a standard one to count as it (the jitter left after averaging RATE_WINDOW intervals). */
const RATE_TOLERANCE = 0.02;
/** The rates cameras shoot at, grouped as a local rate cannot tell them apart (29.97 and 30 are 0.1% apart). */
const CAMERA_RATES: readonly (readonly number[])[] = [[24000 / 1001, 24], [25], [30000 / 1001, 30], [48], [50], [60000 / 1001, 60], [120]];

/**
 * The rate a variable-rate clip was shot at, read from its pictures' presentation times (s,
 * ascending), or null when they show none. A phone shooting "30 fps" stamps its pictures on a clock
 * of its own (1/90000, 1/600): ffprobe's r_frame_rate is then that clock's tick, not a rate, and the
 * average (24.19 for the test phone clip, 30 fps with jitter dropping to 20 in low light) names no
 * camera's rate; NLEs show such a clip at the rate it was shot at. Every window of RATE_WINDOW
 * intervals gives a local rate; the standard rates (CAMERA_RATES) within RATE_TOLERANCE of most
 * windows win (of the rates found, the faster on a tie; at least a quarter of the windows, else
 * null: no rate stands out), and within that group the one nearest the least-squares rate over the
 * longest stretch of its windows (a fit, not the stretch's ends, each of which jitters).
 */
export function nominalRateOfTimes(times: readonly number[]): number | null {
  const t = times.slice(0, NOMINAL_RATE_PICTURES);
  const windows = t.length - RATE_WINDOW;
  if (windows < 1) return null;
  const near = (rate: number, r: number) => Math.abs(rate / r - 1) <= RATE_TOLERANCE;
  const group = Array.from({ length: windows }, (_, k) => {
    const span = t[k + RATE_WINDOW]! - t[k]!;
    return span > 0 ? CAMERA_RATES.findIndex((g) => g.some((r) => near(RATE_WINDOW / span, r))) : -1;
  });
  const votes = CAMERA_RATES.map((_, g) => group.filter((x) => x === g).length);
  const best = votes.reduce((b, v, g) => (v >= votes[b]! ? g : b), 0);
  if (votes[best]! * 4 < windows) return null;
  // The longest run of windows in that group: the pictures [from, to] a line is fitted through.
  let [from, to, runFrom] = [0, -1, 0];
  group.forEach((x, k) => {
    if (x !== best) runFrom = k + 1;
    else if (k - runFrom > to - from) [from, to] = [runFrom, k];
  });
  const xs = Array.from({ length: to + RATE_WINDOW - from + 1 }, (_, i) => i);
  const ys = xs.map((i) => t[from + i]!);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const fitted = 1 / slope;
  return CAMERA_RATES[best]!.reduce((a, b) => (Math.abs(b - fitted) < Math.abs(a - fitted) ? b : a));
}

/** "128:117" -> 1.094; "0:1", "N/A", missing -> 1. */
function parseSar(s: string | undefined): number {
  if (!s) return 1;
  const [a, b] = s.split(':').map(Number);
  if (!a || !b || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return 1;
  return a / b;
}

/**
 * Display-matrix rotation (ffprobe reports it counter-clockwise) wins over the legacy `rotate`
 * tag (clockwise). Returned clockwise, snapped to a quarter turn.
 */
export function rotationOf(stream: Pick<Stream, 'side_data_list' | 'tags'>): number {
  const matrix = stream.side_data_list?.find((s) => s.rotation !== undefined && num(s.rotation) !== null);
  let cw: number | null = null;
  if (matrix) cw = -(num(matrix.rotation) ?? 0);
  else if (stream.tags?.rotate !== undefined) cw = num(stream.tags.rotate);
  if (cw === null) return 0;
  const snapped = Math.round(cw / 90) * 90;
  return ((snapped % 360) + 360) % 360;
}

const CONTAINER_BY_EXT: Record<string, string> = {
  mp4: 'mp4', m4v: 'mp4', mov: 'mov', qt: 'mov', '3gp': '3gp', '3g2': '3g2', mkv: 'matroska', webm: 'webm',
};

function containerName(formatName: string, file: string): string {
  const names = formatName.split(',');
  const byExt = CONTAINER_BY_EXT[path.extname(file).slice(1).toLowerCase()];
  if (byExt && names.includes(byExt)) return byExt;
  return names[0] ?? formatName;
}

function timecodeOf(json: FfprobeJson): string | null {
  const fromTags = (t: Record<string, string | number> | undefined) => {
    const v = t?.timecode;
    return typeof v === 'string' && /^\d{2}[:;.]\d{2}[:;.]\d{2}[:;.]\d{2,3}$/.test(v) ? v : null;
  };
  for (const s of json.streams) {
    const tc = fromTags(s.tags);
    if (tc) return tc;
  }
  return fromTags(json.format?.tags);
}

/** Tag names cameras and NLEs use for the reel (tape) a clip came from, most specific first. */
const REEL_TAGS = ['reel_name', 'tape_name', 'reel', 'tape'];

function reelNameOf(json: FfprobeJson): string | null {
  for (const t of [...json.streams.map((s) => s.tags), json.format?.tags]) {
    for (const key of REEL_TAGS) {
      const v = t?.[key];
      if (typeof v === 'string' && v.trim()) return v.trim();
    }
  }
  return null;
}

/** Cover art in audio files is a "video" stream flagged attached_pic: it is not footage. */
function isFootage(s: Stream): boolean {
  return s.codec_type === 'video' && s.disposition?.attached_pic !== 1;
}

/** Turns ffprobe's JSON into MediaInfo. Throws AppError('invalid') when the JSON is not ffprobe's. */
export function parseProbeJson(raw: unknown, file: string): MediaInfo {
  const parsed = probeSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('invalid', `unexpected ffprobe output: ${parsed.error.issues[0]?.message ?? 'shape'}`);
  const json = parsed.data;
  const video = json.streams.find(isFootage);
  const audioStreams = json.streams.filter((s) => s.codec_type === 'audio');
  const audio = audioStreams[0];
  const formatName = json.format?.format_name ?? 'unknown';

  const rotation = video ? rotationOf(video) : 0;
  const codedW = video?.width ?? null;
  const codedH = video?.height ?? null;
  const swap = rotation === 90 || rotation === 270;
  // SAR describes stored pixels; after a quarter turn it applies to the other axis.
  const storedSar = parseSar(video?.sample_aspect_ratio);
  const rRate = parseRate(video?.r_frame_rate);
  const avgRate = parseRate(video?.avg_frame_rate);
  const durationS = num(json.format?.duration) ?? num(video?.duration) ?? num(audio?.duration);
  const vfr = isVariableFrameRate(rRate, avgRate);
  const fps = vfr ? nominalRate(rRate, avgRate) : (avgRate ?? rRate);
  const nbFrames = num(video?.nb_frames);
  // The video's own length when the container does not count frames (Matroska, WebM): the
  // container's duration runs to the end of the longest stream, often the audio.
  const videoS = num(video?.duration) ?? durationS;
  const perSecond = avgRate ?? rRate;
  const frameCount = nbFrames ?? (perSecond && videoS ? Math.round(perSecond * videoS) : null);

  return {
    container: containerName(formatName, file),
    formatName,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    durationS: durationS !== null && durationS >= 0 ? durationS : null,
    fps,
    vfr,
    width: swap ? codedH : codedW,
    height: swap ? codedW : codedH,
    codedWidth: codedW,
    codedHeight: codedH,
    rotation,
    sar: swap ? 1 / storedSar : storedSar,
    audioChannels: audio?.channels ?? null,
    audioRate: num(audio?.sample_rate),
    audioLayout: audioStreams.map((s) => s.channels ?? 0).filter((n) => n > 0),
    reelName: reelNameOf(json),
    timecode: timecodeOf(json),
    bitRate: num(json.format?.bit_rate),
    frameCount: video ? frameCount : null,
    pixFmt: video?.pix_fmt ?? null,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
  };
}
