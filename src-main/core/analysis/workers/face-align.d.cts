/** x' = a x - b y + tx, y' = b x + a y + ty. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** A box of a yuv420p frame (x, y, w, h even), its planes cut out alone: Y (w x h), then U and V (w/2 x h/2). */
export interface FramePatch {
  data: Uint8Array;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export declare const TEMPLATE: readonly number[];
export declare const CROP: number;
export declare function fitSimilarity(src: readonly number[], dst: readonly number[]): Similarity | null;
export declare function wholeFrame(data: Uint8Array, width: number, height: number): FramePatch;
export declare function warpBox(m: Similarity, size: number, width: number, height: number): Box;
export declare function unionBox(p: Box, q: Box): Box;
export declare function cutPatch(frame: Uint8Array, width: number, height: number, box: Box): FramePatch;
export declare function warpToRgb(patch: FramePatch, width: number, height: number, m: Similarity, size: number, out: Uint8Array | null): Uint8Array;
export declare function scaled(m: Similarity, f: number): Similarity;
export declare function rgbToInput(rgb: Uint8Array, size: number, out: Float32Array | null): Float32Array;
export declare function sharpness(rgb: Uint8Array, size: number): number;
export declare function yawOf(points: readonly number[]): number;
