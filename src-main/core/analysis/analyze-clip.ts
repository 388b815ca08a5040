import { AppError, toAppError } from '../../../src-shared/errors';
import { detectorGeometry, displaySize, fitGeometry, motionGeometry, type FitGeometry } from '../tensors/frame-geometry';
import { readStills, type RenderedStills, type StillsRequest } from '../media/stills';
import { AudioWindow, decodeRangeOf, GRID_EPS, gridTime, sampleIndex, ShotCursor } from '../tensors/shot-grid';
import { chunkShot, type ShotFrames } from '../tensors/shot-chunks';
import { DEFAULT_TENSOR_PROFILE, type TensorProfile } from '../tensors/tensor-profile';
import { AnalysisPool } from './analysis-pool';
import { DEFAULT_ANALYSIS_SETTINGS, type AnalysisSettings } from './analysis-settings';
import type { FrameFaces, ShotAnalysis } from './analysis-types';
import { classifyMotion } from './camera-motion';
import { ClipDecoder, firstFramesAt, type VideoOutput } from './clip-decoder';
import { localTagsFor, summarizeFaces } from './local-tags';
import { probeSource, type SourceInfo } from './source-info';
import type { MotionStep } from './workers/block-motion.cjs';
import type { RawFace } from './workers/yunet.cjs';

export interface AnalyzeShotInput {
  id: number;
  startS: number;
  endS: number;
}

export interface AnalyzeProgress {
  /** 0..1 of the decoded time range. */
  fraction: number;
  shotsDone: number;
  shotsTotal: number;
}

export interface AnalyzeClipOptions {
  filePath: string;
  shots: readonly AnalyzeShotInput[];
  profile?: TensorProfile;
  settings?: Partial<AnalysisSettings>;
  signal?: AbortSignal;
  onProgress?: (p: AnalyzeProgress) => void;
  /** Called as each shot completes, tensors included; with retainTensors false this is the only place they appear. */
  onShot?: (shot: ShotAnalysis) => void;
  /** Keep every shot's tensor chunks in the result (default true). Long clips: stream through onShot instead. */
  retainTensors?: boolean;
  /** Each shot's sampled frames and audio as the tensors are cut from them (the pipeline plans its uploads from these). */
  onTensorFrames?: (frames: ShotFrames) => void;
  /** Posters and filmstrip made by the same decode. */
  stills?: StillsRequest;
  /** A shared pool (one per job run); a private one is made and closed when omitted. */
  pool?: AnalysisPool;
  /** Known source facts (from the catalog) to skip the probe. */
  source?: SourceInfo;
  ffmpegPath?: string;
}

export interface AnalyzeClipResult {
  profileId: string;
  source: SourceInfo;
  /** In the order the shots were given. */
  shots: ShotAnalysis[];
  /** What `stills` asked for, once written; null when not asked. */
  stills: RenderedStills | null;
  stats: { decodeMs: number; totalMs: number; framesDecoded: number; fallbackShots: number };
}

interface ShotState {
  input: AnalyzeShotInput;
  frames: Uint8Array[];
  frameTimes: number[];
  faceFrames: number;
  faceBatch: Uint8Array[];
  faceBatchStart: number;
  faceTasks: Array<Promise<{ start: number; faces: RawFace[][] }>>;
  motionBatch: Uint8Array[];
  motionTasks: Array<Promise<MotionStep[]>>;
  audio: Float32Array | null;
  result: Promise<ShotAnalysis> | null;
}

const OUT_TENSOR = 0;
const OUT_FACES = 1;
const OUT_MOTION = 2;

function checkShots(shots: readonly AnalyzeShotInput[]): AnalyzeShotInput[] {
  const sorted = [...shots].sort((a, b) => a.startS - b.startS);
  for (const [i, s] of sorted.entries()) {
    if (!Number.isFinite(s.startS) || !Number.isFinite(s.endS) || s.startS < 0 || s.endS <= s.startS) {
      throw new AppError('invalid', `shot ${s.id} has an empty or invalid range ${s.startS}..${s.endS}`);
    }
    const prev = sorted[i - 1];
    if (prev && s.startS < prev.endS - 1e-3) throw new AppError('invalid', `shots ${prev.id} and ${s.id} overlap`);
  }
  return sorted;
}

