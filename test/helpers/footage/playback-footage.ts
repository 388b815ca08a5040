import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fps, parseRational, type FrameRate } from '../../../src-shared/timecode';
import { footageFfmpeg } from './footage-ffmpeg';
import { FRAME_PATTERN_LAYOUT, framePatternGeqExpr } from './frame-pattern';

/**
 * Playback test footage (issue 37): the codecs and rates an editor's cards hold, each clip with its
 * frame number burnt into the top band as the pattern of frame-pattern.ts (and as text below it for
 * screenshots), so a test can tell which frame a player presents. Made by the system's ffmpeg
 * (footageFfmpeg: the bundled 4.1 lacks -fps_mode and some encoders' profiles), a few seconds each.
 */

/** What ffprobe must report for a clip: the test of this module checks it, so a clip is what it says. */
export interface PlaybackProbe {
  codec: string;
  profile: string;
  pixFmt: string;
  /** ffprobe's format_name. */
  format: string;
  /** The major brand for ISO media ('qt  ' for QuickTime .mov, 'isom' for .mp4). */
  brand?: string;
}

export interface PlaybackClip {
  /** Stable id: 'prores-hq', 'h264-2997df'... */
  name: string;
  file: string;
  /** For test titles and the text burnt into the picture. */
  label: string;
  width: number;
  height: number;
  /** The frame rate; for a VFR clip its nominal rate (what the frames average towards). */
  rate: FrameRate;
  frames: number;
  dropFrame: boolean;
  /** The container's start timecode as ffprobe reads it, or null when the file has none. */
  startTimecode: string | null;
  vfr: boolean;
  /** Each frame's presentation time in seconds, for a VFR clip; null for a constant-rate one. */
  ptsSeconds: number[] | null;
  /** The audio codec (a sine), or null when the clip has no audio. */
  audio: string | null;
  probe: PlaybackProbe;
}

interface Spec extends Omit<PlaybackClip, 'file' | 'rate' | 'ptsSeconds' | 'dropFrame'> {
  ext: 'mov' | 'mp4' | 'mxf' | 'avi';
  rate: string;
  video: string[];
  audioArgs?: string[];
}

const MOV: Pick<PlaybackProbe, 'format' | 'brand'> = { format: 'mov,mp4,m4a,3gp,3g2,mj2', brand: 'qt  ' };
const MP4: Pick<PlaybackProbe, 'format' | 'brand'> = { format: 'mov,mp4,m4a,3gp,3g2,mj2', brand: 'isom' };
const PCM24 = ['-c:a', 'pcm_s24le'];
const AAC = ['-c:a', 'aac', '-b:a', '64k'];
// The mxf muxer writes one audio track per channel and wants 48 kHz PCM; mono keeps it one track.
const MXF_AUDIO = ['-c:a', 'pcm_s24le', '-ac', '1'];
const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '30'];
// Intra codecs at 640x360 run 3-4 MB a second; 480x270 keeps them near 5 MB a clip.
const SMALL = { width: 480, height: 270 };
const SD = { width: 640, height: 360 };

/** The VFR clip's timestamps (1/90000 s): a phone at 30 fps with jitter that drops to 20 fps in low light half way. */
const VFR_TICKS = 90000;
// Two interleaved jitters give four frame durations (2300-3700 ticks), each at least 2300: the times only rise.
const VFR_PTS = {
  ffmpeg: '3000*N+1500*max(0,N-45)+200*mod(N*7,5)+100*mod(N*3,4)',
  js: (n: number) => 3000 * n + 1500 * Math.max(0, n - 45) + 200 * ((n * 7) % 5) + 100 * ((n * 3) % 4),
};

