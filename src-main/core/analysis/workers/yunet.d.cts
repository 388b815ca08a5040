import type { Face } from '../analysis-types';

/** A Face as the detector and the worker pass it: in network-input pixels (decodeYunet), in fractions of the picture after normalizeFaces. */
export type RawFace = Face;

export declare const STRIDES: readonly number[];
export declare function bgrToPlanar(frame: Uint8Array, width: number, height: number, out?: Float32Array | null): Float32Array;
export declare function decodeYunet(outputs: Record<string, ArrayLike<number>>, width: number, height: number, scoreThreshold: number): RawFace[];
export declare function nms(faces: RawFace[], iouThreshold: number, topK: number): RawFace[];
/** Intersection over union of two boxes (any units, the same for both). */
export declare function iou(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }): number;
export declare function normalizeFaces(faces: RawFace[], contentWidth: number, contentHeight: number): RawFace[];
