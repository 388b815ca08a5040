import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffPath } from '../src-main/core/media/ffmpeg-locate';
import { footageFfmpeg } from '../test/helpers/footage/footage-ffmpeg';

/**
 * The cards bench:index imports, generated once from the sample clips into .tmp/ and reused. The
 * card is footage, not the app's work: the system's ffmpeg makes it. Every clip is distinct: a
 * different stretch of a source and a hue turn of its own.
 *
 * - `consumer` (the default, the card of every earlier run): 2-8 s, 640x360 to 1920x1080 and every
 *   30th in 3840x2160; H.264 (veryfast, CRF 23), every 23rd MPEG-4 Part 2, every 19th VP9: web and
 *   phone footage at low bitrates, the cheapest to decode, so the card on which a viewing proxy's
 *   encode weighs most beside the analysis.
 * - `camera`: what editors ingest from cameras and post houses: ProRes 422 HQ `.mov`, DNxHR HQ and
 *   XDCAM-like MPEG-2 4:2:2 long-GOP `.mxf`, H.264 10-bit 4:2:2 intra `.mov` (XAVC-I-like), H.264
 *   4:2:0 long-GOP at a camera's 50 Mbit/s and HEVC Main 10 `.mp4`; 1920x1080, some in 3840x2160,
 *   23.976 / 25 / 29.97 fps, with a sensor's grain, PCM sound in MOV and MXF (one mono track, as the
 *   MXF muxer wants), AAC in MP4.
 */
export type CardKind = 'consumer' | 'camera';

const MEDIA = path.resolve(__dirname, '..', '..', 'shared', 'media', 'videos');
const SIZES = ['640x360', '960x540', '1280x720', '1920x1080'];
const LENGTHS = [2, 3, 4, 5, 6, 8];
const CAMERA_RATES = ['24000/1001', '25', '30000/1001'];

/** One folder per card kind and size: the import takes the whole folder, so a smaller card must not see a bigger one's files. */
export function cardDir(n: number, kind: CardKind): string {
  const name = kind === 'consumer' ? (n === 306 ? 'bench-index-card' : `bench-index-card-${n}`) : `bench-index-card-${kind}-${n}`;
  return path.resolve(__dirname, '..', '.tmp', name);
}

function sources(): { file: string; durationS: number }[] {
  const ffprobe = ffPath('ffprobe');
  return fs
    .readdirSync(MEDIA)
    .filter((f) => /\.(mp4|mkv|webm|avi)$/.test(f))
    .sort()
    .map((f) => {
      const out = execFileSync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(MEDIA, f)]).toString();
      return { file: path.join(MEDIA, f), durationS: Number(out.trim()) || 0 };
    })
    .filter((s) => s.durationS >= 2);
}

/** Clip i of a card: its size, rate, codec arguments and file extension. Deterministic. */
interface ClipFormat {
  size: string;
  /** Filters after the scale and hue (a camera's sensor grain). */
  grain: string;
  rate: string;
  ext: string;
  args: string[];
}

function consumerFormat(i: number): ClipFormat {
  const size = i % 30 === 29 ? '3840x2160' : SIZES[(i * 5) % SIZES.length]!;
  const codec = i % 23 === 11 ? 'mpeg4' : i % 19 === 7 ? 'vp9' : 'h264';
  const ext = codec === 'vp9' ? 'webm' : codec === 'mpeg4' ? 'avi' : 'mp4';
  const vcodec =
    codec === 'h264' ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p']
    : codec === 'vp9' ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M']
    : ['-c:v', 'mpeg4', '-q:v', '5'];
  const acodec = codec === 'vp9' ? ['-c:a', 'libopus'] : codec === 'mpeg4' ? ['-c:a', 'mp3'] : ['-c:a', 'aac'];
  return { size, grain: '', rate: i % 4 === 0 ? '30000/1001' : '25', ext, args: [...vcodec, ...acodec, '-ac', '2', '-ar', '48000'] };
}

const PCM_MOV = ['-c:a', 'pcm_s24le', '-ac', '2', '-ar', '48000'];
const PCM_MXF = ['-c:a', 'pcm_s24le', '-ac', '1', '-ar', '48000'];
const AAC = ['-c:a', 'aac', '-b:a', '192k', '-ac', '2', '-ar', '48000'];

