import { DEFAULT_CUT_OPTIONS, findCuts, shotsFromCuts, type Cut, type CutOptions, type ShotSpan } from './find-cuts';
import { DEFAULT_GRADUAL_OPTIONS, findGradual, isFlash, lumaThumb, THUMB, type GradualOptions } from './find-gradual';
import { combinedScore, FrameDiffer, type FrameScore } from './shot-score';

/** Frame size shot detection works at: enough for colour and layout, small enough to decode fast. */
export const SHOT_FRAME = { width: 64, height: 36 } as const;

export type BoundaryKind = 'cut' | 'dissolve' | 'fade';

/**
 * A shot boundary. `frame`/`timeS` is where the new shot starts (for a gradual transition: its
 * middle); `startS`..`endS` is the transition's span (all three equal for a hard cut).
 */
export interface ShotBoundary extends Cut {
  kind: BoundaryKind;
  startS: number;
  endS: number;
  midS: number;
}

/** A shot and the transition that opens it (null for the first shot). */
export interface DetectedShot extends ShotSpan {
  transition: { kind: BoundaryKind; startS: number; endS: number } | null;
}

export interface ShotDetection {
  cuts: ShotBoundary[];
  shots: DetectedShot[];
  /** Frames pushed (decode order, the index space of cuts and shots). */
  frames: number;
  ptsTimes: number[];
}

export interface ShotDetectorOptions extends CutOptions {
  /** A hard-cut peak is motion when a neighbouring frame reaches this fraction of its score. */
  spread: number;
  gradual: GradualOptions;
}

/**
 * Streaming shot detection: feed every decoded 64x36 rgb24 frame with its presentation time, then
 * `finish`. Per frame it keeps only the two differences (shot-score.ts), so one decode of a clip can
 * feed this and other consumers at once; boundaries are decided at `finish` because the local
 * baseline (find-cuts.ts) looks half a second ahead.
 */
export class ShotDetector {
  private readonly differ = new FrameDiffer(SHOT_FRAME.width * SHOT_FRAME.height * 3);
  private readonly scores: FrameScore[] = [];
  private readonly times: number[] = [];
  private readonly opts: ShotDetectorOptions;
  /** 16x9 luma thumbnails of every frame, back to back (144 bytes a frame; grown by doubling). */
  private thumbs = new Uint8Array(THUMB.width * THUMB.height * 256);
  private readonly luma: number[] = [];

  constructor(opts: Partial<ShotDetectorOptions> = {}) {
    this.opts = { ...DEFAULT_SHOT_DETECTOR_OPTIONS, ...opts, gradual: { ...DEFAULT_GRADUAL_OPTIONS, ...opts.gradual } };
  }

  push(rgb: Uint8Array, timeS: number): void {
    this.scores.push(this.differ.push(rgb));
    const px = THUMB.width * THUMB.height;
    const at = this.times.length * px;
    if (at + px > this.thumbs.length) {
      const grown = new Uint8Array(this.thumbs.length * 2);
      grown.set(this.thumbs);
      this.thumbs = grown;
    }
    this.luma.push(lumaThumb(rgb, SHOT_FRAME.width, SHOT_FRAME.height, this.thumbs.subarray(at, at + px)));
    this.times.push(timeS);
  }

  /**
   * Replaces the times pushed so far, for readers that learn presentation times after the frames
   * (the decoder parses them from ffmpeg's log, which lags the picture pipe).
   */
  retime(times: readonly number[]): void {
    if (times.length !== this.times.length) throw new RangeError(`${times.length} times for ${this.times.length} frames`);
    this.times.splice(0, this.times.length, ...times);
  }

  /** `durationS` closes the last shot; null: the last frame's time plus one frame. */
  finish(durationS: number | null): ShotDetection {
    const times = this.times;
    // A spike whose picture comes back (flash, strobe, exposure blip) is not a cut.
    const combined = this.scores.map(combinedScore);
    // A spike whose picture comes back is not a cut; neither is a peak whose neighbours change
    // almost as much (a whip pan or fast motion spreads its change over several frames).
    const hard = findCuts(this.scores, times, this.opts).filter(
      (c) => !isFlash(this.thumbs, times, c.frame) && !(Math.max(combined[c.frame - 1] ?? 0, combined[c.frame + 1] ?? 0) >= this.opts.spread * c.score),
    );
    const gradual = findGradual(
      combined,
      this.thumbs,
      this.luma,
      times,
      hard.map((c) => c.frame),
      this.opts.gradual,
    );
    const eps = 1e-6;
    // A hard jump at the edge of a gradual transition (a fade's steep start) belongs to it.
    const inGradual = (t: number): boolean => gradual.some((g) => t >= g.startS - this.opts.minShotS && t <= g.endS + eps);
    const cuts: ShotBoundary[] = [
      ...hard.filter((c) => !inGradual(c.timeS)).map((c): ShotBoundary => ({ ...c, kind: 'cut', startS: c.timeS, endS: c.timeS, midS: c.timeS })),
      ...gradual
        .filter((g) => g.midS - times[0]! >= this.opts.minShotS - eps && times[times.length - 1]! - g.midS >= this.opts.minShotS - eps)
        .map((g): ShotBoundary => ({ frame: g.frame, timeS: g.midS, score: g.score, kind: g.kind, startS: g.startS, endS: g.endS, midS: g.midS })),
    ].sort((a, b) => a.frame - b.frame);
    const shots = shotsFromCuts(cuts, this.times, durationS).map((s): DetectedShot => {
      const c = s.idx > 0 ? cuts[s.idx - 1]! : null;
      return { ...s, transition: c ? { kind: c.kind, startS: c.startS, endS: c.endS } : null };
    });
    return { cuts, shots, frames: this.times.length, ptsTimes: [...this.times] };
  }
}

export const DEFAULT_SHOT_DETECTOR_OPTIONS: ShotDetectorOptions = { ...DEFAULT_CUT_OPTIONS, spread: 0.5, gradual: DEFAULT_GRADUAL_OPTIONS };
