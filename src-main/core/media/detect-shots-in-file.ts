import { AppError } from '../../../src-shared/errors';
import { findCuts, shotsFromCuts, type Cut, type CutOptions, type ShotSpan } from './find-cuts';
import { readSmallFrames } from './frame-reader';
import { FrameDiffer, type FrameScore } from './shot-score';

/** Frame size shot detection works at: enough for colour and layout, small enough to decode fast. */
export const SHOT_FRAME = { width: 64, height: 36 } as const;

export interface ShotAnalysis {
  cuts: Cut[];
  shots: ShotSpan[];
  /** Frames decoded (decode order, the index space of cuts and shots). */
  frames: number;
  ptsTimes: number[];
}

export interface ShotAnalysisOptions {
  signal?: AbortSignal;
  ffmpeg?: string;
  cutOptions?: Partial<CutOptions>;
  /** Closes the last shot; defaults to the last frame's time plus one frame. */
  durationS?: number | null;
  onFrame?: (index: number) => void;
}

/** One decode of the clip at 64x36, frame differences, cuts (method: find-cuts.ts), shots. */
export async function analyseShots(file: string, opts: ShotAnalysisOptions = {}): Promise<ShotAnalysis> {
  const differ = new FrameDiffer(SHOT_FRAME.width * SHOT_FRAME.height * 3);
  const scores: FrameScore[] = [];
  const decoded = await readSmallFrames(file, {
    ...SHOT_FRAME,
    signal: opts.signal,
    ffmpeg: opts.ffmpeg,
    onFrame: (rgb, i) => {
      scores.push(differ.push(rgb));
      opts.onFrame?.(i);
    },
  });
  if (decoded.frames === 0) throw new AppError('media', 'no frame could be decoded');
  const cuts = findCuts(scores, decoded.ptsTimes, opts.cutOptions);
  return { cuts, shots: shotsFromCuts(cuts, decoded.ptsTimes, opts.durationS ?? null), frames: decoded.frames, ptsTimes: decoded.ptsTimes };
}
