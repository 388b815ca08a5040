/**
 * The emulator's deterministic stand-in for a video-understanding model. NOT a model: colour and
 * brightness statistics of the frames, projected into the configured embedding dimension by a
 * fixed projection, plus a small vocabulary of colour and brightness words mapped into the same
 * space through the statistics a frame of that colour would have. A red clip is therefore the
 * nearest clip to the text "red", which is what end-to-end ranking tests need.
 */

export interface Frames {
  /** RGB24 frames, each width*height*3 bytes. */
  frames: Uint8Array[];
  width: number;
  height: number;
  /** Presentation time (seconds) of each frame. */
  times: number[];
}

export interface FrameStats {
  meanR: number;
  meanG: number;
  meanB: number;
  /** Mean HSV value, 0..1. */
  brightness: number;
  /** Mean HSV saturation, 0..1. */
  saturation: number;
  /** 12 soft bins of 30 degrees centred on 0 (red), 30 (orange)...; weight saturation*value per pixel. */
  hue: number[];
  topBrightness: number;
  bottomBrightness: number;
  /** Standard deviation of luma over the pixels, 0..~0.5. */
  lumaStd: number;
  /** Mean absolute luma difference between consecutive frames, 0..1. */
  motion: number;
  frameCount: number;
}

export const HUE_BINS = 12;
const MAX_PIXELS_PER_FRAME = 4096;

interface Acc {
  r: number;
  g: number;
  b: number;
  v: number;
  s: number;
  hue: number[];
  top: number;
  topN: number;
  bottom: number;
  bottomN: number;
  luma: number;
  luma2: number;
  n: number;
}

function newAcc(): Acc {
  return { r: 0, g: 0, b: 0, v: 0, s: 0, hue: new Array<number>(HUE_BINS).fill(0), top: 0, topN: 0, bottom: 0, bottomN: 0, luma: 0, luma2: 0, n: 0 };
}

function addPixel(acc: Acc, r: number, g: number, b: number, rowFraction: number): void {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max;
  const s = max === 0 ? 0 : (max - min) / max;
  acc.r += r;
  acc.g += g;
  acc.b += b;
  acc.v += v;
  acc.s += s;
  const luma = 0.299 * r + 0.587 * g + 0.114 * b;
  acc.luma += luma;
  acc.luma2 += luma * luma;
  if (rowFraction < 0.5) {
    acc.top += v;
    acc.topN++;
  } else {
    acc.bottom += v;
    acc.bottomN++;
  }
  acc.n++;
  if (max > min) {
    let h: number;
    const d = max - min;
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
    const pos = h / (360 / HUE_BINS);
    const lo = Math.floor(pos) % HUE_BINS;
    const hi = (lo + 1) % HUE_BINS;
    const frac = pos - Math.floor(pos);
    const w = s * v;
    acc.hue[lo]! += w * (1 - frac);
    acc.hue[hi]! += w * frac;
  }
}

function lumaPlane(frame: Uint8Array, width: number, height: number, step: number): Float32Array {
  const cols = Math.ceil(width / step);
  const rows = Math.ceil(height / step);
  const out = new Float32Array(cols * rows);
  let i = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const o = (y * width + x) * 3;
      out[i++] = (0.299 * frame[o]! + 0.587 * frame[o + 1]! + 0.114 * frame[o + 2]!) / 255;
    }
  }
  return out;
}

/** Statistics of RGB frames; large frames are subsampled on a grid, so the cost stays small. */
export function frameStats(f: Frames): FrameStats {
  const acc = newAcc();
  const step = Math.max(1, Math.ceil(Math.sqrt((f.width * f.height) / MAX_PIXELS_PER_FRAME)));
  let motionSum = 0;
  let motionN = 0;
  let prev: Float32Array | undefined;
  for (const frame of f.frames) {
    for (let y = 0; y < f.height; y += step) {
      const rowFraction = (y + 0.5) / f.height;
      for (let x = 0; x < f.width; x += step) {
        const o = (y * f.width + x) * 3;
        addPixel(acc, frame[o]! / 255, frame[o + 1]! / 255, frame[o + 2]! / 255, rowFraction);
      }
    }
    const plane = lumaPlane(frame, f.width, f.height, step);
    if (prev && prev.length === plane.length) {
      let d = 0;
      for (let i = 0; i < plane.length; i++) d += Math.abs(plane[i]! - prev[i]!);
      motionSum += d / plane.length;
      motionN++;
    }
    prev = plane;
  }
  return statsFromAcc(acc, motionN ? motionSum / motionN : 0, f.frames.length);
}

function statsFromAcc(acc: Acc, motion: number, frameCount: number): FrameStats {
  const n = Math.max(1, acc.n);
  const lumaMean = acc.luma / n;
  return {
    meanR: acc.r / n,
    meanG: acc.g / n,
    meanB: acc.b / n,
    brightness: acc.v / n,
    saturation: acc.s / n,
    hue: acc.hue.map((h) => h / n),
    topBrightness: acc.topN ? acc.top / acc.topN : 0,
    bottomBrightness: acc.bottomN ? acc.bottom / acc.bottomN : 0,
    lumaStd: Math.sqrt(Math.max(0, acc.luma2 / n - lumaMean * lumaMean)),
    motion,
    frameCount,
  };
}