const SPECS: Spec[] = [
  { name: 'prores-hq', label: 'ProRes 422 HQ', ext: 'mov', ...SMALL, rate: '24000/1001', frames: 72, startTimecode: '01:00:00:00', vfr: false, audio: 'pcm_s24le',
    video: ['-c:v', 'prores_ks', '-profile:v', '3', '-vendor', 'apl0', '-pix_fmt', 'yuv422p10le'], audioArgs: PCM24,
    probe: { codec: 'prores', profile: 'HQ', pixFmt: 'yuv422p10le', ...MOV } },
  { name: 'dnxhr-hq', label: 'DNxHR HQ MXF', ext: 'mxf', ...SMALL, rate: '25', frames: 75, startTimecode: '10:00:00:00', vfr: false, audio: 'pcm_s24le',
    video: ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', 'yuv422p'], audioArgs: MXF_AUDIO,
    probe: { codec: 'dnxhd', profile: 'DNXHR HQ', pixFmt: 'yuv422p', format: 'mxf' } },
  { name: 'h264-422-10bit', label: 'H.264 10-bit 4:2:2', ext: 'mov', ...SD, rate: '24', frames: 72, startTimecode: '02:00:00:00', vfr: false, audio: 'pcm_s24le',
    video: [...X264, '-pix_fmt', 'yuv422p10le', '-profile:v', 'high422'], audioArgs: PCM24,
    probe: { codec: 'h264', profile: 'High 4:2:2', pixFmt: 'yuv422p10le', ...MOV } },
  // Main 10 in hvc1 boxes: what mirrorless cameras and phones record, and the tag Apple's players need.
  { name: 'hevc-main10', label: 'HEVC Main 10', ext: 'mp4', ...SD, rate: '30000/1001', frames: 90, startTimecode: null, vfr: false, audio: 'aac',
    video: ['-c:v', 'libx265', '-preset', 'veryfast', '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1', '-x265-params', 'log-level=error:keyint=30'], audioArgs: AAC,
    probe: { codec: 'hevc', profile: 'Main 10', pixFmt: 'yuv420p10le', ...MP4 } },
  // XDCAM-like long-GOP MPEG-2 4:2:2 in MXF OP1a (IMX/D-10 would need 720x608 and a fixed 50 Mb/s).
  // Fixed closed GOPs as a camera writes them: with the encoder's scene-cut GOPs, ffmpeg 5.1's mxf
  // index loses the last frames (71 of 75 read back: "TemporalOffset ... out of bounds").
  { name: 'mpeg2-422-mxf', label: 'MPEG-2 4:2:2 MXF', ext: 'mxf', ...SD, rate: '25', frames: 75, startTimecode: '11:00:00:00', vfr: false, audio: 'pcm_s24le',
    video: ['-c:v', 'mpeg2video', '-pix_fmt', 'yuv422p', '-b:v', '8M', '-maxrate', '8M', '-bufsize', '4M', '-g', '12', '-bf', '2', '-flags', '+cgop', '-sc_threshold', '1000000000'], audioArgs: MXF_AUDIO,
    probe: { codec: 'mpeg2video', profile: '4:2:2', pixFmt: 'yuv422p', format: 'mxf' } },
  { name: 'mjpeg-avi', label: 'MJPEG AVI', ext: 'avi', ...SD, rate: '30', frames: 90, startTimecode: null, vfr: false, audio: 'pcm_s16le',
    video: ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj422p', '-q:v', '3'], audioArgs: ['-c:a', 'pcm_s16le'],
    probe: { codec: 'mjpeg', profile: 'Baseline', pixFmt: 'yuvj422p', format: 'avi' } },
  // The encoder's time base would be 1/30 (the source's rate) and round the timestamps to it: 1/90000 keeps them.
  { name: 'h264-vfr-phone', label: 'H.264 VFR phone', ext: 'mp4', ...SD, rate: '30', frames: 90, startTimecode: null, vfr: true, audio: 'aac',
    video: [...X264, '-pix_fmt', 'yuv420p', '-profile:v', 'high', '-fps_mode', 'passthrough', '-enc_time_base', `1/${VFR_TICKS}`, '-video_track_timescale', String(VFR_TICKS)], audioArgs: AAC,
    probe: { codec: 'h264', profile: 'High', pixFmt: 'yuv420p', ...MP4 } },
  { name: 'h264-25', label: 'H.264 25', ext: 'mp4', ...SD, rate: '25', frames: 75, startTimecode: null, vfr: false, audio: 'aac',
    video: [...X264, '-pix_fmt', 'yuv420p', '-profile:v', 'high'], audioArgs: AAC,
    probe: { codec: 'h264', profile: 'High', pixFmt: 'yuv420p', ...MP4 } },
  // Starts two seconds before a minute that is not a tenth: 01:00:59;29 is followed by 01:01:00;02.
  { name: 'h264-2997df', label: 'H.264 29.97 DF', ext: 'mov', ...SD, rate: '30000/1001', frames: 90, startTimecode: '01:00:58;00', vfr: false, audio: 'aac',
    video: [...X264, '-pix_fmt', 'yuv420p', '-profile:v', 'high'], audioArgs: AAC,
    probe: { codec: 'h264', profile: 'High', pixFmt: 'yuv420p', ...MOV } },
  { name: 'h264-23976', label: 'H.264 23.976', ext: 'mp4', ...SD, rate: '24000/1001', frames: 72, startTimecode: null, vfr: false, audio: 'aac',
    video: [...X264, '-pix_fmt', 'yuv420p', '-profile:v', 'high'], audioArgs: AAC,
    probe: { codec: 'h264', profile: 'High', pixFmt: 'yuv420p', ...MP4 } },
];

