import { combinedScore, type FrameScore } from './shot-score';

/**
 * Hard-cut detection on frame-to-frame differences (see shot-score.ts).
 *
 * Frame i starts a new shot when
 * 1. both its histogram and its pixel difference reach `minEach` and their mean reaches `minScore`
 *    (a moving object changes pixels but hardly the colours; an exposure flicker the reverse);
 * 2. its score is at least `ratio` times a local baseline. The baseline is computed from the mean
 *    score of the frames `windowS` seconds before and after it (the frame and its immediate
 *    neighbours excluded): the larger of the calmer side and half the busier side. Motion raises a
 *    whole run of frames on both sides and is rejected; a cut out of (or into) a shaky, noisy shot
 *    still stands out against the calm side.
 * Then no shot may be shorter than `minShotS`: candidates are accepted strongest first, and one
 * closer than that to an accepted cut or to either end of the clip is dropped.
 * Gradual transitions (dissolves, fades) are found by find-gradual.ts; ShotDetector combines both.
 */
export interface CutOptions {
  minScore: number;
  minEach: number;
  ratio: number;
  windowS: number;
  minShotS: number;
  /**
   * A second way in for cuts within one camera set-up (colours barely change): a frame reaching
   * `isolatedScore` and `isolatedRatio` times the local baseline is a cut even below `minEach`, as
   * long as the smaller of its two measures is at least `isolatedBalance` times the larger (both
   * still move: an exposure step or an object alone moves one).
   */
  isolatedScore: number;
  isolatedBalance: number;
  isolatedRatio: number;
}

export const DEFAULT_CUT_OPTIONS: CutOptions = { minScore: 0.12, minEach: 0.08, ratio: 2.5, windowS: 0.5, minShotS: 0.5, isolatedScore: 0.08, isolatedBalance: 0.12, isolatedRatio: 5 };

export interface Cut {
  /** Index of the first frame of the new shot. */
  frame: number;
  /** Its presentation time in seconds. */
  timeS: number;
  score: number;
}

function sideMean(scores: readonly number[], from: number, to: number): number | null {
  if (to <= from) return null;
  let s = 0;
  for (let j = from; j < to; j++) s += scores[j]!;
  return s / (to - from);
}

export function findCuts(frames: readonly FrameScore[], times: readonly number[], opts: Partial<CutOptions> = {}): Cut[] {
  const o = { ...DEFAULT_CUT_OPTIONS, ...opts };
  const n = frames.length;
  if (n < 3 || times.length !== n) return [];
  const scores = frames.map(combinedScore);
  const start = times[0]!;
  const end = times[n - 1]!;
  const candidates: Cut[] = [];
  let lo = 0;
  let hi = 0;
  for (let i = 1; i < n; i++) {
    const f = frames[i]!;
    const s = scores[i]!;
    const strong = s >= o.minScore && f.hist >= o.minEach && f.pixel >= o.minEach;
    if (!strong && (s < o.isolatedScore || Math.min(f.hist, f.pixel) < o.isolatedBalance * Math.max(f.hist, f.pixel))) continue;
    const t = times[i]!;
    while (lo < i && times[lo]! < t - o.windowS) lo++;
    while (hi < n && times[hi]! <= t + o.windowS) hi++;
    const before = sideMean(scores, lo, i - 1);
    const after = sideMean(scores, i + 2, hi);
    const sides = [before, after].filter((x): x is number => x !== null);
    const baseline = sides.length === 0 ? 0 : Math.max(Math.min(...sides), Math.max(...sides) / 2);
    if (s >= (strong ? o.ratio : o.isolatedRatio) * baseline) candidates.push({ frame: i, timeS: t, score: s });
  }
  candidates.sort((a, b) => b.score - a.score);
  const accepted: Cut[] = [];
  const eps = 1e-6;
  for (const c of candidates) {
    if (c.timeS - start < o.minShotS - eps || end - c.timeS < o.minShotS - eps) continue;
    if (accepted.some((a) => Math.abs(a.timeS - c.timeS) < o.minShotS - eps)) continue;
    accepted.push(c);
  }
  return accepted.sort((a, b) => a.frame - b.frame);
}

export interface ShotSpan {
  idx: number;
  startFrame: number;
  /** Exclusive. */
  endFrame: number;
  startS: number;
  endS: number;
  /** Score of the cut that opened this shot (null for the first shot). */
  cutScore: number | null;
}

/** Turns cuts into shots covering the whole clip; `durationS` closes the last one. */
export function shotsFromCuts(cuts: readonly Cut[], times: readonly number[], durationS: number | null): ShotSpan[] {
  const n = times.length;
  if (n === 0) return [];
  const step = n > 1 ? times[n - 1]! - times[n - 2]! : 0;
  const lastEnd = durationS !== null && durationS > times[n - 1]! ? durationS : times[n - 1]! + step;
  const bounds = [0, ...cuts.map((c) => c.frame), n];
  const shots: ShotSpan[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const sf = bounds[k]!;
    const ef = bounds[k + 1]!;
    shots.push({
      idx: k,
      startFrame: sf,
      endFrame: ef,
      startS: k === 0 ? 0 : Math.max(0, times[sf]!),
      endS: ef < n ? times[ef]! : lastEnd,
      cutScore: k === 0 ? null : cuts[k - 1]!.score,
    });
  }
  return shots;
}