function cameraFormat(i: number): ClipFormat {
  const codec = i % 6;
  // UHD in ProRes, long-GOP H.264 and HEVC: XDCAM's MPEG-2 tops out at HD, and Debian's x264 writes
  // a UHD 10-bit 4:2:2 intra stream without its parameter sets (no decoder reads it back).
  const size = (i % 10 === 9 || i % 12 === 6) && [0, 4, 5].includes(codec) ? '3840x2160' : '1920x1080';
  const rate = CAMERA_RATES[i % CAMERA_RATES.length]!;
  const [num, den] = rate.split('/').map(Number);
  // Half a second's frames: the GOP of the long-GOP camera codecs.
  const gop = String(Math.round(num! / (den ?? 1) / 2));
  const f = cameraCodec(codec, gop);
  // Sensor grain, changing every frame: a camera's picture is never as clean as an upscaled web
  // clip, and its codecs spend their bits on it (the 50 Mbit/s H.264 came out at 15 without it).
  return { size, rate, grain: ',noise=alls=6:allf=t', ...f };
}

function cameraCodec(codec: number, gop: string): Pick<ClipFormat, 'ext' | 'args'> {
  switch (codec) {
    case 0:
      return { ext: 'mov', args: ['-c:v', 'prores_ks', '-profile:v', '3', '-vendor', 'apl0', '-pix_fmt', 'yuv422p10le', ...PCM_MOV] };
    case 1:
      return { ext: 'mxf', args: ['-c:v', 'dnxhd', '-profile:v', 'dnxhr_hq', '-pix_fmt', 'yuv422p', ...PCM_MXF] };
    case 2:
      // Closed fixed GOPs as an XDCAM camera writes them (see test/helpers/playback-footage.ts).
      return { ext: 'mxf', args: ['-c:v', 'mpeg2video', '-pix_fmt', 'yuv422p', '-b:v', '50M', '-minrate', '50M', '-maxrate', '50M', '-bufsize', '17M', '-g', '12', '-bf', '2', '-flags', '+cgop', '-sc_threshold', '1000000000', ...PCM_MXF] };
    case 3:
      return { ext: 'mov', args: ['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high422', '-pix_fmt', 'yuv422p10le', '-g', '1', '-b:v', '100M', ...PCM_MOV] };
    case 4:
      return { ext: 'mp4', args: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-b:v', '50M', '-maxrate', '60M', '-bufsize', '50M', '-g', gop, ...AAC] };
    default:
      return { ext: 'mp4', args: ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1', '-b:v', '40M', '-x265-params', `log-level=error:keyint=${gop}`, ...AAC] };
  }
}

/** Generates the card's missing clips (a clip already there is kept); their paths in order. */
export function makeCard(n: number, kind: CardKind): string[] {
  const dir = cardDir(n, kind);
  fs.mkdirSync(dir, { recursive: true });
  const src = sources();
  const ffmpeg = footageFfmpeg();
  const files: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = src[i % src.length]!;
    const len = Math.min(LENGTHS[(i * 7) % LENGTHS.length]!, Math.floor(s.durationS));
    const start = ((i * 1.37) % Math.max(0.01, s.durationS - len)).toFixed(2);
    const f = kind === 'camera' ? cameraFormat(i) : consumerFormat(i);
    const out = path.join(dir, `A${String(i + 1).padStart(3, '0')}_C${String(i % 7).padStart(3, '0')}.${f.ext}`);
    files.push(out);
    if (fs.existsSync(out) && fs.statSync(out).size > 4096) continue;
    const [w, h] = f.size.split('x');
    const tmp = `${out}.part.${f.ext}`;
    execFileSync(ffmpeg, [
      // Output seeking (after -i): some sources (an index-less AVI) seek wrong from the input side.
      '-hide_banner', '-loglevel', 'error', '-y', '-i', s.file, '-ss', start, '-t', String(len),
      // The hue turn makes every clip distinct even where the same stretch of a source recurs.
      '-vf', `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,hue=h=${(i * 11) % 360}${f.grain},fps=${f.rate}`,
      ...f.args, tmp,
    ]);
    if (fs.statSync(tmp).size <= 4096) throw new Error(`ffmpeg made an empty clip from ${s.file} at ${start} s`);
    // A clip the footage tools cannot read back is the generator's fault, not the app's to report.
    execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-xerror', '-i', tmp, '-frames:v', '2', '-f', 'null', '-']);
    fs.renameSync(tmp, out);
    if ((i + 1) % 50 === 0) console.log(`  generated ${i + 1}/${n} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return files;
}
