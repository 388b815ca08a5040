import type { ContentBox } from '../media/frame-geometry';
import type { TensorProfile } from './tensor-profile';

/**
 * video_kwargs sent with tagging uploads. The spec only says "extra video parameters"; these are
 * the facts a tagger needs to interpret the frames (sampling, timing, geometry), in the
 * snake_case the rest of the interface uses. Times are seconds from the start of the clip.
 */
export interface VideoKwargs {
  profile: string;
  fps: number;
  num_frames: number;
  frame_timestamps: number[];
  start_time: number;
  end_time: number;
  shot_start: number;
  shot_end: number;
  chunk_index: number;
  chunk_count: number;
  source_width: number;
  source_height: number;
  frame_width: number;
  frame_height: number;
  fit: TensorProfile['fit'];
  /** [x, y, width, height] of the picture inside the frame, pixels (letterbox bars excluded). */
  content_box: [number, number, number, number];
  layout: 'THWC';
  color: 'RGB';
  audio_sample_rate: number;
  audio_samples: number;
}

export interface VideoKwargsInput {
  profile: TensorProfile;
  frameTimes: readonly number[];
  startS: number;
  endS: number;
  shotStartS: number;
  shotEndS: number;
  chunkIndex: number;
  chunkCount: number;
  sourceWidth: number;
  sourceHeight: number;
  content: ContentBox;
  audioSamples: number;
}

/** Millisecond precision: finer is noise at these frame rates and bloats the JSON. */
const ms = (s: number) => Math.round(s * 1000) / 1000 + 0; // + 0 turns -0 into 0

export function buildVideoKwargs(k: VideoKwargsInput): VideoKwargs {
  return {
    profile: k.profile.id,
    fps: k.profile.fps,
    num_frames: k.frameTimes.length,
    frame_timestamps: k.frameTimes.map(ms),
    start_time: ms(k.startS),
    end_time: ms(k.endS),
    shot_start: ms(k.shotStartS),
    shot_end: ms(k.shotEndS),
    chunk_index: k.chunkIndex,
    chunk_count: k.chunkCount,
    source_width: Math.round(k.sourceWidth),
    source_height: Math.round(k.sourceHeight),
    frame_width: k.profile.frameWidth,
    frame_height: k.profile.frameHeight,
    fit: k.profile.fit,
    content_box: [k.content.x, k.content.y, k.content.width, k.content.height],
    layout: 'THWC',
    color: 'RGB',
    audio_sample_rate: k.profile.audioSampleRate,
    audio_samples: k.audioSamples,
  };
}
