/**
 * Gradual transitions (dissolves, fades) and flash rejection, over small per-frame features kept
 * by the ShotDetector: a 16x9 luma thumbnail and the mean luma of each frame, plus the
 * frame-to-frame scores of shot-score.ts.
 *
 * Twin comparison (Zhang, Kankanhalli & Smoliar 1993): a frame whose score reaches the low threshold
 * `low` opens a candidate; the candidate grows while scores stay at or above `low` (up to `gap`
 * quieter frames inside, up to `maxS` long). It is a transition when the picture before it and the
 * picture after it differ by at least `high` (the accumulated change is real, not noise) and the
 * change is nearly monotonic per pixel: the summed frame-to-frame thumbnail change is at most
 * `maxPath` times the end-to-end change. A dissolve or fade moves each pixel once from the old value
 * to the new one (ratio near 1); a pan or fast motion moves pixels back and forth (ratio >> 1).
 * A candidate whose darkest (brightest) frame is near black (white) is a fade through black (white):
 * the monotonic test then applies to each half. The boundary is the middle of the span.
 */
export interface GradualOptions {
  low: number;
  high: number;
  gap: number;
  minS: number;
  maxS: number;
  maxPath: number;
  /** Mean luma (0..1) at or below which a frame counts as black; white is 1 - this. */
  black: number;
  /** Transitions this close (seconds) are one. */
  joinS: number;
  /** A transition ends at the first frame this close (share of the farthest) to its final picture. */
  settle: number;
  /** A dissolve's end-to-end change is at least this, and its frames at most `maxBlend` from a linear blend. */
  dissolveMin: number;
  maxBlend: number;
  /** Start and end thumbnails this correlated: an exposure change, not a dissolve. */
  exposureCorr: number;
  /** A dissolve's frame-to-frame change varies at most this much (coefficient of variation). */
  maxUnsteady: number;
}

export const DEFAULT_GRADUAL_OPTIONS: GradualOptions = { low: 0.012, high: 0.17, gap: 1, minS: 0.25, maxS: 2.6, maxPath: 1.8, black: 0.06, joinS: 0.2, settle: 0.95, dissolveMin: 0.12, maxBlend: 0.2, exposureCorr: 0.9, maxUnsteady: 0.35 };

export const THUMB = { width: 16, height: 9 } as const;
const THUMB_PX = THUMB.width * THUMB.height;

export interface GradualTransition {
  kind: 'dissolve' | 'fade';
  /** First and last frame that belong to the transition. */
  startFrame: number;
  endFrame: number;
  /** The middle frame: the first frame of the new shot. */
  frame: number;
  startS: number;
  endS: number;
  midS: number;
  /** End-to-end thumbnail change. */
  score: number;
}

/** 16x9 luma thumbnail (box average) and mean luma of a rgb24 frame of `w`x`h`. */
export function lumaThumb(rgb: Uint8Array, w: number, h: number, out: Uint8Array): number {
  const acc = new Float64Array(THUMB_PX);
  const cnt = new Float64Array(THUMB_PX);
  let total = 0;
  for (let y = 0; y < h; y++) {
    const ty = Math.floor((y * THUMB.height) / h);
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      const l = 0.299 * rgb[o]! + 0.587 * rgb[o + 1]! + 0.114 * rgb[o + 2]!;
      const t = ty * THUMB.width + Math.floor((x * THUMB.width) / w);
      acc[t]! += l;
      cnt[t]! += 1;
      total += l;
    }
  }
  for (let t = 0; t < THUMB_PX; t++) out[t] = Math.round(acc[t]! / cnt[t]!);
  return total / (w * h * 255);
}

/** Mean absolute difference of two thumbnails of a flat buffer, in [0, 1]. */
export function thumbDistance(thumbs: Uint8Array, a: number, b: number): number {
  let s = 0;
  const oa = a * THUMB_PX;
  const ob = b * THUMB_PX;
  for (let t = 0; t < THUMB_PX; t++) s += Math.abs(thumbs[oa + t]! - thumbs[ob + t]!);
  return s / (THUMB_PX * 255);
}

/** The first frame in [from, to] whose distance from `ref` is at least `share` of the largest there. */
function firstFarFrom(thumbs: Uint8Array, ref: number, from: number, to: number, share: number): number {
  let max = 0;
  for (let k = from; k <= to; k++) max = Math.max(max, thumbDistance(thumbs, ref, k));
  for (let k = from; k <= to; k++) if (thumbDistance(thumbs, ref, k) >= share * max) return k;
  return to;
}

