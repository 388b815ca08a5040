import { AppError } from '../../../src-shared/errors';
import { ClipDecoder, type VideoOutput } from './clip-decoder';
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

/** The decoder output shot detection reads: every frame, at 64x36 rgb24 (area-averaged, display matrix applied). */
export const SHOT_OUTPUT: VideoOutput = {
  name: 'shots',
  fps: 'every',
  geometry: { outWidth: SHOT_FRAME.width, outHeight: SHOT_FRAME.height, filter: `scale=${SHOT_FRAME.width}:${SHOT_FRAME.height}:flags=area` },
  pixFmt: 'rgb24',
};

/**
 * Shot detection alone: a decode with just the detector's output (the pipeline instead adds it to
 * the clip's one analysis decode, analysis/analyze-clip.ts). For the detector's tests and bench.
 */
export async function analyseShots(file: string, opts: ShotAnalysisOptions = {}): Promise<ShotAnalysis> {
  const detector = new ShotDetector(opts.cutOptions);
  const decoded = await new ClipDecoder(
    { filePath: file, startS: 0, outputs: [SHOT_OUTPUT], audioRate: null, ffmpegPath: opts.ffmpeg, signal: opts.signal },
    {
      onFrame: (_o, rgb, i) => {
        // The time arrives later on ffmpeg's log; retime() below sets it.
        detector.push(rgb, Number.NaN);
        opts.onFrame?.(i);
      },
      onAudio: () => {},
    },
  ).run();
  if (decoded.frameTimes.length === 0) throw new AppError('media', 'no frame could be decoded');
  detector.retime(decoded.frameTimes);
  return detector.finish(opts.durationS ?? null);
}
