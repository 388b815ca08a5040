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
}

export const DEFAULT_GRADUAL_OPTIONS: GradualOptions = { low: 0.012, high: 0.17, gap: 1, minS: 0.25, maxS: 2.6, maxPath: 1.8, black: 0.06, joinS: 0.2 };

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
    const s = i;
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
    const spanS = times[e]! - times[s - 1]!;
    if (touchesHard || spanS < o.minS || times[e]! - times[s]! >= o.maxS) continue;
    const change = thumbDistance(thumbs, s - 1, e);
    // Darkest/brightest frame: a fade through black or white passes through it.
    let lo = s;
    let hi = s;
    for (let k = s; k <= e; k++) {
      if (luma[k]! < luma[lo]!) lo = k;
      if (luma[k]! > luma[hi]!) hi = k;
    }
    const through = luma[lo]! <= o.black ? lo : luma[hi]! >= 1 - o.black ? hi : -1;
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
      if (change < o.high) continue;
      if (pathLength(thumbs, s - 1, e) > o.maxPath * change) continue;
      const fadeEnd = luma[s - 1]! <= o.black || luma[e]! <= o.black || luma[s - 1]! >= 1 - o.black || luma[e]! >= 1 - o.black;
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
