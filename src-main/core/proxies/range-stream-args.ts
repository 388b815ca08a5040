import { pictureOfGrid } from '../../../src-shared/picture-grid';
import type { StreamWindow } from '../../../src-shared/stream-window';
import { frameToSeconds, type FrameRate } from '../../../src-shared/timecode';
import { frameSync } from '../media/frame-sync';
import { PROXY_DEFAULTS, proxyGop, proxyPictureFilter } from '../media/proxy-branch';
import { proxyEncoderArgs } from '../media/proxy-encoder';

/** The pictures of the original a window holds: where the first is presented, how many, and how long they last. */
export interface WindowPictures {
  /** The first picture's presentation time in the clip (s): where the window file's first picture is presented. */
  startS: number;
  pictures: number;
  /** From the first picture to the end of the last (s): the sound is cut there. */
  seconds: number;
}

/**
 * The pictures window `w` shows. A clip counted at its own rate: frames `from` to `to - 1`, frame k
 * at k / rate. A conformed (VFR) clip, whose positions are grid positions over pictures that keep
 * their own times (`times`, src-shared/picture-grid.ts): from the picture grid position `from`
 * shows (presented at or before it, so one that holds across the window's start is in it) to the
 * one `to - 1` shows, each at its own time.
 */
export function windowPictures(w: StreamWindow, rate: FrameRate, times: readonly number[] | null): WindowPictures {
  if (!times || times.length === 0) {
    const startS = frameToSeconds(w.from, rate);
    return { startS, pictures: w.to - w.from, seconds: frameToSeconds(w.to, rate) - startS };
  }
  const first = pictureOfGrid(times, w.from, rate);
  const last = pictureOfGrid(times, w.to - 1, rate);
  const startS = first === 0 ? 0 : times[first]!;
  const endS = times[last + 1] ?? frameToSeconds(w.to, rate);
  return { startS, pictures: last - first + 1, seconds: Math.max(endS - startS, frameToSeconds(1, rate)) };
}

export interface RangeStreamJob {
  /** The original's real path (checked by the clip resolver). */
  input: string;
  rate: FrameRate;
  /** The window's pictures (windowPictures). */
  pictures: WindowPictures;
  /** A VFR clip: its times are kept on its own clock (proxy-encoder.ts SOURCE_CLOCK), as its proxy's are. */
  vfr: boolean;
  /** The picture's height (stream-size.ts: the proxy's, or smaller while the transcode cannot keep up). */
  height: number;
  /** Whether the clip has sound (its first audio stream is carried as stereo AAC). */
  audio: boolean;
  outFile: string;
}

/**
 * The seek point: a millisecond before the first picture's time. ffmpeg's input seek decodes from
 * the keyframe before it and keeps the pictures at or after it, so the first picture is the first
 * kept even when its time is rounded a tick down in the container.
 */
export function rangeStreamSeekS(startS: number): number {
  return Math.max(0, startS - 0.001);
}

/**
 * ffmpeg's arguments for one window of a clip's preview stream: the proxy's picture (x264
 * `ultrafast`, short keyframe interval, no B-frames; its height `j.height`) and sound (stereo AAC),
 * every picture kept with its time (`-vsync passthrough`; a VFR clip's on its own clock), and the
 * times shifted back by the seek (`-output_ts_offset`) so that the stream's times are the clip's.
 * The MP4 muxer writes that shift as an empty edit on the movie's millisecond clock, which would
 * move every picture by up to a millisecond (a VFR picture then reads as the one before it):
 * range-streams.ts sets the movie's clock and that edit exactly once the file is written
 * (media/mp4/start.ts), and closes a VFR window's last sample (media/mp4/last-sample.ts) as the
 * proxy's. A plain MP4 with its index first, served once written (windows start short so that the
 * first is written soon: stream-window.ts). The bundled ffmpeg 4.1 writes a fragmented MP4's first
 * fragment from 0 whatever the offset unless `-movflags +delay_moov` lets it write an edit list; a
 * growing file served while written is what that would take, not tried.
 */
export function rangeStreamArgs(j: RangeStreamJob): string[] {
  const seek = rangeStreamSeekS(j.pictures.startS).toFixed(6);
  return [
    '-hide_banner', '-nostdin', '-v', 'error',
    '-ss', seek, '-i', j.input,
    '-map', '0:v:0', ...(j.audio ? ['-map', '0:a:0'] : []),
    '-frames:v', String(j.pictures.pictures), '-t', j.pictures.seconds.toFixed(6),
    '-vf', proxyPictureFilter(j.height),
    ...frameSync('passthrough'),
    ...proxyEncoderArgs('libx264', { videoKbps: PROXY_DEFAULTS.videoKbps, gop: proxyGop(j.rate.num / j.rate.den), vfr: j.vfr ? { rate: `${j.rate.num}/${j.rate.den}` } : null }),
    ...(j.audio ? ['-c:a', 'aac', '-b:a', `${PROXY_DEFAULTS.audioKbps}k`, '-ac', '2'] : []),
    '-output_ts_offset', seek,
    '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', '-y', j.outFile,
  ];
}