/** Statistics of a uniform frame of one colour (r, g, b in 0..255): how vocabulary words are placed. */
export function colourStats(r: number, g: number, b: number): FrameStats {
  const acc = newAcc();
  addPixel(acc, r / 255, g / 255, b / 255, 0.25);
  addPixel(acc, r / 255, g / 255, b / 255, 0.75);
  return statsFromAcc(acc, 0, 1);
}

/**
 * Features, centred so that opposite qualities point in opposite directions: hue bins (weight 2),
 * mean R/G/B, brightness and saturation around mid values.
 */
export function features(s: FrameStats): number[] {
  return [...s.hue.map((h) => 2 * h), s.meanR - 0.5, s.meanG - 0.5, s.meanB - 0.5, 1.5 * (s.brightness - 0.5), s.saturation - 0.35];
}

export const FEATURE_DIM = HUE_BINS + 5;

/** mulberry32: small, fast, and the same sequence on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

const projections = new Map<number, number[][]>();

/**
 * A fixed dim x FEATURE_DIM projection. When dim >= FEATURE_DIM its columns are orthonormal, so
 * cosine similarity between features is kept exactly; below that it is a seeded random projection.
 */
export function projection(dim: number): number[][] {
  const hit = projections.get(dim);
  if (hit) return hit;
  const rand = prng(0x5eed + dim);
  const cols: number[][] = [];
  for (let c = 0; c < FEATURE_DIM; c++) {
    let v = Array.from({ length: dim }, () => gaussian(rand));
    if (dim >= FEATURE_DIM) {
      for (const prev of cols) {
        const dot = v.reduce((a, x, i) => a + x * prev[i]!, 0);
        v = v.map((x, i) => x - dot * prev[i]!);
      }
      const norm = Math.hypot(...v) || 1;
      v = v.map((x) => x / norm);
    } else {
      v = v.map((x) => x / Math.sqrt(dim));
    }
    cols.push(v);
  }
  projections.set(dim, cols);
  return cols;
}

export function l2normalize(v: number[]): number[] {
  const n = Math.hypot(...v);
  return n > 0 ? v.map((x) => x / n) : v.map((_, i) => (i === 0 ? 1 : 0));
}

export function embed(feat: number[], dim: number): number[] {
  const cols = projection(dim);
  const out = new Array<number>(dim).fill(0);
  for (let c = 0; c < FEATURE_DIM; c++) {
    const f = feat[c] ?? 0;
    if (f === 0) continue;
    const col = cols[c]!;
    for (let i = 0; i < dim; i++) out[i]! += f * col[i]!;
  }
  return l2normalize(out).map((x) => Math.fround(x));
}

export function embedStats(s: FrameStats, dim: number): number[] {
  return embed(features(s), dim);
}

/** The vocabulary: each word is the statistics of a frame of that colour. */
export const VOCABULARY: Record<string, FrameStats> = {
  red: colourStats(230, 20, 20),
  orange: colourStats(255, 140, 0),
  yellow: colourStats(250, 225, 0),
  green: colourStats(20, 190, 40),
  cyan: colourStats(0, 210, 220),
  teal: colourStats(0, 128, 128),
  blue: colourStats(20, 60, 240),
  purple: colourStats(140, 20, 220),
  violet: colourStats(140, 20, 220),
  magenta: colourStats(230, 0, 230),
  pink: colourStats(255, 105, 180),
  brown: colourStats(140, 80, 30),
  white: colourStats(245, 245, 245),
  black: colourStats(8, 8, 8),
  gray: colourStats(128, 128, 128),
  grey: colourStats(128, 128, 128),
  bright: colourStats(235, 235, 225),
  light: colourStats(235, 235, 225),
  dark: colourStats(25, 25, 30),
  night: colourStats(15, 15, 35),
  colorful: {
    ...colourStats(128, 128, 128),
    saturation: 1,
    brightness: 0.9,
    hue: new Array<number>(HUE_BINS).fill(0.9 / HUE_BINS),
  },
  colourful: {
    ...colourStats(128, 128, 128),
    saturation: 1,
    brightness: 0.9,
    hue: new Array<number>(HUE_BINS).fill(0.9 / HUE_BINS),
  },
};

export function vocabularyWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => Object.hasOwn(VOCABULARY, w));
}

/** Known words: the mean of their features. Anything else: a stable pseudo-random direction. */
export function embedText(text: string, dim: number): number[] {
  const words = vocabularyWords(text);
  if (words.length > 0) {
    const sum = new Array<number>(FEATURE_DIM).fill(0);
    for (const w of words) features(VOCABULARY[w]!).forEach((x, i) => (sum[i]! += x / words.length));
    return embed(sum, dim);
  }
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  const rand = prng(h);
  return embed(
    Array.from({ length: FEATURE_DIM }, () => gaussian(rand)),
    dim,
  );
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The vocabulary word nearest to the statistics: reported as a raw extra tag. */
export function dominantColour(s: FrameStats): string {
  const f = features(s);
  let best = 'gray';
  let bestSim = -Infinity;
  for (const w of ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink', 'white', 'black', 'gray', 'brown']) {
    const sim = cosine(f, features(VOCABULARY[w]!));
    if (sim > bestSim) {
      bestSim = sim;
      best = w;
    }
  }
  return best;
}
