/**
 * Deterministic synthetic "segment embeddings" for the recall tests and the search benchmark.
 * Real embeddings are clustered (segments of one clip, one scene, one subject sit close together),
 * and uniform random vectors would flatter or mislead an ANN index, so points are drawn around
 * random unit centres with Gaussian noise whose spread varies per cluster.
 */

/** mulberry32: tiny, fast, good enough for test data, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples (Box–Muller, both outputs used). */
export function seededGaussian(seed: number): () => number {
  const rand = seededRandom(seed);
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - rand(); // (0, 1]: log(0) must not happen
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export interface ClusterSpec {
  dimension: number;
  clusters: number;
  /**
   * Noise length relative to the unit centre: a point's cosine to its centre is about
   * 1/sqrt(1+spread²). Each cluster draws its own spread in [0.6, 1.4] × this value.
   */
  spread: number;
  seed: number;
}

export class ClusteredVectors {
  readonly centers: Float32Array;
  private readonly spreads: Float64Array;
  private readonly gauss: () => number;
  private readonly rand: () => number;

  constructor(readonly spec: ClusterSpec) {
    const { dimension, clusters, seed } = spec;
    const g = seededGaussian(seed);
    const r = seededRandom(seed ^ 0x9e3779b9);
    this.centers = new Float32Array(clusters * dimension);
    this.spreads = new Float64Array(clusters);
    for (let c = 0; c < clusters; c++) {
      let norm = 0;
      for (let i = 0; i < dimension; i++) {
        const v = g();
        this.centers[c * dimension + i] = v;
        norm += v * v;
      }
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < dimension; i++) this.centers[c * dimension + i]! *= inv;
      this.spreads[c] = spec.spread * (0.6 + 0.8 * r());
    }
    this.gauss = seededGaussian(seed + 1);
    this.rand = seededRandom(seed + 2);
  }

  /** Writes the next `count` points (row-major, not normalised) into `out` from `offsetRows` on. */
  fill(out: Float32Array, count: number, offsetRows = 0): void {
    const { dimension, clusters } = this.spec;
    const sigmaScale = 1 / Math.sqrt(dimension);
    for (let n = 0; n < count; n++) {
      const c = Math.floor(this.rand() * clusters);
      const sigma = this.spreads[c]! * sigmaScale;
      const base = (offsetRows + n) * dimension;
      const cBase = c * dimension;
      for (let i = 0; i < dimension; i++) out[base + i] = this.centers[cBase + i]! + sigma * this.gauss();
    }
  }

  /** Convenience: a fresh flat matrix of `count` points. */
  next(count: number): Float32Array {
    const out = new Float32Array(count * this.spec.dimension);
    this.fill(out, count);
    return out;
  }
}
