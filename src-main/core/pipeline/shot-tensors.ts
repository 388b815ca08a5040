import { createHash } from 'node:crypto';
import { AppError } from '../../../src-shared/errors';
import { ClipDecoder, type VideoOutput } from '../analysis/clip-decoder';
import { parseSar } from '../analysis/source-info';
import { tensorRequestId } from '../service/tensor';
import { displaySize, fitGeometry } from '../tensors/frame-geometry';
import { chunkShot, splitChunk, type ShotFrames, type TensorChunk } from '../tensors/shot-chunks';
import { float32ToLittleEndian } from '../tensors/tensor-codec';
import type { TensorProfile } from '../tensors/tensor-profile';

/** What decoding needs to know about the source, read once from the catalog (stable across runs). */
export interface TensorSource {
  filePath: string;
  /** Displayed size (rotation applied). */
  width: number;
  height: number;
  sar: number;
  hasAudio: boolean;
}

export interface ShotSpan {
  id: number;
  startS: number;
  endS: number;
}

const EPS = 1e-6;

/** SAR from the ffprobe JSON the library stored (probe_json), as analysis/source-info reads it. */
export function sarFromProbeJson(probeJson: string | null, rotation: number | null): number {
  if (!probeJson) return 1;
  try {
    const raw = JSON.parse(probeJson) as { streams?: Array<{ codec_type?: string; sample_aspect_ratio?: string }> };
    const video = raw.streams?.find((s) => s.codec_type === 'video');
    const sar = parseSar(video?.sample_aspect_ratio);
    return rotation === 90 || rotation === 270 ? 1 / sar : sar;
  } catch {
    return 1;
  }
}

/**
 * Decodes one shot at the profile's frame rate and size, with its mono audio. The same decode
 * (same seek, same filters) runs when the tensors are planned and when a chunk is rebuilt for an
 * upload, so the bytes, and the request ids derived from them, come out the same each time. A
 * shot shorter than one frame interval gets a single frame from its midpoint (as analysis does).
 */
export async function decodeShot(src: TensorSource, shot: ShotSpan, profile: TensorProfile, opts: { signal?: AbortSignal; ffmpeg?: string } = {}): Promise<ShotFrames> {
  const disp = displaySize(src.width, src.height, src.sar);
  const geometry = fitGeometry(disp.width, disp.height, profile.frameWidth, profile.frameHeight, profile.fit);
  const output: VideoOutput = { name: 'tensor', fps: profile.fps, geometry, pixFmt: 'rgb24' };
  const duration = shot.endS - shot.startS;
  if (!(duration > 0)) throw new AppError('invalid', `shot ${shot.id} has an empty range`);
  const frames: Uint8Array[] = [];
  const frameTimes: number[] = [];
  const audioParts: Float32Array[] = [];
  await new ClipDecoder(
    { filePath: src.filePath, startS: shot.startS, durationS: duration, outputs: [output], audioRate: src.hasAudio ? profile.audioSampleRate : null, ffmpegPath: opts.ffmpeg, signal: opts.signal },
    {
      onFrame: (_o, frame, index) => {
        const t = shot.startS + index / profile.fps;
        if (t < shot.endS - EPS) {
          frames.push(frame);
          frameTimes.push(t);
        }
      },
      onAudio: (samples) => audioParts.push(samples),
    },
  ).run();
  if (frames.length === 0) {
    const mid = (shot.startS + shot.endS) / 2;
    for (const start of [mid, shot.startS, Math.max(0, shot.startS - 1 / profile.fps)]) {
      await new ClipDecoder(
        { filePath: src.filePath, startS: start, durationS: Math.max(0.5, 2 / profile.fps), outputs: [output], audioRate: null, maxFramesPerOutput: 1, ffmpegPath: opts.ffmpeg, signal: opts.signal },
        {
          onFrame: (_o, frame) => {
            if (frames.length === 0) {
              frames.push(frame);
              frameTimes.push(Math.min(Math.max(start, shot.startS), shot.endS - EPS));
            }
          },
          onAudio: () => {},
        },
      ).run();
      if (frames.length > 0) break;
    }
  }
  // Exactly one sample per 1/rate s of the shot: silence where the stream has none (or is shorter).
  const want = Math.max(1, Math.round(duration * profile.audioSampleRate));
  const audio = new Float32Array(want);
  let pos = 0;
  for (const p of audioParts) {
    if (pos >= want) break;
    const take = Math.min(p.length, want - pos);
    audio.set(p.subarray(0, take), pos);
    pos += take;
  }
  return {
    shotId: shot.id,
    startS: shot.startS,
    endS: shot.endS,
    frames,
    frameTimes,
    audio,
    sourceWidth: disp.width,
    sourceHeight: disp.height,
    content: geometry.content,
  };
}

/** The upload content of one chunk, hashed: video bytes, audio bytes (LE) and the kwargs. */
export function chunkContentSha(chunk: TensorChunk): string {
  const h = createHash('sha256');
  h.update(chunk.videoShape.join('x'));
  h.update(Buffer.from(chunk.video.buffer, chunk.video.byteOffset, chunk.video.byteLength));
  h.update(`|${chunk.audioShape.join('x')}|`);
  h.update(float32ToLittleEndian(chunk.audio));
  h.update(JSON.stringify(chunk.videoKwargs));
  return h.digest('hex');
}

/**
 * Request ids from what each upload carries: embedding = video + audio, tagging = video + kwargs,
 * under the profile id. Same content, same id: a re-send after a crash is recognisably the same
 * upload, and identical chunks (a clip imported twice) share one upload.
 */
export function chunkRequestIds(profile: TensorProfile, chunk: TensorChunk): { embedding: string; tagging: string } {
  const audio = float32ToLittleEndian(chunk.audio);
  return {
    embedding: tensorRequestId({ profileId: profile.id, service: 'embedding', contents: [chunk.videoShape.join('x'), chunk.video, chunk.audioShape.join('x'), audio] }),
    tagging: tensorRequestId({ profileId: profile.id, service: 'tagging', contents: [chunk.videoShape.join('x'), chunk.video, chunk.videoKwargs as unknown as Record<string, unknown>] }),
  };
}

/** A shot's chunks as planned: the profile's frame limit and the byte budget. */
export function planChunks(frames: ShotFrames, profile: TensorProfile, budget: number): TensorChunk[] {
  return chunkShot(frames, profile, budget);
}

/**
 * The chunk a segment stands for: the planned chunk `chunkIdx`, halved along `part` ('0' first
 * half, '1' second half, repeated for each split after a 413).
 */
export function chunkForSegment(planned: readonly TensorChunk[], chunkIdx: number, part: string, profile: TensorProfile): TensorChunk {
  let chunk = planned[chunkIdx];
  if (!chunk) throw new AppError('internal', `chunk ${chunkIdx} is not in the plan of ${planned.length} chunks`);
  for (const c of part) {
    const halves = splitChunk(chunk, profile);
    chunk = halves[c === '1' ? 1 : 0]!;
  }
  return chunk;
}