/** The last frame in [from, to] whose distance from `ref` is at least `share` of the largest there. */
function lastFarFrom(thumbs: Uint8Array, ref: number, from: number, to: number, share: number): number {
  let max = 0;
  for (let k = from; k <= to; k++) max = Math.max(max, thumbDistance(thumbs, ref, k));
  for (let k = to; k >= from; k--) if (thumbDistance(thumbs, ref, k) >= share * max) return k;
  return from;
}

/**
 * How far the frames a quarter, half and three quarters through [a, b] are from the linear blend of
 * the end pictures at that point, relative to the end-to-end change (the worst of the three).
 */
function blendError(thumbs: Uint8Array, a: number, b: number, change: number): number {
  let worst = 0;
  for (const q of [0.25, 0.5, 0.75]) {
    const m = Math.round(a + q * (b - a));
    let e = 0;
    for (let t = 0; t < THUMB_PX; t++) e += Math.abs(thumbs[m * THUMB_PX + t]! - ((1 - q) * thumbs[a * THUMB_PX + t]! + q * thumbs[b * THUMB_PX + t]!));
    worst = Math.max(worst, e / (THUMB_PX * 255) / Math.max(1e-9, change));
  }
  return worst;
}

/** Pearson correlation of two thumbnails' luma (1: one is an exposure change of the other). */
function thumbCorrelation(thumbs: Uint8Array, a: number, b: number): number {
  let ma = 0;
  let mb = 0;
  for (let t = 0; t < THUMB_PX; t++) {
    ma += thumbs[a * THUMB_PX + t]!;
    mb += thumbs[b * THUMB_PX + t]!;
  }
  ma /= THUMB_PX;
  mb /= THUMB_PX;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let t = 0; t < THUMB_PX; t++) {
    const x = thumbs[a * THUMB_PX + t]! - ma;
    const y = thumbs[b * THUMB_PX + t]! - mb;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb);
}

/** Coefficient of variation of the frame-to-frame thumbnail changes over [a, b]: 0 for a perfectly steady change. */
function stepVariation(thumbs: Uint8Array, a: number, b: number): number {
  const steps: number[] = [];
  for (let k = a + 1; k <= b; k++) steps.push(thumbDistance(thumbs, k - 1, k));
  const mean = steps.reduce((x, y) => x + y, 0) / steps.length;
  if (mean === 0) return 0;
  return Math.sqrt(steps.reduce((x, y) => x + (y - mean) ** 2, 0) / steps.length) / mean;
}

function pathLength(thumbs: Uint8Array, from: number, to: number): number {
  let s = 0;
  for (let k = from + 1; k <= to; k++) s += thumbDistance(thumbs, k - 1, k);
  return s;
}

/**
 * A flash: around the spike at `frame`, a picture within `withinS` after it comes back to a picture
 * within `withinS` before it (thumbnail distance under `back` times the spike's own jump). Checking
 * both sides catches the spike's return edge too.
 */
export function isFlash(thumbs: Uint8Array, times: readonly number[], frame: number, withinS = 0.25, back = 0.35): boolean {
  if (frame < 1) return false;
  const jump = thumbDistance(thumbs, frame - 1, frame);
  if (jump <= 0) return false;
  for (let a = frame - 1; a >= 0 && times[frame - 1]! - times[a]! <= withinS; a--) {
    for (let b = frame + 1; b < times.length && times[b]! - times[frame]! <= withinS; b++) {
      if (thumbDistance(thumbs, a, b) < back * jump) return true;
    }
  }
  return false;
}

