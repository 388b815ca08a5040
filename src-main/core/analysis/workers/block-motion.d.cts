/** Motion of the picture content between two frames, in motion-frame pixels (x right, y down). */
export interface MotionStep {
  tx: number;
  ty: number;
  /** Relative scale change about the centre: content grows (zoom in) when k > 0. */
  k: number;
  /** False when too few textured blocks agree (flat frames, a cut, blur). */
  valid: boolean;
  blocks: number;
  inliers: number;
  /** RMS residual of the inlier vectors, pixels. */
  residual: number;
}

export interface BlockVector {
  x: number;
  y: number;
  dx: number;
  dy: number;
}

export declare function estimateStep(a: Uint8Array, b: Uint8Array, w: number, h: number): MotionStep;
export declare function estimateSteps(frames: Uint8Array[], w: number, h: number): MotionStep[];
export declare function fitSimilarity(vectors: BlockVector[], cx: number, cy: number, use: boolean[]): { tx: number; ty: number; k: number } | null;
export declare function robustFit(vectors: BlockVector[], w: number, h: number): { tx: number; ty: number; k: number; inliers: number; residual: number; still: boolean } | null;
export declare function blockVectors(a: Uint8Array, b: Uint8Array, w: number, h: number): { vectors: BlockVector[]; coarse: { dx: number; dy: number } };
