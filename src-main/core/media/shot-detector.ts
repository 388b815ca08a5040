import { DEFAULT_CUT_OPTIONS, findCuts, shotsFromCuts, type Cut, type CutOptions, type ShotSpan } from './find-cuts';
import { FrameDiffer, type FrameScore } from './shot-score';

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

export interface ShotDetection {
  cuts: ShotBoundary[];
  shots: ShotSpan[];
  /** Frames pushed (decode order, the index space of cuts and shots). */
  frames: number;
  ptsTimes: number[];
}

export type ShotDetectorOptions = CutOptions;

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

  constructor(opts: Partial<ShotDetectorOptions> = {}) {
    this.opts = { ...DEFAULT_SHOT_DETECTOR_OPTIONS, ...opts };
  }

  push(rgb: Uint8Array, timeS: number): void {
    this.scores.push(this.differ.push(rgb));
    this.times.push(timeS);
  }

  /**
   * Replaces the times pushed so far, for readers that learn presentation times after the frames
   * (frame-reader.ts parses them from ffmpeg's log, which lags the picture pipe).
   */
  retime(times: readonly number[]): void {
    if (times.length !== this.times.length) throw new RangeError(`${times.length} times for ${this.times.length} frames`);
    this.times.splice(0, this.times.length, ...times);
  }

  /** `durationS` closes the last shot; null: the last frame's time plus one frame. */
  finish(durationS: number | null): ShotDetection {
    const cuts: ShotBoundary[] = findCuts(this.scores, this.times, this.opts).map((c) => ({
      ...c,
      kind: 'cut',
      startS: c.timeS,
      endS: c.timeS,
      midS: c.timeS,
    }));
    return { cuts, shots: shotsFromCuts(cuts, this.times, durationS), frames: this.times.length, ptsTimes: [...this.times] };
  }
}

export const DEFAULT_SHOT_DETECTOR_OPTIONS: ShotDetectorOptions = DEFAULT_CUT_OPTIONS;
