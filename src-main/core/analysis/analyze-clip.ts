import { AppError, toAppError } from '../../../src-shared/errors';
import { ClipDecoder, firstFramesAt } from '../media/clip-decoder';
import { ShotDetector } from '../media/shot-detector';
import { readStills } from '../media/stills';
import { FrameSpool } from '../tensors/frame-spool';
import { chunkShot, type ShotFrames } from '../tensors/shot-chunks';
import { AudioSpool } from '../tensors/audio-spool';
import { gridTime } from '../media/frame-grid';
import { sampleIndex } from '../tensors/shot-grid';
import { DEFAULT_TENSOR_PROFILE } from '../tensors/tensor-profile';
import { AnalysisPool } from './analysis-pool';
import { DEFAULT_ANALYSIS_SETTINGS, type AnalysisSettings } from './analysis-settings';
import type { FrameFaces, ShotAnalysis } from './analysis-types';
import { analysisOutputs, OUT_FACES, OUT_MOTION, OUT_TENSOR } from './analysis-outputs';
import type { AnalyzeClipOptions, AnalyzeClipResult, AnalyzeShotInput, DetectShotsRequest } from './analyze-clip-options';
import { classifyMotion } from './camera-motion';
import { localTagsFor, summarizeFaces } from './local-tags';
import { PoolFeed } from './pool-feed';
import { checkShots, framesPerShot, reorder } from './shot-runs';
import { probeSource } from './source-info';
import type { MotionStep } from './workers/block-motion.cjs';
import type { RawFace } from './workers/yunet.cjs';

/** 128 MB: about 7 minutes of tensor frames at 224x224, 2 fps; a longer clip's rest waits on disk. */
const DEFAULT_FRAME_MEMORY = 128 * 1024 * 1024;
/** 32 MB: about 8 minutes of 16 kHz mono float32. */
const AUDIO_MEMORY = 32 * 1024 * 1024;

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
  const { outputs, tensor, faceGeom, motionGeom, identityGeom, identityOut } = analysisOutputs(source, profile, settings, !!detect);
  const disp = tensor.disp;
  const rate = profile.audioSampleRate;
  const pool = opts.pool ?? new AnalysisPool();
  const ownPool = !opts.pool;

  const tensorFrames = new FrameSpool(tensor.output.geometry.outWidth * tensor.output.geometry.outHeight * 3, opts.spoolMemory?.frames ?? DEFAULT_FRAME_MEMORY);
  const audio = new AudioSpool(opts.spoolMemory?.audio ?? AUDIO_MEMORY);
  const detector = detect ? new ShotDetector(detect.cutOptions) : null;
  let firstError: AppError | null = null;
  let decoder: ClipDecoder | null = null;
  const fail = (e: unknown) => {
    if (!firstError) firstError = toAppError(e);
    decoder?.kill();
  };
  const identity = identityGeom && { geom: identityGeom, sourceWidth: disp.width, sourceHeight: disp.height };
  const feed = new PoolFeed(pool, faceGeom, motionGeom, identity, settings, signal, fail, (f) => decoder?.reuse(identityOut!, f));

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
          feed.pushFace(frame);
        } else if (o === OUT_MOTION) {
          feed.pushMotion(frame);
        } else if (o === identityOut) {
          feed.pushIdentity(frame);
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
    // Every face and motion answer is in before anything is stored: a failed task fails the clip
    // without leaving shots in the catalog that no analysis went with.
    await feed.settled();
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
    const motionRuns = framesPerShot(shots, feed.motionFrames, settings.motionFps);
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
          faceLists.push(feed.facesAt[k] ?? []);
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
      const steps = m ? feed.stepsFrom.slice(m.first, m.end - 1).filter(Boolean) : [];
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
    feed.abandon();
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
      faces: (faceLists[frameIndex] ?? []).map((f) => ({ x: f.x, y: f.y, w: f.w, h: f.h, score: f.score, landmarks: f.landmarks, ...(f.identity && { identity: f.identity }) })),
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
    const wanted = [outputs[OUT_TENSOR]!, outputs[OUT_FACES]!, ...(identityOut === null ? [] : [outputs[identityOut]!])];
    const [tensor, face, big] = await firstFramesAt(opts.filePath, atS, wanted, { ffmpegPath: opts.ffmpegPath, signal });
    // Nothing decodable there (past the end of the stream): the shot gets no tensor and no tags.
    const faces = tensor && face ? await feed.detectFaces([face], big ? [big] : []) : [];
    return { tensor: tensor ?? null, atS, faces };
  }
}
