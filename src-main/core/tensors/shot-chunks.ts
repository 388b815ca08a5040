import { AppError } from '../../../src-shared/errors';
import type { ContentBox } from '../media/frame-geometry';
import { base64Length } from './tensor-codec';
import { frameBytes, type TensorProfile } from './tensor-profile';
import { buildVideoKwargs, type VideoKwargs } from './video-kwargs';

/** What the decoder collected for one shot, before chunking. */
export interface ShotFrames {
  shotId: number;
  startS: number;
  endS: number;
  /** rgb24 frames of the profile's size, in time order. */
  frames: readonly Uint8Array[];
  /** Sample time of each frame, seconds from clip start. */
  frameTimes: readonly number[];
  /** Mono PCM at the profile's rate; sample 0 is at startS, one sample per 1/rate s up to endS. */
  audio: Float32Array;
  sourceWidth: number;
  sourceHeight: number;
  content: ContentBox;
}

/** One upload's worth of a shot: a consecutive run of frames and the audio of the same span. */
export interface TensorChunk {
  shotId: number;
  chunkIndex: number;
  chunkCount: number;
  /** Time range this chunk (and the embedding made from it) stands for. */
  startS: number;
  endS: number;
  /** uint8 [T, H, W, 3], RGB, C order. */
  video: Uint8Array;
  videoShape: [number, number, number, number];
  /** float32 [N] mono PCM. */
  audio: Float32Array;
  audioShape: [number];
  videoKwargs: VideoKwargs;
  /** Upper estimate of the largest upload body built from this chunk, in bytes. */
  estimatedBytes: number;
}

/**
 * Room for the JSON around the tensors: field names, service, request_id, shape arrays, quotes.
 * Measured bodies carry about 200 bytes of it; 1 KiB keeps the estimate an upper bound.
 */
export const ENVELOPE_BYTES = 1024;

/**
 * Size of the largest body one chunk can produce. Embedding uploads carry video + audio,
 * tagging uploads video + kwargs; counting all three keeps one estimate safe for both.
 */
export function estimateUploadBytes(frames: number, profile: TensorProfile, audioSamples: number, kwargs: VideoKwargs): number {
  return base64Length(frames * frameBytes(profile)) + base64Length(audioSamples * 4) + JSON.stringify(kwargs).length + ENVELOPE_BYTES;
}

interface Span {
  from: number; // first frame index
  to: number; // one past the last
}

/** Chunk k ends halfway between its last frame and the next chunk's first: each frame owns its neighbourhood. */
function spanTimes(shot: ShotFrames, span: Span): { startS: number; endS: number } {
  const t = shot.frameTimes;
  const startS = span.from === 0 ? shot.startS : (t[span.from - 1]! + t[span.from]!) / 2;
  const endS = span.to >= t.length ? shot.endS : (t[span.to - 1]! + t[span.to]!) / 2;
  return { startS: Math.max(shot.startS, startS), endS: Math.min(shot.endS, endS) };
}

function audioRange(shot: ShotFrames, rate: number, startS: number, endS: number): [number, number] {
  const a = Math.max(0, Math.min(shot.audio.length, Math.round((startS - shot.startS) * rate)));
  const b = Math.max(a, Math.min(shot.audio.length, Math.round((endS - shot.startS) * rate)));
  return [a, b];
}

function spanKwargs(shot: ShotFrames, span: Span, profile: TensorProfile, index: number, count: number): { kwargs: VideoKwargs; audio: [number, number] } {
  const { startS, endS } = spanTimes(shot, span);
  const audio = audioRange(shot, profile.audioSampleRate, startS, endS);
  const kwargs = buildVideoKwargs({
    profile,
    frameTimes: shot.frameTimes.slice(span.from, span.to),
    startS,
    endS,
    shotStartS: shot.startS,
    shotEndS: shot.endS,
    chunkIndex: index,
    chunkCount: count,
    sourceWidth: shot.sourceWidth,
    sourceHeight: shot.sourceHeight,
    content: shot.content,
    audioSamples: audio[1] - audio[0],
  });
  return { kwargs, audio };
}

function spanFits(shot: ShotFrames, span: Span, profile: TensorProfile, budget: number): boolean {
  if (span.to - span.from > profile.maxFramesPerTensor) return false;
  // chunk_count is unknown while sizing: 9999 stands in for its widest rendering.
  const { kwargs, audio } = spanKwargs(shot, span, profile, 9999, 9999);
  return estimateUploadBytes(span.to - span.from, profile, audio[1] - audio[0], kwargs) <= budget;
}

