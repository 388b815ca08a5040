import { AppError, toAppError } from '../../../src-shared/errors';
import { ClipDecoder, firstFramesAt, type VideoOutput } from '../media/clip-decoder';
import { SHOT_OUTPUT } from '../media/detect-shots-in-file';
import { ShotDetector, type ShotDetection, type ShotDetectorOptions } from '../media/shot-detector';
import type { ProxyRequest } from '../media/proxy-branch';
import { readStills, type RenderedStills, type StillsRequest } from '../media/stills';
import { detectorGeometry, motionGeometry, type FitGeometry } from '../media/frame-geometry';
import { FrameSpool } from '../tensors/frame-spool';
import { chunkShot, type ShotFrames } from '../tensors/shot-chunks';
import { AudioSpool } from '../tensors/audio-spool';
import { gridTime } from '../media/frame-grid';
import { sampleIndex, ShotCursor, tensorOutput } from '../tensors/shot-grid';
import { DEFAULT_TENSOR_PROFILE, type TensorProfile } from '../tensors/tensor-profile';
import { AnalysisPool } from './analysis-pool';
import { DEFAULT_ANALYSIS_SETTINGS, type AnalysisSettings } from './analysis-settings';
import type { FrameFaces, ShotAnalysis } from './analysis-types';
import { classifyMotion } from './camera-motion';
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
  /** 0..1 of the decode. */
  fraction: number;
  /** Known once the decode is done when the shots are detected in it. */
  shotsTotal: number | null;
}

/** Shot detection in the same decode: every frame also goes to a ShotDetector. */
export interface DetectShotsRequest {
  cutOptions?: Partial<ShotDetectorOptions>;
  /** Closes the last shot (the probe's duration); null: the last frame's time plus one frame. */
  durationS: number | null;
  /** Stores what was found and returns the shots, with their ids, that the analysis is for. */
  save: (detection: ShotDetection) => readonly AnalyzeShotInput[];
}

export interface AnalyzeClipOptions {
  filePath: string;
  /** The clip's shots, or how to find and store them in the same decode. */
  shots: readonly AnalyzeShotInput[] | DetectShotsRequest;
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
  /** A viewing proxy written by the same decode (media/proxy-branch.ts); the caller keeps or drops the file. */
  proxy?: ProxyRequest;
  /** A shared pool (one per job run); a private one is made and closed when omitted. */
  pool?: AnalysisPool;
  /** Known source facts (from the catalog) to skip the probe. */
  source?: SourceInfo;
  ffmpegPath?: string;
  /** The decode's threads (DecodeRequest.threads). */
  threads?: number;
  /** Bytes of tensor frames and of audio kept in memory while the decode runs; the rest waits in a temporary file. */
  spoolMemory?: { frames?: number; audio?: number };
}

export interface AnalyzeClipResult {
  profileId: string;
  source: SourceInfo;
  /** In the order the shots were given (or detected). */
  shots: ShotAnalysis[];
  /** What `stills` asked for, once written, posters in the order of `shots`; null when not asked. */
  stills: RenderedStills | null;
  stats: { decodeMs: number; totalMs: number; framesDecoded: number; fallbackShots: number };
}

const OUT_TENSOR = 0;
const OUT_FACES = 1;
const OUT_MOTION = 2;
const OUT_SHOTS = 3;

/** 128 MB: about 7 minutes of tensor frames at 224x224, 2 fps; a longer clip's rest waits on disk. */
const DEFAULT_FRAME_MEMORY = 128 * 1024 * 1024;
/** 32 MB: about 8 minutes of 16 kHz mono float32. */
const AUDIO_MEMORY = 32 * 1024 * 1024;

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
 * The raw video outputs of a clip's analysis decode, in the OUT_* order: tensor frames, face
 * detector frames, gray motion frames and, when the shots are found in the same decode, every
 * frame for the detector.
 */
export function analysisOutputs(
  source: Pick<SourceInfo, 'width' | 'height' | 'sar'>,
  profile: TensorProfile,
  settings: AnalysisSettings,
  detect: boolean,
): { outputs: VideoOutput[]; tensor: ReturnType<typeof tensorOutput>; faceGeom: FitGeometry; motionGeom: FitGeometry } {
  const tensor = tensorOutput(source, profile);
  const faceGeom = detectorGeometry(tensor.disp.width, tensor.disp.height, settings.faceInputLongSide);
  const motionGeom = motionGeometry(tensor.disp.width, tensor.disp.height, settings.motionLongSide);
  const outputs: VideoOutput[] = [
    tensor.output,
    { name: 'faces', fps: profile.fps, geometry: faceGeom, pixFmt: 'bgr24' },
    { name: 'motion', fps: settings.motionFps, geometry: motionGeom, pixFmt: 'gray' },
  ];
  if (detect) outputs[OUT_SHOTS] = SHOT_OUTPUT;
  return { outputs, tensor, faceGeom, motionGeom };
}