function noop(): void {}

/**
 * Local preprocessing of one clip, the clip's one full decode after shot detection: one ffmpeg
 * process decodes from the start of the file to the last shot's end and feeds every consumer:
 * profile-size RGB frames for the video tensor, detector-size BGR frames for faces, small gray
 * frames for motion, mono PCM for the audio tensor, and (when asked) the per-shot posters and the
 * filmstrip, which ffmpeg writes itself. Faces and motion run in the worker pool while decoding
 * continues; each shot is chunked and tagged as soon as the decoder has passed its end. Shots with
 * no sample on the frame grid (shorter than 1/fps) get one frame from a seek to their midpoint
 * (a one-frame decode, counted apart from the full decode).
 */
export async function analyzeClip(opts: AnalyzeClipOptions): Promise<AnalyzeClipResult> {
  const t0 = performance.now();
  const profile = opts.profile ?? DEFAULT_TENSOR_PROFILE;
  const settings: AnalysisSettings = { ...DEFAULT_ANALYSIS_SETTINGS, ...opts.settings };
  const retain = opts.retainTensors ?? true;
  const signal = opts.signal;
  if (signal?.aborted) throw new AppError('cancelled', 'analysis cancelled');
  if (opts.shots.length === 0) {
    const source = opts.source ?? (await probeSource(opts.filePath, { signal }));
    return { profileId: profile.id, source, shots: [], stills: null, stats: { decodeMs: 0, totalMs: 0, framesDecoded: 0, fallbackShots: 0 } };
  }
  const shots = checkShots(opts.shots);
  const source = opts.source ?? (await probeSource(opts.filePath, { signal }));
  const disp = displaySize(source.width, source.height, source.sar);
  const geom: FitGeometry[] = [];
  geom[OUT_TENSOR] = fitGeometry(disp.width, disp.height, profile.frameWidth, profile.frameHeight, profile.fit);
  geom[OUT_FACES] = detectorGeometry(disp.width, disp.height, settings.faceInputLongSide);
  geom[OUT_MOTION] = motionGeometry(disp.width, disp.height, settings.motionLongSide);
  const outputs: VideoOutput[] = [
    { name: 'tensor', fps: profile.fps, geometry: geom[OUT_TENSOR]!, pixFmt: 'rgb24' },
    { name: 'faces', fps: profile.fps, geometry: geom[OUT_FACES]!, pixFmt: 'bgr24' },
    { name: 'motion', fps: settings.motionFps, geometry: geom[OUT_MOTION]!, pixFmt: 'gray' },
  ];

  // From the start of the file: the grid's origin (tensors/shot-grid.ts), and the stills' frame numbers.
  const { startS: rangeStart, endS: rangeEnd } = decodeRangeOf(shots, source.durationS);
  const rate = profile.audioSampleRate;

  const pool = opts.pool ?? new AnalysisPool();
  const ownPool = !opts.pool;
  const faceGeom = geom[OUT_FACES]!;
  const motionGeom = geom[OUT_MOTION]!;

  const states: ShotState[] = shots.map((input) => ({
    input,
    frames: [],
    frameTimes: [],
    faceFrames: 0,
    faceBatch: [],
    faceBatchStart: 0,
    faceTasks: [],
    motionBatch: [],
    motionTasks: [],
    audio: null,
    result: null,
  }));
  const byId = new Map<number, ShotAnalysis>();
  let shotsDone = 0;
  let firstError: AppError | null = null;
  let decoder: ClipDecoder | null = null;
  const fail = (e: unknown) => {
    if (!firstError) firstError = toAppError(e);
    decoder?.kill();
  };

  // Per-output cursor: the shot that the next frame on that output may belong to.
  const cursors = [0, 1, 2].map(() => new ShotCursor(states.map((st) => ({ startS: st.input.startS, endS: st.input.endS, st }))));
  const counts = [0, 0, 0];
  const fpsOf = [profile.fps, profile.fps, settings.motionFps];
  const shotAt = (output: number, t: number): ShotState | null => cursors[output]!.at(t)?.st ?? null;

  // Audio kept from the earliest shot not yet finalised onwards.
  const audio = new AudioWindow();
  const sampleAt = (t: number) => sampleIndex(t, rate);

  const flushFaces = (s: ShotState) => {
    if (s.faceBatch.length === 0) return;
    const start = s.faceBatchStart;
    const frames = s.faceBatch;
    s.faceBatch = [];
    s.faceBatchStart = s.faceFrames;
    const p = pool
      .detectFaces(
        {
          width: faceGeom.outWidth,
          height: faceGeom.outHeight,
          contentWidth: faceGeom.content.width,
          contentHeight: faceGeom.content.height,
          frames,
          scoreThreshold: settings.faceScoreThreshold,
          nmsThreshold: settings.faceNmsThreshold,
          topK: settings.faceTopK,
        },
        signal,
      )
      .then((faces) => ({ start, faces }));
    p.catch(fail);
    s.faceTasks.push(p);
  };
  const flushMotion = (s: ShotState, final: boolean) => {
    if (s.motionBatch.length < 2) {
      if (final) s.motionBatch = [];
      return;
    }
    const frames = s.motionBatch;
    // The next batch starts from this batch's last frame so no step between batches is lost.
    s.motionBatch = final ? [] : [frames[frames.length - 1]!.slice()];
    const p = pool.estimateMotion({ width: motionGeom.outWidth, height: motionGeom.outHeight, frames }, signal);
    p.catch(fail);
    s.motionTasks.push(p);
  };

  let fallbackShots = 0;

  const buildResult = async (s: ShotState, fallback: boolean): Promise<ShotAnalysis> => {
    const faceParts = await Promise.all(s.faceTasks);
    const stepParts = await Promise.all(s.motionTasks);
    const faces: FrameFaces[] = s.frameTimes.map((timeS, frameIndex) => ({ frameIndex, timeS, faces: [] }));
    for (const part of faceParts) {
      part.faces.forEach((list, k) => {
        const slot = faces[part.start + k];
        if (slot) slot.faces = list.map((f) => ({ x: f.x, y: f.y, w: f.w, h: f.h, score: f.score, landmarks: f.landmarks }));
      });
    }
    const steps = stepParts.flat();
    const motion = classifyMotion(steps, motionGeom.outWidth, 1 / settings.motionFps, settings.motionThresholds);
    const shotFrames: ShotFrames = {
      shotId: s.input.id,
      startS: s.input.startS,
      endS: s.input.endS,
      frames: s.frames,
      frameTimes: s.frameTimes,
      audio: s.audio ?? new Float32Array(0),
      sourceWidth: disp.width,
      sourceHeight: disp.height,
      content: geom[OUT_TENSOR]!.content,
    };
    opts.onTensorFrames?.(shotFrames);
    const chunks = chunkShot(shotFrames, profile);
    const analysis: ShotAnalysis = {
      shotId: s.input.id,
      startS: s.input.startS,
      endS: s.input.endS,
      frameTimes: s.frameTimes.slice(),
      chunks,
      faces,
      motion,
      localTags: localTagsFor(summarizeFaces(faces, settings.tagFaceMinScore), motion),
      singleFrameFallback: fallback,
    };
    s.frames = [];
    s.audio = null;
    opts.onShot?.(analysis);
    if (!retain) analysis.chunks = [];
    byId.set(s.input.id, analysis);
    shotsDone++;
    return analysis;
  };

  const pendingFallback: ShotState[] = [];
  const finalize = (s: ShotState) => {
    flushFaces(s);
    flushMotion(s, true);
    s.audio = audio.take(sampleAt(s.input.startS), sampleAt(s.input.endS));
    if (s.frames.length === 0) {
      pendingFallback.push(s);
      return;
    }
    s.result = buildResult(s, false);
    s.result.catch(fail);
  };

  let nextToFinalize = 0;
  let decodeEnded = false;
  const streamPast = (t: number) => {
    if (decodeEnded) return true;
    for (let o = 0; o < outputs.length; o++) if (rangeStart + counts[o]! / fpsOf[o]! < t - GRID_EPS) return false;
    if (source.hasAudio && audio.total < sampleAt(t)) return false;
    return true;
  };
  const advance = () => {
    while (nextToFinalize < states.length && streamPast(states[nextToFinalize]!.input.endS)) {
      finalize(states[nextToFinalize]!);
      nextToFinalize++;
      const next = states[nextToFinalize];
      audio.dropBefore(next ? sampleAt(next.input.startS) : Number.MAX_SAFE_INTEGER);
    }
  };

  let lastProgress = -1;
  const progress = (decodedS: number) => {
    if (!opts.onProgress) return;
    const fraction = Math.min(1, Math.max(0, (decodedS - rangeStart) / Math.max(1e-3, rangeEnd - rangeStart)));
    if (fraction - lastProgress < 0.01 && fraction < 1) return;
    lastProgress = fraction;
    opts.onProgress({ fraction, shotsDone, shotsTotal: states.length });
  };

  const backpressure = () => {
    if (!decoder || pool.hasRoom()) return;
    const d = decoder;
    d.pause();
    void pool.waitForRoom().then(() => d.resume());
  };

  let framesDecoded = 0;
  const tDecode = performance.now();
  decoder = new ClipDecoder(
    {
      filePath: opts.filePath,
      startS: rangeStart,
      durationS: rangeEnd - rangeStart,
      outputs,
      audioRate: source.hasAudio ? rate : null,
      stills: opts.stills,
      ffmpegPath: opts.ffmpegPath,
      signal,
    },
    {
      onFrame: (o, frame, index) => {
        counts[o] = index + 1;
        const t = rangeStart + gridTime(index, fpsOf[o]!);
        const s = shotAt(o, t);
        if (s) {
          if (o === OUT_TENSOR) {
            s.frames.push(frame);
            s.frameTimes.push(t);
            framesDecoded++;
            progress(t);
          } else if (o === OUT_FACES) {
            s.faceBatch.push(frame);
            s.faceFrames++;
            if (s.faceBatch.length >= settings.faceBatchFrames) flushFaces(s);
          } else {
            s.motionBatch.push(frame);
            if (s.motionBatch.length >= settings.motionBatchFrames) flushMotion(s, false);
          }
        }
        advance();
        backpressure();
      },
      onAudio: (samples) => {
        audio.push(samples);
        advance();
      },
    },
  );

  try {
    try {
      await decoder.run();
    } catch (e) {
      throw firstError ?? e;
    }
    const decodeMs = performance.now() - tDecode;
    decodeEnded = true;
    advance();
    audio.clear();
    const stills = opts.stills ? readStills(opts.stills) : null;

    for (const s of pendingFallback) {
      if (firstError) break;
      await decodeSingleFrame(s);
      fallbackShots++;
    }
    await Promise.all(states.map((s) => s.result).filter((p): p is Promise<ShotAnalysis> => p !== null));
    if (firstError) throw firstError;
    progress(rangeEnd);
    return {
      profileId: profile.id,
      source,
      shots: opts.shots.map((s) => byId.get(s.id)!),
      stills,
      stats: { decodeMs, totalMs: performance.now() - t0, framesDecoded, fallbackShots },
    };
  } catch (e) {
    if (signal?.aborted) throw new AppError('cancelled', 'analysis cancelled');
    throw firstError ?? toAppError(e);
  } finally {
    // Results still in flight after a failure must not surface as unhandled rejections.
    for (const s of states) {
      s.result?.catch(noop);
      for (const p of s.faceTasks) p.catch(noop);
      for (const p of s.motionTasks) p.catch(noop);
    }
    if (ownPool) await pool.close();
  }

  /** One frame at the midpoint of a shot shorter than the sampling interval, for tensor and faces. */
  async function decodeSingleFrame(s: ShotState): Promise<void> {
    const mid = (s.input.startS + s.input.endS) / 2;
    const [tensor, face] = await firstFramesAt(opts.filePath, mid, [outputs[OUT_TENSOR]!, outputs[OUT_FACES]!], { ffmpegPath: opts.ffmpegPath, signal });
    if (tensor) {
      s.frames.push(tensor);
      s.frameTimes.push(mid);
    }
    if (face) {
      s.faceBatch.push(face);
      s.faceFrames = 1;
    }
    flushFaces(s);
    if (s.frames.length === 0) {
      // Nothing decodable there (past the end of the stream): the shot gets no tensor and no tags.
      s.faceTasks = [];
    }
    s.result = buildResult(s, true);
    s.result.catch(fail);
  }
}
