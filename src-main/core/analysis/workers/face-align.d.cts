/** x' = a x - b y + tx, y' = b x + a y + ty. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export declare const TEMPLATE: readonly number[];
export declare const CROP: number;
export declare function fitSimilarity(src: readonly number[], dst: readonly number[]): Similarity | null;
export declare function warpToRgb(frame: Uint8Array, width: number, height: number, m: Similarity, size: number, out: Uint8Array | null): Uint8Array;
export declare function scaled(m: Similarity, f: number): Similarity;
export declare function rgbToInput(rgb: Uint8Array, size: number, out: Float32Array | null): Float32Array;
export declare function sharpness(rgb: Uint8Array, size: number): number;
export declare function yawOf(points: readonly number[]): number;
