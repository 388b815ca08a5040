import { describe, expect, it } from 'vitest';
import { BaselineCache, type VectorBank } from '../../../src-main/core/search/relevance/baselines';
import {
  baselineOf,
  FLOOR_MAX,
  FLOOR_MIN,
  floorOfNullMaxima,
  textRelevance,
  textZ,
  videoRelevance,
  videoU,
} from '../../../src-main/core/search/relevance/relevance-math';
import { nullQueries, TextRelevance } from '../../../src-main/core/search/relevance/relevance-model';
import { ExactVectorIndex } from '../../../src-main/core/search/index/exact-search';

/** A seeded normal generator. */
function normals(n: number, mean: number, sd: number, seed: number): number[] {
  let s = seed;
  const u = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  return Array.from({ length: n }, () => mean + sd * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}

function unitRows(rows: number[][]): Float32Array {
  const d = rows[0]!.length;
  const out = new Float32Array(rows.length * d);
  rows.forEach((r, i) => {
    const n = Math.hypot(...r);
    r.forEach((x, j) => (out[i * d + j] = x / n));
  });
  return out;
}

function randomUnit(d: number, seed: number): number[] {
  const v = normals(d, 0, 1, seed);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('relevance math', () => {
  it("a segment's baseline is the median and robust spread of what the bank reaches on it: a few bank phrases that describe it do not move it", () => {
    const generic = normals(60, 0.18, 0.03, 7);
    const b = baselineOf([...generic, 0.9, 0.95, 0.97, 0.99]);
    expect(b.median).toBeCloseTo(baselineOf(generic).median, 1);
    expect(b.spread).toBeGreaterThan(0.015);
    expect(b.spread).toBeLessThan(0.05);
    expect(baselineOf([0.3, 0.3, 0.3]).spread).toBeGreaterThan(0); // degenerate: never a zero spread
  });

  it('scores 50 at the floor, higher above, monotonic in the cosine, 0..100 in whole points', () => {
    const b = { median: 0.2, spread: 0.03 };
    const floor = 3;
    expect(textRelevance(0.2 + 3 * 0.03, b, floor).score).toBe(50);
    const scores = [0.1, 0.2, 0.25, 0.29, 0.3, 0.35, 0.5, 1].map((c) => textRelevance(c, b, floor).score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThanOrEqual(scores[i - 1]!);
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...scores)).toBeLessThanOrEqual(100);
    expect(scores.every(Number.isInteger)).toBe(true);
    // One spread above the floor reads as a clear match; one below as no match.
    expect(textRelevance(0.2 + 4 * 0.03, b, floor).score).toBe(88);
    expect(textRelevance(0.2 + 2 * 0.03, b, floor).score).toBe(12);
  });

  it('"good" is the score shown: at least 50, and never for a cosine at or below 0', () => {
    for (const cos of [-0.5, -0.3, -0.01, 0]) {
      // A baseline far below zero would put these above the floor: a negative cosine is still no match.
      const r = textRelevance(cos, { median: -0.9, spread: 0.05 }, 2);
      expect(r.good).toBe(false);
      expect(r.score).toBeLessThan(50);
    }
    for (const cos of [0.05, 0.2, 0.4, 0.8]) {
      const r = textRelevance(cos, { median: 0.1, spread: 0.05 }, 2);
      expect(r.good).toBe(r.score >= 50);
    }
  });

  it('the floor sits where 99% of unrelated queries stay under, within bounds', () => {
    const maxima = normals(64, 2.5, 0.4, 11);
    const f = floorOfNullMaxima(maxima);
    const later = normals(10_000, 2.5, 0.4, 12);
    expect(later.filter((m) => m > f).length / later.length).toBeLessThan(0.02);
    expect(f).toBeGreaterThan(2.5);
    expect(floorOfNullMaxima([])).toBe(FLOOR_MIN);
    expect(floorOfNullMaxima([-3, -2, -2.5])).toBe(FLOOR_MIN);
    expect(floorOfNullMaxima([20, 21, 22])).toBe(FLOOR_MAX);
  });

  it('find-similar: an identical picture scores high however crowded the library is; halfway to identical is the floor', () => {
    // Pictures of one library crowd together: a typical neighbour at 0.8.
    const b = { median: 0.8, spread: 0.05 };
    expect(videoU(1, b)).toBeCloseTo(1);
    expect(videoRelevance(1, b).score).toBeGreaterThanOrEqual(90);
    expect(videoRelevance(0.9, b).score).toBe(50);
    expect(videoRelevance(0.82, b).good).toBe(false);
    // The same in a library whose pictures are far apart.
    expect(videoRelevance(0.999, { median: 0.1, spread: 0.5 }).score).toBeGreaterThanOrEqual(90);
  });
});

describe('baselines against a bank', () => {
  const d = 16;
  const bank: VectorBank = { key: 'b1', dimension: d, rows: 32, data: unitRows(Array.from({ length: 32 }, (_, i) => randomUnit(d, 100 + i))) };

  it('match the JS computation of the same median and spread, and are computed once per segment', () => {
    const vectors = new Map(Array.from({ length: 10 }, (_, i) => [i + 1, Float32Array.from(randomUnit(d, 500 + i))] as const));
    let reads = 0;
    const cache = new BaselineCache(bank);
    const vectorOf = (id: number) => {
      reads++;
      return vectors.get(id);
    };
    const got = cache.get([1, 2, 3, 99], vectorOf);
    expect([...got.keys()].sort()).toEqual([1, 2, 3]);
    for (const id of [1, 2, 3]) {
      const v = vectors.get(id)!;
      const sims = Array.from({ length: 32 }, (_, r) => v.reduce((s, x, j) => s + x * bank.data[r * d + j]!, 0));
      const want = baselineOf(sims);
      expect(got.get(id)!.median).toBeCloseTo(want.median, 5);
      expect(got.get(id)!.spread).toBeCloseTo(want.spread, 5);
    }
    const before = reads;
    cache.get([1, 2, 3], vectorOf);
    expect(reads).toBe(before);
    cache.forget([2]);
    cache.get([1, 2, 3], vectorOf);
    expect(reads).toBe(before + 1);
    cache.setBank({ ...bank, key: 'b2' });
    cache.get([1], vectorOf);
    expect(reads).toBe(before + 2);
  });

  it('null queries are the same every time and unit length', () => {
    const a = nullQueries(bank, 8);
    const b = nullQueries(bank, 8);
    expect(a.map((q) => Array.from(q))).toEqual(b.map((q) => Array.from(q)));
    for (const q of a) expect(Math.hypot(...q)).toBeCloseTo(1, 5);
  });
});

describe('text relevance on a library (vectors only)', () => {
  // A 24-d space: the bank spans generic directions; the library holds dark-ish segments, one exact
  // match of a query, and an outlier that stands out from the library in every direction.
  const d = 24;
  const bankRows = Array.from({ length: 64 }, (_, i) => randomUnit(d, 1000 + i));
  const bank: VectorBank = { key: 'lib', dimension: d, rows: 64, data: unitRows(bankRows) };
  const dark = randomUnit(d, 7);
  const library = new ExactVectorIndex();
  const near = (base: number[], seed: number, amount: number) => {
    const noise = randomUnit(d, seed);
    const v = base.map((x, i) => x + amount * noise[i]!);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  for (let i = 0; i < 60; i++) library.add(i + 1, near(dark, 2000 + i, 0.3));
  const outlier = randomUnit(d, 31337);
  library.add(100, outlier);
  const rel = new TextRelevance();
  rel.setBank(bank);

  it('the exact match of a query scores high although the library is all alike', () => {
    // The query is segment 1's own content: cosine 1.
    const s = rel.scorer(library, [1])!;
    expect(s.segment(1, 1).score).toBeGreaterThanOrEqual(80);
  });

  it('queries unrelated to everything stay under the floor (99 in 100), and the outlier gets no credit for standing out', () => {
    let good = 0;
    let outlierGood = 0;
    let outlierFirst = 0;
    const runs = 300;
    for (let seed = 0; seed < runs; seed++) {
      const q = Float32Array.from(randomUnit(d, 90_000 + seed));
      const hits = library.search(q, 10);
      const s = rel.scorer(library, hits.map((h) => h.id))!;
      if (hits.some((h) => s.segment(h.id, h.similarity).good)) good++;
      if (hits[0]!.id === 100) outlierFirst++;
      if (hits.some((h) => h.id === 100 && s.segment(h.id, h.similarity).good)) outlierGood++;
    }
    // The outlier tops many random queries by cosine (what a library-relative score rewards)...
    expect(outlierFirst).toBeGreaterThan(runs / 10);
    // ...but relevance gives it no credit for that, and nearly every unrelated query finds nothing good.
    expect(outlierGood).toBeLessThanOrEqual(runs * 0.01);
    expect(good).toBeLessThanOrEqual(runs * 0.03);
  });
});

describe('near-identical content', () => {
  it('scores near 100 even where the spread leaves the floor close to the ceiling of z (a space of few dimensions)', () => {
    // A segment whose bank answers spread widely: z can reach only (1 - 0) / 0.24 = 4.2, the floor is 3.9.
    const b = { median: 0, spread: 0.24 };
    expect(textRelevance(0.99, b, 3.9).score).toBeGreaterThanOrEqual(85);
    expect(textRelevance(0.999, b, 3.9).score).toBeGreaterThanOrEqual(95);
    // A floor z cannot reach at all: 0.95 still counts as the floor's cosine.
    expect(textRelevance(0.96, b, 5.5).good).toBe(true);
    // What is far from identical keeps its place under the floor.
    expect(textRelevance(0.7, b, 3.9).good).toBe(false);
    // Continuous and monotonic across the floor.
    const xs = Array.from({ length: 200 }, (_, i) => -0.2 + (i * 1.2) / 199);
    const ys = xs.map((c) => textRelevance(c, b, 3.9).score);
    for (let i = 1; i < ys.length; i++) expect(ys[i]!).toBeGreaterThanOrEqual(ys[i - 1]!);
  });

  it('leaves models whose text and pictures never come close scored by spreads alone', () => {
    const b = { median: 0.18, spread: 0.03 };
    for (const cos of [0.25, 0.3, 0.35, 0.4]) {
      const bySpread = Math.round(100 / (1 + Math.exp(-2 * (textZ(cos, b) - 3))));
      expect(textRelevance(cos, b, 3).score).toBe(bySpread);
    }
  });
});
