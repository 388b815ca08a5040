import { frameToSeconds, type FrameRate } from '../../../src-shared/timecode';
import { frameSync } from '../media/frame-sync';
import { PROXY_DEFAULTS, proxyGop, proxyPictureFilter } from '../media/proxy-branch';
import { proxyEncoderArgs } from '../media/proxy-encoder';

export interface RangeStreamJob {
  /** The original's real path (checked by the clip resolver). */
  input: string;
  rate: FrameRate;
  /** First frame of the window and how many frames it holds. */
  from: number;
  frames: number;
  /** Whether the clip has sound (its first audio stream is carried as stereo AAC). */
  audio: boolean;
  outFile: string;
}

/**
 * The seek point: a millisecond before frame `from`'s time. ffmpeg's input seek decodes from the
 * keyframe before it and keeps the frames at or after it, so frame `from` is the first kept even
 * when its time is rounded a tick down in the container; a half-frame margin would be rounded up
 * to a whole frame by the encoder's time base (1/rate under passthrough) and shift every time.
 */
export function rangeStreamSeekS(rate: FrameRate, from: number): number {
  return Math.max(0, frameToSeconds(from, rate) - 0.001);
}

/**
 * ffmpeg's arguments for one window of a clip's preview stream: the proxy's picture (size, x264
 * `ultrafast`, short keyframe interval, no B-frames) and sound (stereo AAC), every frame kept with
 * its time (`-vsync passthrough`), and the times shifted back by the seek (`-output_ts_offset`) so
 * that the stream's times are the clip's: frame k is presented at k / rate as in the proxy and the
 * viewer's presented-frame reading needs nothing else. A plain MP4 with its index first, served
 * once written (windows start short so that the first is written soon: stream-window.ts). The
 * bundled ffmpeg 4.1 writes a fragmented MP4's first fragment from 0 whatever the offset (first pts
 * 0.000 instead of 1.251 for frame 30 at 23.976) unless `-movflags +delay_moov` lets it write an
 * edit list (then the same times as here, measured on a 25 fps ProRes window); a growing file
 * served while written is what that would take, not tried.
 */
export function rangeStreamArgs(j: RangeStreamJob): string[] {
  const seek = rangeStreamSeekS(j.rate, j.from);
  const seconds = (frameToSeconds(j.frames, j.rate)).toFixed(6);
  return [
    '-hide_banner', '-nostdin', '-v', 'error',
    '-ss', seek.toFixed(6), '-i', j.input,
    '-map', '0:v:0', ...(j.audio ? ['-map', '0:a:0'] : []),
    '-frames:v', String(j.frames), '-t', seconds,
    '-vf', proxyPictureFilter(PROXY_DEFAULTS.height),
    ...frameSync('passthrough'),
    ...proxyEncoderArgs('libx264', { videoKbps: PROXY_DEFAULTS.videoKbps, gop: proxyGop(j.rate.num / j.rate.den) }),
    ...(j.audio ? ['-c:a', 'aac', '-b:a', `${PROXY_DEFAULTS.audioKbps}k`, '-ac', '2'] : []),
    '-output_ts_offset', seek.toFixed(6),
    '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', '-y', j.outFile,
  ];
}
