import type { TensorChunk } from '../tensors/shot-chunks';

/** A detected face in fractions of the picture (0..1, origin top-left, letterbox bars excluded). */
export interface Face {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** x0, y0 ... x4, y4: right eye, left eye, nose tip, right and left mouth corner. */
  landmarks: number[];
  /** What recognition made of the face; absent when recognition is off. */
  identity?: FaceIdentity;
}

/**
 * A face's worth for recognition and, above the floors (analysis-settings.ts), its identity.
 * Stays on this machine: stored in face_identity, never uploaded, never published to a team.
 */
export interface FaceIdentity {
  /** The embedding model's id (its file name): embeddings of another model are another space. */
  model: string;
  /** Distance between the eyes in source (display) pixels. */
  eyePx: number;
  /** Variance of the Laplacian of the aligned crop's gray over the gray's variance (face-align.cjs). */
  sharpness: number;
  /** 0 frontal .. 1 profile, from the landmarks. */
  yaw: number;
  /** 0..1, size, sharpness and pose together. */
  quality: number;
  /** Above every floor: may be given to a person. */
  assignable: boolean;
  /** L2-normalised; null when not assignable (the model is not run for those). */
  embedding: Float32Array | null;
  /** The aligned crop at 64x64, RGB interleaved; null when not assignable. */
  thumb: Uint8Array | null;
}

/** Faces of one sampled frame of a shot (the same frames as the video tensor). */
export interface FrameFaces {
  frameIndex: number;
  timeS: number;
  faces: Face[];
}

/** A stored face as the catalog hands it out: its box and score (the landmarks are kept, never read back). */
export type FaceBox = Omit<Face, 'landmarks'>;

/** The stored faces of one sampled frame of a shot. */
export interface FrameFaceBoxes {
  frameIndex: number;
  timeS: number;
  faces: FaceBox[];
}

export const CAMERA_MOVEMENTS = ['pan left', 'pan right', 'tilt up', 'tilt down', 'zoom in', 'zoom out', 'static', 'handheld'] as const;
export type CameraMovement = (typeof CAMERA_MOVEMENTS)[number];

/**
 * Camera motion of a shot. Sign convention (camera's point of view, picture y down):
 * panSpeed > 0 = pan right (camera turns right, content moves left); tiltSpeed > 0 = tilt up
 * (camera turns up, content moves down); zoomRate > 0 = zoom in (content grows).
 * Speeds are in frame widths per second, zoomRate in ln(scale) per second, jitter in frame widths
 * per second (shake that does not add up to a direction).
 */
export interface CameraMotion {
  /** null when the shot is too short or too flat to measure. */
  movement: CameraMovement | null;
  /** Speed of the chosen movement in its unit (widths/s, ln-scale/s; jitter for handheld; 0 for static). */
  magnitude: number;
  confidence: number;
  panSpeed: number;
  tiltSpeed: number;
  zoomRate: number;
  jitter: number;
  /** Steps measured / steps with a reliable estimate. */
  steps: number;
  validSteps: number;
}

export const SHOT_SIZES = ['extreme close-up', 'close-up', 'medium close-up', 'medium', 'wide', 'extreme wide'] as const;
export type ShotSize = (typeof SHOT_SIZES)[number];

export const LOCAL_TAG_CATEGORIES = ['shot_size', 'camera_movement'] as const;
export type LocalTagCategory = (typeof LOCAL_TAG_CATEGORIES)[number];

/** A tag made on this machine; `source` tells the UI it is not the service's. */
export interface LocalTag {
  category: LocalTagCategory;
  value: string;
  confidence: number;
  source: 'local';
  /** Measured quantity behind the tag: face height ratio for shot size, speed for movement. */
  magnitude: number | null;
}

export interface ShotAnalysis {
  shotId: number;
  startS: number;
  endS: number;
  /** Sample times of the shot's frames (video tensor and faces share them). */
  frameTimes: number[];
  /** Empty when the caller asked not to retain tensors (they went to onShot instead). */
  chunks: TensorChunk[];
  faces: FrameFaces[];
  motion: CameraMotion;
  localTags: LocalTag[];
  /** The shot was shorter than the sampling interval and got one frame from a separate seek. */
  singleFrameFallback: boolean;
}
