/**
 * Frame-to-frame differences used for cut detection, on small rgb24 frames:
 * - `hist`: colour histogram distance (16 bins per channel, half the L1 distance, in [0, 1]): large
 *   when the colours of the picture change, insensitive to motion inside a shot;
 * - `pixel`: mean absolute pixel difference (in [0, 1]): large when the layout changes, which
 *   catches cuts between two shots of similar colours and ignores flicker in exposure alone.
 * A hard cut moves both at once, for one frame.
 */
export const HIST_BINS = 16;

export interface FrameScore {
  hist: number;
  pixel: number;
}

/** The single number cuts are ranked by. */
export function combinedScore(s: FrameScore): number {
  return (s.hist + s.pixel) / 2;
}

export class FrameDiffer {
  private prevPixels: Uint8Array | null = null;
  private prevHist: Float64Array | null = null;
  private readonly hist = new Float64Array(HIST_BINS * 3);

  constructor(private readonly frameBytes: number) {}

  /** Differences of this frame against the previous one (zeros for the first frame). */
  push(rgb: Uint8Array): FrameScore {
    if (rgb.length !== this.frameBytes) throw new RangeError(`frame has ${rgb.length} bytes, expected ${this.frameBytes}`);
    const hist = this.hist;
    hist.fill(0);
    const shift = 8 - Math.log2(HIST_BINS);
    for (let i = 0; i < rgb.length; i += 3) {
      hist[rgb[i]! >> shift]! += 1;
      hist[HIST_BINS + (rgb[i + 1]! >> shift)]! += 1;
      hist[2 * HIST_BINS + (rgb[i + 2]! >> shift)]! += 1;
    }
    const pixelsPerChannel = rgb.length / 3;
    for (let b = 0; b < hist.length; b++) hist[b]! /= pixelsPerChannel;

    const out: FrameScore = { hist: 0, pixel: 0 };
    if (this.prevPixels && this.prevHist) {
      let h = 0;
      for (let b = 0; b < hist.length; b++) h += Math.abs(hist[b]! - this.prevHist[b]!);
      out.hist = h / (2 * 3);
      let p = 0;
      for (let i = 0; i < rgb.length; i++) p += Math.abs(rgb[i]! - this.prevPixels[i]!);
      out.pixel = p / (rgb.length * 255);
    }
    this.prevPixels = this.prevPixels ?? new Uint8Array(this.frameBytes);
    this.prevPixels.set(rgb);
    this.prevHist = this.prevHist ?? new Float64Array(hist.length);
    this.prevHist.set(hist);
    return out;
  }
}
