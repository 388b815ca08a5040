import { AppError } from '../../../src-shared/errors';
import { readSmallFrames } from './frame-reader';
import { SHOT_FRAME, ShotDetector, type ShotDetection, type ShotDetectorOptions } from './shot-detector';

export { SHOT_FRAME } from './shot-detector';

export type ShotAnalysis = ShotDetection;

export interface ShotAnalysisOptions {
  signal?: AbortSignal;
  ffmpeg?: string;
  cutOptions?: Partial<ShotDetectorOptions>;
  /** Closes the last shot; defaults to the last frame's time plus one frame. */
  durationS?: number | null;
  onFrame?: (index: number) => void;
}

/** One decode of the clip at 64x36 fed to a ShotDetector (method: shot-detector.ts). */
export async function analyseShots(file: string, opts: ShotAnalysisOptions = {}): Promise<ShotAnalysis> {
  const detector = new ShotDetector(opts.cutOptions);
  const decoded = await readSmallFrames(file, {
    ...SHOT_FRAME,
    signal: opts.signal,
    ffmpeg: opts.ffmpeg,
    onFrame: (rgb, i) => {
      // The time arrives later on ffmpeg's log; retime() below sets it.
      detector.push(rgb, Number.NaN);
      opts.onFrame?.(i);
    },
  });
  if (decoded.frames === 0) throw new AppError('media', 'no frame could be decoded');
  detector.retime(decoded.ptsTimes);
  return detector.finish(opts.durationS ?? null);
}