/** The names of the clips makePlaybackFootage makes, in its order. */
export const PLAYBACK_CLIP_NAMES: readonly string[] = SPECS.map((s) => s.name);

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
let textSupport: boolean | undefined;
/** drawtext needs an ffmpeg built with libfreetype and a font file; without them the text is left out. */
function canDrawText(ffmpeg: string): boolean {
  textSupport ??= fs.existsSync(FONT) && / drawtext /.test(execFileSync(ffmpeg, ['-hide_banner', '-filters']).toString());
  return textSupport;
}

/** A drawtext value: quoted for the graph parser, ':' escaped for the option parser. */
const dt = (s: string) => `'${s.replace(/:/g, '\\:')}'`;

/** The VFR phone clip's presentation times (s) of its first `frames` frames: also what unit tests of the picture grid run on. */
export function vfrPhoneTimes(frames: number): number[] {
  return Array.from({ length: frames }, (_, n) => VFR_PTS.js(n) / VFR_TICKS);
}

function presentationTimes(s: Spec): number[] | null {
  return s.vfr ? vfrPhoneTimes(s.frames) : null;
}

/** ffmpeg's arguments for a clip, less the output file: also the clip's cache key. */
function clipArgs(s: Spec, text: boolean): string[] {
  const rate = parseRational(s.rate)!;
  const pts = presentationTimes(s);
  const seconds = pts ? pts[pts.length - 1]! + (pts[1]! - pts[0]!) : s.frames / fps(rate);
  const band = Math.round(s.height * FRAME_PATTERN_LAYOUT.band);
  const fontSize = Math.round(s.height / 8);
  const under = band + Math.round(fontSize / 3);
  const draw = (body: string, x: string, y: number) => `drawtext=fontfile=${FONT}:${body}:x=${x}:y=${y}:fontsize=${fontSize}:fontcolor=white:box=1:boxcolor=black@0.7:boxborderw=4`;
  const overlays = text
    ? [
        draw(`text=${dt('%{frame_num}')}:start_number=0`, `w*0.03`, under),
        draw(s.vfr ? `text=${dt('%{pts:hms}')}` : `timecode=${dt(s.startTimecode ?? '00:00:00:00')}:rate=${s.rate}`, 'w*0.35', under),
        draw(`text=${dt(s.label)}`, 'w*0.03', s.height - fontSize * 2),
      ]
    : [];
  const graph = [
    `[1:v]format=gray,geq=lum='${framePatternGeqExpr()}'[band]`,
    // The VFR timestamps before the text, so the text shows the time the frame is presented at.
    // trim, not -frames:v: with -frames:v and an audio stream, the mxf muxer drops the last few frames.
    [`[0:v][band]overlay=0:0`, `trim=end_frame=${s.frames}`, ...(s.vfr ? [`settb=1/${VFR_TICKS}`, `setpts='${VFR_PTS.ffmpeg}'`] : []), ...overlays].join(',') + '[v]',
  ].join(';');
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${s.width}x${s.height}:r=${s.rate}`, '-f', 'lavfi', '-i', `color=c=black:s=${s.width}x${band}:r=${s.rate}`];
  if (s.audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds.toFixed(4)}`);
  args.push('-filter_complex', graph, '-map', '[v]', ...s.video);
  if (s.audio) args.push('-map', '2:a', ...(s.audioArgs ?? []));
  if (s.startTimecode) args.push('-timecode', s.startTimecode);
  return args;
}