/** Runs of consecutive frames on a grid whose times fall in one shot: [first, end) indices per shot. */
function framesPerShot(shots: readonly AnalyzeShotInput[], count: number, fps: number): Map<number, { first: number; end: number }> {
  const cursor = new ShotCursor(shots);
  const out = new Map<number, { first: number; end: number }>();
  for (let k = 0; k < count; k++) {
    const s = cursor.at(gridTime(k, fps));
    if (!s) continue;
    const r = out.get(s.id);
    if (r) r.end = k + 1;
    else out.set(s.id, { first: k, end: k + 1 });
  }
  return out;
}

/**
 * Local preprocessing of one clip in its one full decode: one ffmpeg process decodes the file from
 * its start and feeds every consumer at once: every frame at 64x36 for shot detection (when the
 * shots are not known yet), profile-size RGB frames for the video tensor, detector-size BGR frames
 * for faces, small gray frames for motion, mono PCM for the audio tensor, and (when asked) poster
 * candidates and the filmstrip, which ffmpeg writes itself. Faces and motion do not depend on the
 * shots: they run in the worker pool while decoding continues, frame by frame and step by step.
 * The tensor frames and the audio wait (tensors/frame-spool.ts, audio-spool.ts: memory, then a
 * temporary file) until the decode is over and the shots are found; then every shot gets its
 * frames, faces, motion steps (those between two of its own frames), audio and poster, and is
 * chunked and tagged. Shots with no sample on the frame grid (shorter than 1/fps) get one frame
 * from a seek to their midpoint (a one-frame decode, counted apart from the full decode).
 */