/**
 * Splits a shot's frames into consecutive runs that each fit the frame limit and the byte budget.
 * Greedy first, to learn how many chunks are needed; then the same number of chunks of equal
 * length (so a 17-frame shot becomes 9 + 8, not 16 + 1) when those fit too.
 */
function planSpans(shot: ShotFrames, profile: TensorProfile, budget: number): Span[] {
  const n = shot.frames.length;
  const greedy: Span[] = [];
  let from = 0;
  while (from < n) {
    if (!spanFits(shot, { from, to: from + 1 }, profile, budget)) {
      throw new AppError('too_large', `one frame with its audio exceeds the upload budget of ${budget} bytes (profile ${profile.id})`);
    }
    let to = from + 1;
    while (to < n && spanFits(shot, { from, to: to + 1 }, profile, budget)) to++;
    greedy.push({ from, to });
    from = to;
  }
  const k = greedy.length;
  if (k <= 1) return greedy;
  const even: Span[] = [];
  for (let i = 0; i < k; i++) even.push({ from: Math.floor((i * n) / k), to: Math.floor(((i + 1) * n) / k) });
  return even.every((s) => spanFits(shot, s, profile, budget)) ? even : greedy;
}

function buildChunk(shot: ShotFrames, span: Span, profile: TensorProfile, index: number, count: number): TensorChunk {
  const { kwargs, audio } = spanKwargs(shot, span, profile, index, count);
  const fb = frameBytes(profile);
  const t = span.to - span.from;
  const video = new Uint8Array(t * fb);
  for (let i = 0; i < t; i++) {
    const f = shot.frames[span.from + i]!;
    if (f.byteLength !== fb) throw new AppError('internal', `frame of ${f.byteLength} bytes, profile ${profile.id} needs ${fb}`);
    video.set(f, i * fb);
  }
  const pcm = shot.audio.slice(audio[0], audio[1]);
  return {
    shotId: shot.shotId,
    chunkIndex: index,
    chunkCount: count,
    startS: kwargs.start_time,
    endS: kwargs.end_time,
    video,
    videoShape: [t, profile.frameHeight, profile.frameWidth, 3],
    audio: pcm,
    audioShape: [pcm.length],
    videoKwargs: kwargs,
    estimatedBytes: estimateUploadBytes(t, profile, pcm.length, kwargs),
  };
}

/** A shot's tensors, chunked to the profile's frame limit and byte budget (or a smaller budget after a 413). */
export function chunkShot(shot: ShotFrames, profile: TensorProfile, budget = profile.byteBudget): TensorChunk[] {
  if (shot.frames.length !== shot.frameTimes.length) throw new AppError('internal', 'frames and frame times differ in count');
  if (shot.frames.length === 0) return [];
  const spans = planSpans(shot, profile, budget);
  return spans.map((s, i) => buildChunk(shot, s, profile, i, spans.length));
}

/**
 * After a 413 the pipeline halves the offending chunk: two consecutive chunks over the same time
 * range, numbered as sub-chunks of the original (index stays, count unchanged) through their
 * time ranges. A one-frame chunk cannot be split: the profile's frame size is too large.
 */
export function splitChunk(chunk: TensorChunk, profile: TensorProfile): TensorChunk[] {
  const t = chunk.videoShape[0];
  if (t < 2) throw new AppError('too_large', `a one-frame tensor of profile ${profile.id} is still too large to upload`);
  const fb = frameBytes(profile);
  const box = chunk.videoKwargs.content_box;
  const frames = Array.from({ length: t }, (_, i) => chunk.video.subarray(i * fb, (i + 1) * fb));
  const shot: ShotFrames = {
    shotId: chunk.shotId,
    startS: chunk.startS,
    endS: chunk.endS,
    frames,
    frameTimes: chunk.videoKwargs.frame_timestamps,
    audio: chunk.audio,
    sourceWidth: chunk.videoKwargs.source_width,
    sourceHeight: chunk.videoKwargs.source_height,
    content: { x: box[0], y: box[1], width: box[2], height: box[3] },
  };
  const half = Math.ceil(t / 2);
  const parts = [
    { from: 0, to: half },
    { from: half, to: t },
  ];
  return parts.map((s) => {
    const c = buildChunk(shot, s, profile, chunk.chunkIndex, chunk.chunkCount);
    // Keep the shot-level range: the sub-chunks still belong to the original shot.
    c.videoKwargs.shot_start = chunk.videoKwargs.shot_start;
    c.videoKwargs.shot_end = chunk.videoKwargs.shot_end;
    return c;
  });
}
