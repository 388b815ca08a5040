import { DEFAULT_MOTION_THRESHOLDS, type MotionThresholds } from './camera-motion';

/**
 * Knobs of the local analysis that do not change what is uploaded (those live in the tensor
 * profile). Faces are detected on the same sampled frames as the video tensor.
 */
export interface AnalysisSettings {
  /** Long side of the face detector's input. 320 px: ~4 ms per frame on one core, faces from ~10 px. */
  faceInputLongSide: number;
  /** Faces below this score are not kept. YuNet scores real faces 0.8-0.95 and clutter under 0.3. */
  faceScoreThreshold: number;
  /** Faces that count for shot-size tags; kept separate so a lower storage threshold (diagnostics) does not change tags. */
  tagFaceMinScore: number;
  faceNmsThreshold: number;
  faceTopK: number;
  /** Frames per worker task: large enough to amortise messaging, small enough to overlap decoding. */
  faceBatchFrames: number;
  /**
   * Motion frames per second. 5: a pan of a frame width in 2 s moves 16 px per step at 160 px,
   * well inside the search range, while shake at hand frequencies (1-5 Hz) is still sampled.
   */
  motionFps: number;
  /** Long side of the gray motion frames. */
  motionLongSide: number;
  motionBatchFrames: number;
  motionThresholds: MotionThresholds;
}

export const DEFAULT_ANALYSIS_SETTINGS: AnalysisSettings = Object.freeze({
  faceInputLongSide: 320,
  faceScoreThreshold: 0.6,
  tagFaceMinScore: 0.6,
  faceNmsThreshold: 0.3,
  faceTopK: 20,
  faceBatchFrames: 8,
  motionFps: 5,
  motionLongSide: 160,
  motionBatchFrames: 25,
  motionThresholds: DEFAULT_MOTION_THRESHOLDS,
});