export function findGradual(
  scores: readonly number[],
  thumbs: Uint8Array,
  luma: readonly number[],
  times: readonly number[],
  hardFrames: readonly number[],
  opts: Partial<GradualOptions> = {},
): GradualTransition[] {
  const o = { ...DEFAULT_GRADUAL_OPTIONS, ...opts };
  const n = scores.length;
  const hard = new Set(hardFrames);
  const out: GradualTransition[] = [];
  let i = 1;
  while (i < n) {
    if (scores[i]! < o.low || hard.has(i)) {
      i++;
      continue;
    }
    // Grow the candidate [s, e]: frames s..e change the picture, frame s-1 is the last old one.
    let s = i;
    let e = i;
    let quiet = 0;
    let j = i + 1;
    let touchesHard = false;
    while (j < n && times[j]! - times[s]! <= o.maxS) {
      if (hard.has(j)) {
        touchesHard = true;
        break;
      }
      if (scores[j]! >= o.low) {
        e = j;
        quiet = 0;
      } else if (++quiet > o.gap) break;
      j++;
    }
    i = e + 1;
    if (touchesHard) continue;
    // Darkest/brightest frame: a fade through black or white passes through it.
    let lo = s;
    let hi = s;
    for (let k = s; k <= e; k++) {
      if (luma[k]! < luma[lo]!) lo = k;
      if (luma[k]! > luma[hi]!) hi = k;
    }
    const through = luma[lo]! <= o.black ? lo : luma[hi]! >= 1 - o.black ? hi : -1;
    // The candidate grew while frames kept changing, which includes motion in the shots around the
    // transition. The transition itself is where the picture moves away from where it began: it
    // ends at the first frame that reaches (almost) the farthest point, and begins at the last
    // frame before it that is (almost) as far from that end. Each half of a fade is trimmed so.
    if (through > s && through < e) {
      s = lastFarFrom(thumbs, through, s - 1, through - 1, o.settle) + 1;
      e = firstFarFrom(thumbs, through, through + 1, e, o.settle);
    } else {
      e = firstFarFrom(thumbs, s - 1, s, e, o.settle);
      s = lastFarFrom(thumbs, e, s - 1, e - 1, o.settle) + 1;
    }
    const spanS = times[e]! - times[s - 1]!;
    if (spanS < o.minS || times[e]! - times[s]! >= o.maxS) continue;
    const change = thumbDistance(thumbs, s - 1, e);
    let kind: GradualTransition['kind'];
    let frame: number;
    if (through > s && through < e) {
      const a = thumbDistance(thumbs, s - 1, through);
      const b = thumbDistance(thumbs, through, e);
      if (a < o.high / 2 || b < o.high / 2) continue;
      if (pathLength(thumbs, s - 1, through) > o.maxPath * a || pathLength(thumbs, through, e) > o.maxPath * b) continue;
      kind = 'fade';
      frame = through;
    } else {
      // A dissolve is a blend: part way through, each pixel is the same mix of the two pictures.
      // Motion and pans are not (blendError); with that test a smaller total change is enough.
      if (change < o.dissolveMin) continue;
      if (pathLength(thumbs, s - 1, e) > o.maxPath * change) continue;
      if (blendError(thumbs, s - 1, e, change) > o.maxBlend) continue;
      const fadeEnd = luma[s - 1]! <= o.black || luma[e]! <= o.black || luma[s - 1]! >= 1 - o.black || luma[e]! >= 1 - o.black;
      // Between two pictures (not out of or into black or white): an exposure change (auto-iris, a
      // cloud) keeps the picture's structure, the end nearly an affine copy of the start; and a
      // dissolve changes the picture at a steady rate, where a vehicle crossing the frame does it in bursts.
      if (!fadeEnd && thumbCorrelation(thumbs, s - 1, e) >= o.exposureCorr) continue;
      if (!fadeEnd && stepVariation(thumbs, s - 1, e) > o.maxUnsteady) continue;
      kind = fadeEnd ? 'fade' : 'dissolve';
      const mid = (times[s - 1]! + times[e]!) / 2;
      frame = s;
      while (frame < e && times[frame]! < mid) frame++;
    }
    const g: GradualTransition = { kind, startFrame: s - 1, endFrame: e, frame, startS: times[s - 1]!, endS: times[e]!, midS: times[frame]!, score: change };
    // The two halves of one fade (out, then in) can be found apart: one transition spans both.
    const prev = out.at(-1);
    if (prev && g.startS - prev.endS <= o.joinS) {
      const mid = (prev.startS + g.endS) / 2;
      let f = prev.startFrame;
      while (f < g.endFrame && times[f]! < mid) f++;
      out[out.length - 1] = { kind: prev.kind === 'fade' || kind === 'fade' ? 'fade' : 'dissolve', startFrame: prev.startFrame, endFrame: e, frame: f, startS: prev.startS, endS: g.endS, midS: times[f]!, score: thumbDistance(thumbs, prev.startFrame, e) };
    } else out.push(g);
  }
  return out;
}
