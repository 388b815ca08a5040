import type { Face, FaceIdentity } from '../analysis-types';
import type { FramePatch } from './face-align.cjs';

/** The identity frame a face task carries and the floors its faces are held to (analysis-settings.ts). */
export interface IdentityFrameTask {
  width: number;
  height: number;
  /** The picture's display size: eye distances are told in these pixels. */
  sourceWidth: number;
  sourceHeight: number;
  minEyePx: number;
  minSharpness: number;
  maxYaw: number;
  goodEyePx: number;
  goodSharpness: number;
  /** The embedding model's id, written into each identity. */
  model: string;
}

export declare const THUMB: number;
export declare function identityPatch(frame: Uint8Array, faces: readonly Face[], task: IdentityFrameTask): FramePatch;
export declare function identifyFaces(faces: readonly Face[], patch: FramePatch, task: IdentityFrameTask, embed: (input: Float32Array) => Promise<Float32Array>): Promise<FaceIdentity[]>;
export declare function ruledOutByLandmarks(face: Face, task: IdentityFrameTask): FaceIdentity | null;
export declare function thumbsOf(faces: readonly Face[], patch: FramePatch, task: IdentityFrameTask): FaceIdentity[];
export declare function unembeddedIdentity(face: Face, task: IdentityFrameTask): FaceIdentity;
export declare function carriedIdentity(src: FaceIdentity, face: Face, task: IdentityFrameTask): FaceIdentity;
export declare function l2normalize(v: ArrayLike<number>): Float32Array;
