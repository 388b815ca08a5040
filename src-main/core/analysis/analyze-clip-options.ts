import type { ShotDetection, ShotDetectorOptions } from '../media/shot-detector';
import type { ProxyRequest } from '../media/proxy-branch';
import type { RenderedStills, StillsRequest } from '../media/stills';
import type { ShotFrames } from '../tensors/shot-chunks';
import type { TensorProfile } from '../tensors/tensor-profile';
import type { AnalysisPool } from './analysis-pool';
import type { AnalysisSettings } from './analysis-settings';
import type { ShotAnalysis } from './analysis-types';
import type { SourceInfo } from './source-info';

/** What analyzeClip (analyze-clip.ts) is asked and what it answers. */

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
