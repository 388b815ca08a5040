import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { fps, parseRational } from '../../../src-shared/timecode';

/**
 * Footage for the hand-off tests, made with ffmpeg: shots of distinct test patterns cut at given
 * frame numbers (hard cuts the detector finds), an exact frame count at a rational rate, a start
 * timecode, a reel name, and audio with a channel layout that may outlast the picture.
 */
export interface ClipSpec {
  name: string;
  /** ffmpeg's rate: "24000/1001", "25", "30000/1001"... */
  rate: string;
  frames: number;
  /** Frame numbers where a new shot starts. */
  cuts?: number[];
  /** Start timecode as the camera writes it ("01:00:59;28" for drop-frame). */
  timecode?: string;
  /** Channels per audio stream ([2]: one stereo stream; [1, 1]: two mono streams); none: no audio. */
  audio?: number[];
  /** Seconds the audio runs past the last picture. */
  audioTail?: number;
  /** The tmcd track's reel name (QuickTime). */
  reel?: string;
}

const PATTERNS = ['testsrc2', 'mandelbrot', 'smptebars', 'rgbtestsrc', 'testsrc'];

export function makeClip(dir: string, c: ClipSpec): string {
  const out = path.join(dir, c.name);
  const bounds = [0, ...(c.cuts ?? []), c.frames];
  const args = ['-hide_banner', '-loglevel', 'error', '-y'];
  const chains: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    args.push('-f', 'lavfi', '-i', `${PATTERNS[k % PATTERNS.length]}=size=320x180:rate=${c.rate}`);
    chains.push(`[${k}:v]trim=end_frame=${bounds[k + 1]! - bounds[k]!},setpts=PTS-STARTPTS,format=yuv420p,setsar=1[v${k}]`);
  }
  const shots = bounds.length - 1;
  chains.push(`${Array.from({ length: shots }, (_, k) => `[v${k}]`).join('')}concat=n=${shots}:v=1:a=0[v]`);
  const maps = ['-map', '[v]'];
  (c.audio ?? []).forEach((channels, i) => {
    const input = shots + i;
    args.push('-f', 'lavfi', '-i', `sine=frequency=${330 + 110 * i}:sample_rate=48000:duration=${(c.frames / fps(parseRational(c.rate)!) + (c.audioTail ?? 0)).toFixed(4)}`);
    chains.push(`[${input}:a]aformat=channel_layouts=${channels === 1 ? 'mono' : channels === 2 ? 'stereo' : `${channels}c`}[a${i}]`);
    maps.push('-map', `[a${i}]`);
  });
  args.push('-filter_complex', chains.join(';'), ...maps);
  if (c.timecode) args.push('-timecode', c.timecode);
  if (c.reel) args.push('-metadata:s:v:0', `reel_name=${c.reel}`);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-g', '12');
  if (c.audio?.length) args.push('-c:a', 'aac', '-b:a', '96k');
  args.push(out);
  execFileSync(ffPath('ffmpeg'), args);
  return out;
}

/** The video frames ffprobe decodes, and the start timecode it reads: the facts the exports must match. */
export function probeFacts(file: string): { frames: number; timecode: string | null; audioStreams: number[] } {
  const j = JSON.parse(
    execFileSync(ffPath('ffprobe'), ['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_type,nb_read_frames,channels:stream_tags=timecode', '-of', 'json', file]).toString(),
  ) as { streams: { codec_type: string; nb_read_frames?: string; channels?: number; tags?: { timecode?: string } }[] };
  const video = j.streams.find((s) => s.codec_type === 'video')!;
  const timecode = j.streams.map((s) => s.tags?.timecode).find((t) => t !== undefined) ?? null;
  return { frames: Number(video.nb_read_frames), timecode, audioStreams: j.streams.filter((s) => s.codec_type === 'audio').map((s) => s.channels ?? 0) };
}
