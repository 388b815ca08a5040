/** A detection in network-input pixels (decodeYunet) or in fractions of the picture (normalizeFaces). */
export interface RawFace {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** Five landmarks as x0, y0, ... x4, y4: right eye, left eye, nose tip, right and left mouth corner. */
  landmarks: number[];
}

export declare const STRIDES: readonly number[];
export declare function bgrToPlanar(frame: Uint8Array, width: number, height: number, out?: Float32Array | null): Float32Array;
export declare function decodeYunet(outputs: Record<string, ArrayLike<number>>, width: number, height: number, scoreThreshold: number): RawFace[];
export declare function nms(faces: RawFace[], iouThreshold: number, topK: number): RawFace[];
export declare function iou(a: RawFace, b: RawFace): number;
export declare function normalizeFaces(faces: RawFace[], contentWidth: number, contentHeight: number): RawFace[];
