import { createHash } from 'node:crypto';
import { AppError } from '../../../../src-shared/errors';
import type { CatalogDb } from '../../catalog/open-catalog';
import { shotsOfClip } from '../../library/shot-store';
import { ClipDecoder, firstFramesAt } from '../../media/clip-decoder';
import { tensorRequestId } from '../../service/tensor';
import { chunkShot, splitChunk, type ShotFrames, type TensorChunk } from '../../tensors/shot-chunks';
import { gridTime } from '../../media/frame-grid';
import { AudioWindow, GRID_EPS, sampleIndex, ShotCursor, tensorOutput } from '../../tensors/shot-grid';
import { littleEndianBytes } from '../../tensors/tensor-codec';
import type { TensorProfile } from '../../tensors/tensor-profile';

/** What decoding needs to know about the source, read once from the catalog (stable across runs). */
export interface TensorSource {
  filePath: string;
  /** Options before -i (a remote clip's relay: remote/remote-input.ts). */
  inputArgs?: readonly string[];
  /** Displayed size (rotation applied). */
  width: number;
  height: number;
  sar: number;
  hasAudio: boolean;
  /** The probe's duration (closes the last shot; measures progress). */
  durationS: number | null;
}

export interface ShotSpan {
  id: number;
  startS: number;
  endS: number;
}

/** A clip's shots in order, as the tensors cut them (read from the library's shot store, the owner of `shots`). */
export function shotSpansOf(db: CatalogDb, clipId: number): ShotSpan[] {
  return shotsOfClip(db, clipId).map((s) => ({ id: s.id, startS: s.start_s, endS: s.end_s }));
}

/**
 * Decodes one range (Tag this range now) at the profile's frame rate and size, with its mono
 * audio. A range shorter than one frame interval gets a single frame from its midpoint.
 */