export async function analyzeClip(opts: AnalyzeClipOptions): Promise<AnalyzeClipResult> {
  const t0 = performance.now();
  const profile = opts.profile ?? DEFAULT_TENSOR_PROFILE;
  const settings: AnalysisSettings = { ...DEFAULT_ANALYSIS_SETTINGS, ...opts.settings };
  const retain = opts.retainTensors ?? true;
  const signal = opts.signal;
  if (signal?.aborted) throw new AppError('cancelled', 'analysis cancelled');
  const detect = Array.isArray(opts.shots) ? null : (opts.shots as DetectShotsRequest);
  const given = detect ? null : checkShots(opts.shots as readonly AnalyzeShotInput[]);
  const source = opts.source ?? (await probeSource(opts.filePath, { signal }));
  if (given && given.length === 0) {
    return { profileId: profile.id, source, shots: [], stills: null, stats: { decodeMs: 0, totalMs: 0, framesDecoded: 0, fallbackShots: 0 } };
  }
  const { outputs, tensor, faceGeom, motionGeom } = analysisOutputs(source, profile, settings, !!detect);
  const disp = tensor.disp;
  const rate = profile.audioSampleRate;
  const pool = opts.pool ?? new AnalysisPool();
  const ownPool = !opts.pool;

  const tensorFrames = new FrameSpool(tensor.output.geometry.outWidth * tensor.output.geometry.outHeight * 3, opts.spoolMemory?.frames ?? DEFAULT_FRAME_MEMORY);
  const audio = new AudioSpool(opts.spoolMemory?.audio ?? AUDIO_MEMORY);
  const detector = detect ? new ShotDetector(detect.cutOptions) : null;
  /** Faces of face frame k (the tensor grid), filled in as the pool answers. */
  const facesAt: RawFace[][] = [];
  /** Motion step j: from motion frame j to j + 1. */
  const stepsFrom: MotionStep[] = [];
  const tasks: Array<Promise<unknown>> = [];
  let firstError: AppError | null = null;
  let decoder: ClipDecoder | null = null;
  const fail = (e: unknown) => {
    if (!firstError) firstError = toAppError(e);
    decoder?.kill();
  };
  const track = (p: Promise<unknown>) => {
    p.catch(fail);
    tasks.push(p);
  };

  let faceBatch: Uint8Array[] = [];
  let faceBatchStart = 0;
  const faceTask = (frames: Uint8Array[]) =>
    pool.detectFaces(
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
    );
  const flushFaces = () => {
    if (faceBatch.length === 0) return;
    const start = faceBatchStart;
    const frames = faceBatch;
    faceBatchStart += frames.length;
    faceBatch = [];
    track(faceTask(frames).then((faces) => faces.forEach((list, k) => (facesAt[start + k] = list))));
  };
  let motionBatch: Uint8Array[] = [];
  let motionBatchStart = 0;
  const flushMotion = () => {
    if (motionBatch.length < 2) return;
    const start = motionBatchStart;
    const frames = motionBatch;
    // The next batch starts from this batch's last frame so no step between batches is lost.
    motionBatchStart += frames.length - 1;
    motionBatch = [frames[frames.length - 1]!.slice()];
    track(pool.estimateMotion({ width: motionGeom.outWidth, height: motionGeom.outHeight, frames }, signal).then((steps) => steps.forEach((st, k) => (stepsFrom[start + k] = st))));
  };

  let lastProgress = -1;
  const progress = (fraction: number, shotsTotal: number | null) => {
    if (!opts.onProgress || (fraction - lastProgress < 0.01 && fraction < 1)) return;
    lastProgress = fraction;
    opts.onProgress({ fraction: Math.min(1, Math.max(0, fraction)), shotsTotal });
  };
  const span = source.durationS && source.durationS > 0 ? source.durationS : null;

  const backpressure = () => {
    if (!decoder || pool.hasRoom()) return;
    const d = decoder;
    d.pause();
    void pool.waitForRoom().then(() => d.resume());
  };

  let motionFrames = 0;
  const tDecode = performance.now();
  decoder = new ClipDecoder(
    {
      filePath: opts.filePath,
      startS: 0,
      outputs,
      audioRate: source.hasAudio ? rate : null,
      stills: opts.stills,
      proxy: opts.proxy,
      ffmpegPath: opts.ffmpegPath,
      threads: opts.threads,
      signal,
    },
    {
      onFrame: (o, frame) => {
        if (o === OUT_TENSOR) {
          tensorFrames.push(frame);
          if (span) progress(gridTime(tensorFrames.length, profile.fps) / span, given?.length ?? null);
        } else if (o === OUT_FACES) {
          faceBatch.push(frame);
          if (faceBatch.length >= settings.faceBatchFrames) flushFaces();
        } else if (o === OUT_MOTION) {
          motionFrames++;
          motionBatch.push(frame);
          if (motionBatch.length >= settings.motionBatchFrames) flushMotion();
        } else {
          // The time arrives later on ffmpeg's log; retime() sets them all once the decode is over.
          detector!.push(frame, Number.NaN);
        }
        backpressure();
      },
      onAudio: (samples) => audio.push(samples),
    },
  );

  let fallbackShots = 0;
  try {
    const decoded = await decoder.run().catch((e: unknown) => {
      throw firstError ?? e;
    });
    const decodeMs = performance.now() - tDecode;
    flushFaces();
    flushMotion();
    // Every face and motion answer is in before anything is stored: a failed task fails the clip
    // without leaving shots in the catalog that no analysis went with.
    await Promise.all(tasks);
    if (firstError) throw firstError;

    let shots: AnalyzeShotInput[];
    if (detect) {
      if (decoded.frameTimes.length === 0) throw new AppError('media', 'no frame could be decoded');
      detector!.retime(decoded.frameTimes);
      shots = checkShots(detect.save(detector!.finish(detect.durationS)));
    } else {
      shots = given!;
    }
    const stills = opts.stills ? readStills(opts.stills, shots) : null;

    const tensorRuns = framesPerShot(shots, tensorFrames.length, profile.fps);
    const motionRuns = framesPerShot(shots, motionFrames, settings.motionFps);
    const results: ShotAnalysis[] = [];
    for (const shot of shots) {
      // Each shot's chunking and hashing is a burst of synchronous work: let the event loop in between.
      await new Promise<void>((r) => setImmediate(r));
      if (signal?.aborted) throw new AppError('cancelled', 'analysis cancelled');
      const run = tensorRuns.get(shot.id);
      const frames: Uint8Array[] = [];
      const frameTimes: number[] = [];
      let faceLists: RawFace[][] = [];
      if (run) {
        for (let k = run.first; k < run.end; k++) {
          frames.push(tensorFrames.get(k));
          frameTimes.push(gridTime(k, profile.fps));
          faceLists.push(facesAt[k] ?? []);
        }
      } else {
        const fallback = await singleFrame(shot);
        if (fallback.tensor) {
          frames.push(fallback.tensor);
          frameTimes.push(fallback.atS);
        }
        faceLists = fallback.faces;
        fallbackShots++;
      }
      const m = motionRuns.get(shot.id);
      const steps = m ? stepsFrom.slice(m.first, m.end - 1).filter(Boolean) : [];
      results.push(buildResult(shot, frames, frameTimes, faceLists, steps, audio.take(sampleIndex(shot.startS, rate), sampleIndex(shot.endS, rate)), !run));
    }
    progress(1, shots.length);
    // The caller's order (detected shots come sorted already).
    const order = given ? (opts.shots as readonly AnalyzeShotInput[]) : shots;
    return {
      profileId: profile.id,
      source,
      shots: reorder(results, shots, order),
      stills: stills ? { ...stills, posters: reorder(stills.posters, shots, order) } : null,
      stats: { decodeMs, totalMs: performance.now() - t0, framesDecoded: tensorFrames.length, fallbackShots },
    };
  } catch (e) {
    if (signal?.aborted) throw new AppError('cancelled', 'analysis cancelled');
    throw firstError ?? toAppError(e);
  } finally {
    // Work still in flight after a failure must not surface as unhandled rejections.
    for (const p of tasks) p.catch(noop);
    tensorFrames.close();
    audio.close();
    if (ownPool) await pool.close();
  }

  function buildResult(
    shot: AnalyzeShotInput,
    frames: Uint8Array[],
    frameTimes: number[],
    faceLists: RawFace[][],
    steps: MotionStep[],
    shotAudio: Float32Array,
    fallback: boolean,
  ): ShotAnalysis {
    const faces: FrameFaces[] = frameTimes.map((timeS, frameIndex) => ({
      frameIndex,
      timeS,
      faces: (faceLists[frameIndex] ?? []).map((f) => ({ x: f.x, y: f.y, w: f.w, h: f.h, score: f.score, landmarks: f.landmarks })),
    }));
    const motion = classifyMotion(steps, motionGeom.outWidth, 1 / settings.motionFps, settings.motionThresholds);
    const shotFrames: ShotFrames = {
      shotId: shot.id,
      startS: shot.startS,
      endS: shot.endS,
      frames,
      frameTimes,
      audio: shotAudio,
      sourceWidth: disp.width,
      sourceHeight: disp.height,
      content: tensor.content,
    };
    opts.onTensorFrames?.(shotFrames);
    const analysis: ShotAnalysis = {
      shotId: shot.id,
      startS: shot.startS,
      endS: shot.endS,
      frameTimes: frameTimes.slice(),
      // Chunking copies every tensor byte once more: only for a reader (the pipeline plans its own
      // from onTensorFrames and keeps none of these).
      chunks: retain || opts.onShot ? chunkShot(shotFrames, profile) : [],
      faces,
      motion,
      localTags: localTagsFor(summarizeFaces(faces, settings.tagFaceMinScore), motion),
      singleFrameFallback: fallback,
    };
    opts.onShot?.(analysis);
    if (!retain) analysis.chunks = [];
    return analysis;
  }

  /** One frame at the midpoint of a shot shorter than the sampling interval, for tensor and faces. */
  async function singleFrame(shot: AnalyzeShotInput): Promise<{ tensor: Uint8Array | null; atS: number; faces: RawFace[][] }> {
    const atS = (shot.startS + shot.endS) / 2;
    const [tensor, face] = await firstFramesAt(opts.filePath, atS, [outputs[OUT_TENSOR]!, outputs[OUT_FACES]!], { ffmpegPath: opts.ffmpegPath, signal });
    // Nothing decodable there (past the end of the stream): the shot gets no tensor and no tags.
    const faces = tensor && face ? await faceTask([face]) : [];
    return { tensor: tensor ?? null, atS, faces };
  }
}

/** Items made for `sorted` shots, put in the order of `wanted`. */
function reorder<T>(items: readonly T[], sorted: readonly AnalyzeShotInput[], wanted: readonly AnalyzeShotInput[]): T[] {
  const at = new Map(sorted.map((s, i) => [s.id, i]));
  return wanted.map((s) => items[at.get(s.id)!]!);
}
