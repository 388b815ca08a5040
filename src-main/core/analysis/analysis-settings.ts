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
  /**
   * Face recognition: each face found is aligned and, above the floors, embedded (workers/
   * face-identity.cjs). Off: no identity frames are decoded, no model is run, nothing is stored.
   */
  faceRecognition: boolean;
  /**
   * Long side of the identity frames the faces are aligned from (never above the source's): the
   * 320 px detector frame leaves a face of 40 px between the eyes at 1080p about 12 px.
   * Cost: the identity frames are decoded at one face frame in identityEvery and read (into reused
   * buffers: ClipDecoder.reuse), but only the patches of those holding a face the landmarks do not
   * rule out go to the worker (pool-feed.ts, face-identity.cjs identityPatch), and a face seen in
   * consecutive samples is embedded at its track's start, every eighth sample and at its end only when
   * it drifted (identity-carry.ts). Per face embedded ~3 ms of CPU (MobileFaceNet's int8 copy 2.0-2.4,
   * alignment 0.75, thumbnail 0.25, sharpness and input 0.1); per 960x540 identity frame ~3 ms in this process
   * (its ~0.8 MB read from the pipe and the garbage collection that churn brings), which is why the
   * rate was halved rather than the warp made faster. Smaller frames were measured and not taken:
   * at 640 px the NTU signer's (1080p, 17-23 px between the eyes) embeddings fell to 0.80 mean cosine
   * (0.66 at worst) against the 960 px ones, at 720 px 0.89.
   */
  identityLongSide: number;
  /**
   * Identity frames are decoded at one face frame in this many (2: 1 fps on the 2 fps grid), the
   * faces between carrying the embedding of their track (identity-carry.ts); a face seen only where
   * there is none is kept as a face, not assignable. Reading the identity frames was half of what
   * recognition cost in the main process (their bytes through the pipe: ~0.8 MB a 960x540 frame,
   * ~0.2 core-s of reading and ~0.2 of garbage collection for bench:people's batch 1 at 2 fps).
   */
  identityEvery: number;
  /**
   * The floors under which a face is kept as a face but never given to a person, and not embedded.
   * Eye distance in source pixels: under 12 px the crop is mostly upscaling (the NTU faces at
   * 17-23 px already match each other at only 0.40 mean cosine, against 0.80-0.85 at 23-31 px).
   */
  faceMinEyePx: number;
  /**
   * Variance of the Laplacian of the aligned crop (face-align.cjs), measured on intel_asl_book and
   * Gaussian-blurred copies of it: sharp 20-40 (all five face clips 9.6-116), sigma 2: 3.4-5.0 and
   * still 0.53 mean cosine to the sharp faces, sigma 4: 2.0-2.4 and 0.20 (no better than another
   * person: up to 0.46 to the NTU faces), sigma 8: 1.7-1.9 and 0.05. 3 sits between sigma 2 and 4.
   */
  faceMinSharpness: number;
  /**
   * Yaw (face-align.cjs yawOf) past which a face is a profile: on the turned heads of
   * tears-of-steel (55 faces, yaw 0.04-1.0, crops looked at in order) those up to 0.7 are frontal
   * to three-quarter, those from 0.72 profiles or not faces at all (a hand, a blur), and a profile
   * aligned onto the frontal template says little of who it is.
   */
  faceMaxYaw: number;
  /** Where the size and sharpness parts of a face's quality reach 1. */
  faceGoodEyePx: number;
  faceGoodSharpness: number;
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
  faceRecognition: true,
  identityLongSide: 960,
  identityEvery: 2,
  faceMinEyePx: 12,
  faceMinSharpness: 3,
  faceMaxYaw: 0.7,
  faceGoodEyePx: 48,
  faceGoodSharpness: 30,
});