export async function decodeRange(src: TensorSource, shot: ShotSpan, profile: TensorProfile, opts: { signal?: AbortSignal; ffmpeg?: string } = {}): Promise<ShotFrames> {
  const { output, disp, content } = tensorOutput(src, profile);
  const duration = shot.endS - shot.startS;
  if (!(duration > 0)) throw new AppError('invalid', `shot ${shot.id} has an empty range`);
  const frames: Uint8Array[] = [];
  const frameTimes: number[] = [];
  const audioParts: Float32Array[] = [];
  await new ClipDecoder(
    { filePath: src.filePath, inputArgs: src.inputArgs, startS: shot.startS, durationS: duration, outputs: [output], audioRate: src.hasAudio ? profile.audioSampleRate : null, ffmpegPath: opts.ffmpeg, signal: opts.signal },
    {
      onFrame: (_o, frame, index) => {
        const t = shot.startS + index / profile.fps;
        if (t < shot.endS - GRID_EPS) {
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
      const [frame] = await firstFramesAt(src.filePath, start, [output], { ffmpegPath: opts.ffmpeg, signal: opts.signal, inputArgs: src.inputArgs });
      if (frame) {
        frames.push(frame);
        frameTimes.push(Math.min(Math.max(start, shot.startS), shot.endS - GRID_EPS));
        break;
      }
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
    content,
  };
}

/**
 * Rebuilds the sampled frames of some of a clip's shots exactly as analysis made them (decoded
 * from the start of the file with the same filters, on the same grid: tensors/shot-grid.ts), for
 * tensors evicted from memory or lost in a restart. One decode for all of them: each wanted shot is
 * handed to `use` in time order while the decoder waits, and decoding stops once the last one is
 * out.
 */
export async function rebuildShotFrames(
  src: TensorSource,
  shots: readonly ShotSpan[],
  profile: TensorProfile,
  opts: { signal?: AbortSignal; ffmpeg?: string; threads?: number },
  use: (frames: ShotFrames) => Promise<void>,
): Promise<void> {
  const targets = [...shots].sort((a, b) => a.startS - b.startS);
  if (targets.length === 0) return;
  const { output, disp, content } = tensorOutput(src, profile);
  const rate = profile.audioSampleRate;
  const collected = new Map(targets.map((s) => [s.id, { frames: [] as Uint8Array[], frameTimes: [] as number[] }]));
  const cursor = new ShotCursor(targets);
  const audio = new AudioWindow();
  let frameCount = 0;
  let decodeEnded = false;
  let next = 0;
  const ready: ShotFrames[] = [];
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const passed = (t: number) =>
    decodeEnded || (gridTime(frameCount, profile.fps) >= t - GRID_EPS && (!src.hasAudio || audio.total >= sampleIndex(t, rate)));
  const advance = () => {
    while (next < targets.length && passed(targets[next]!.endS)) {
      const s = targets[next]!;
      const got = collected.get(s.id)!;
      collected.delete(s.id);
      ready.push({
        shotId: s.id,
        startS: s.startS,
        endS: s.endS,
        frames: got.frames,
        frameTimes: got.frameTimes,
        audio: audio.take(sampleIndex(s.startS, rate), sampleIndex(s.endS, rate)),
        sourceWidth: disp.width,
        sourceHeight: disp.height,
        content,
      });
      next++;
      const after = targets[next];
      audio.dropBefore(after ? sampleIndex(after.startS, rate) : Number.MAX_SAFE_INTEGER);
      poke();
    }
  };
  const decoder = new ClipDecoder(
    { filePath: src.filePath, startS: 0, outputs: [output], audioRate: src.hasAudio ? rate : null, ffmpegPath: opts.ffmpeg, threads: opts.threads, signal: opts.signal },
    {
      onFrame: (_o, frame, index) => {
        frameCount = index + 1;
        const t = gridTime(index, profile.fps);
        const s = cursor.at(t);
        if (s) {
          const got = collected.get(s.id)!;
          got.frames.push(frame);
          got.frameTimes.push(t);
        }
        advance();
      },
      onAudio: (samples) => {
        audio.push(samples);
        advance();
      },
    },
  );
  let stoppedEarly = false;
  const decoding = decoder.run().then(
    () => {
      decodeEnded = true;
      advance();
      poke();
    },
    (e: unknown) => {
      decodeEnded = true;
      poke();
      if (!stoppedEarly) throw e;
    },
  );
  // The decode's failure surfaces through `decoding` below, not as an unhandled rejection meanwhile.
  decoding.catch(() => undefined);
  try {
    let handed = 0;
    while (handed < targets.length) {
      const f = ready.shift();
      if (!f) {
        if (decodeEnded) break;
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      decoder.pause();
      if (f.frames.length === 0) await singleFrame(f);
      await use(f);
      handed++;
      if (handed === targets.length && !decodeEnded) {
        stoppedEarly = true;
        decoder.kill();
      }
      decoder.resume();
    }
  } catch (e) {
    stoppedEarly = true;
    decoder.kill();
    await decoding.catch(() => undefined);
    throw e;
  }
  await decoding;

  /** As analysis does for a shot with no grid point: one frame from a seek to its midpoint. */
  async function singleFrame(f: ShotFrames): Promise<void> {
    const mid = (f.startS + f.endS) / 2;
    const [frame] = await firstFramesAt(src.filePath, mid, [output], { ffmpegPath: opts.ffmpeg, signal: opts.signal });
    if (frame) {
      (f.frames as Uint8Array[]).push(frame);
      (f.frameTimes as number[]).push(mid);
    }
  }
}

/** The upload content of one chunk, hashed: video bytes, audio bytes (LE) and the kwargs. */
export function chunkContentSha(chunk: TensorChunk): string {
  const h = createHash('sha256');
  h.update(chunk.videoShape.join('x'));
  h.update(Buffer.from(chunk.video.buffer, chunk.video.byteOffset, chunk.video.byteLength));
  h.update(`|${chunk.audioShape.join('x')}|`);
  // A view of the samples where the host is little-endian (a copy elsewhere): the same bytes as a
  // portable copy, without a DataView write per sample for every hash of every chunk.
  h.update(littleEndianBytes(chunk.audio));
  h.update(JSON.stringify(chunk.videoKwargs));
  return h.digest('hex');
}

/**
 * Request ids from what each upload carries: embedding = video + audio, tagging = video + kwargs,
 * under the profile id. Same content, same id: a re-send after a crash is recognisably the same
 * upload, and identical chunks (a clip imported twice) share one upload.
 */
export function chunkRequestIds(profile: TensorProfile, chunk: TensorChunk): { embedding: string; tagging: string } {
  const audio = littleEndianBytes(chunk.audio);
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