let versionLine: string | undefined;
function ffmpegVersion(ffmpeg: string): string {
  versionLine ??= execFileSync(ffmpeg, ['-version']).toString().split('\n')[0]!;
  return versionLine;
}

/** The default cache: one folder in the OS temp folder, so every test run on a machine re-uses the clips. */
export const PLAYBACK_FOOTAGE_CACHE = path.join(os.tmpdir(), 'reelscout-playback-footage');

/**
 * Makes the playback clips in `dir` (default PLAYBACK_FOOTAGE_CACHE), or only those named, and
 * returns what each is. A clip's file name holds a hash of its ffmpeg arguments and ffmpeg's
 * version, so an unchanged clip is re-used from an earlier run and a changed one is made anew (its
 * stale versions removed). Written under a temporary name and renamed, so test workers making the
 * same clip at once never read half a file.
 */
export async function makePlaybackFootage(dir: string = PLAYBACK_FOOTAGE_CACHE, names?: readonly string[]): Promise<PlaybackClip[]> {
  const ffmpeg = footageFfmpeg();
  const text = canDrawText(ffmpeg);
  fs.mkdirSync(dir, { recursive: true });
  const unknown = (names ?? []).filter((n) => !PLAYBACK_CLIP_NAMES.includes(n));
  if (unknown.length) throw new Error(`no playback clip named ${unknown.join(', ')}`);
  const clips: PlaybackClip[] = [];
  for (const s of SPECS.filter((x) => !names || names.includes(x.name))) {
    const args = clipArgs(s, text);
    const hash = createHash('sha256').update(JSON.stringify([ffmpegVersion(ffmpeg), args])).digest('hex').slice(0, 12);
    const file = path.join(dir, `${s.name}-${hash}.${s.ext}`);
    if (!fs.existsSync(file)) {
      const partial = `${file}.${process.pid}.partial`;
      try {
        await promisify(execFile)(ffmpeg, [...args, '-f', s.ext, partial], { maxBuffer: 1 << 20 });
        fs.renameSync(partial, file);
      } finally {
        fs.rmSync(partial, { force: true });
      }
      for (const old of fs.readdirSync(dir)) {
        if (old !== path.basename(file) && new RegExp(`^${s.name}-[0-9a-f]{12}\\.${s.ext}$`).test(old)) fs.rmSync(path.join(dir, old), { force: true });
      }
    }
    const { ext: _ext, video: _video, audioArgs: _audioArgs, rate, ...facts } = s;
    clips.push({ ...facts, file, rate: parseRational(rate)!, dropFrame: s.startTimecode?.includes(';') ?? false, ptsSeconds: presentationTimes(s) });
  }
  return clips;
}

/** The time (s) at which a clip presents a frame: where a test seeks to show it. */
export function frameStartSeconds(clip: PlaybackClip, frame: number): number {
  return clip.ptsSeconds ? clip.ptsSeconds[frame]! : (frame * clip.rate.den) / clip.rate.num;
}

/** The frame a clip presents at a time (s): the last one that starts at or before it. */
export function frameAtSeconds(clip: PlaybackClip, seconds: number): number {
  // A microsecond of slack: a player's currentTime is a float of a rational time.
  const t = seconds + 1e-6;
  if (!clip.ptsSeconds) return Math.min(clip.frames - 1, Math.max(0, Math.floor((t * clip.rate.num) / clip.rate.den)));
  let frame = 0;
  while (frame + 1 < clip.frames && clip.ptsSeconds[frame + 1]! <= t) frame++;
  return frame;
}
