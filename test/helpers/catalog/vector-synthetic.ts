/**
 * Deterministic synthetic "segment embeddings" for the recall tests and the search benchmark.
 * Real embeddings are clustered (segments of one clip, one scene, one subject sit close together),
 * and uniform random vectors would flatter or mislead an ANN index, so points are drawn around
 * cluster centres. Two shapes: isotropic clusters around unrelated centres (the hardest case for a
 * graph index) and `realisticSpec` (topics, low-dimensional variation inside each cluster).
 */

import { seededRandom } from '../../../src-main/core/util/seeded-random';

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
   * Length of a point's offset from its unit centre: a point's cosine to its centre is about
   * 1/sqrt(1+spread²). Each cluster draws its own spread in [0.6, 1.4] × this value.
   */
  spread: number;
  seed: number;
  /**
   * 0 (default): isotropic noise in all dimensions, every cluster member nearly equidistant from
   * every other: the worst case for a graph index, unlike real embeddings.
   * m > 0: most of the offset lies in a random m-dimensional subspace per cluster with a decaying
   * spectrum (like real embeddings, whose local intrinsic dimension is low), plus `noise` isotropic.
   */
  latentDims?: number;
  /** Isotropic share of the offset when latentDims > 0 (default 0.3). */
  noise?: number;
  /**
   * 0 (default): centres independent (in 512-d, mutually orthogonal). t > 0: centres are drawn
   * around t topic directions, so related clusters sit nearer each other, as related footage does.
   */
  topics?: number;
}

/** The generator the benchmark treats as "realistic": topics, low-dimensional clusters. */
export function realisticSpec(dimension: number, clusters: number, seed: number): ClusterSpec {
  return { dimension, clusters, seed, spread: 0.75, latentDims: 16, noise: 0.3, topics: Math.max(1, Math.round(clusters / 20)) };
}

export class ClusteredVectors {
  readonly centers: Float32Array;
  private readonly spreads: Float64Array;
  /** Per cluster, latentDims basis vectors (row-major), already scaled by their spectrum. */
  private readonly bases: Float32Array | null;
  private readonly gauss: () => number;
  private readonly rand: () => number;

  constructor(readonly spec: ClusterSpec) {
    const { dimension, clusters, seed } = spec;
    const g = seededGaussian(seed);
    const r = seededRandom(seed ^ 0x9e3779b9);
    const unit = (out: Float32Array, off: number): void => {
      let norm = 0;
      for (let i = 0; i < dimension; i++) {
        const v = g();
        out[off + i] = v;
        norm += v * v;
      }
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < dimension; i++) out[off + i]! *= inv;
    };
    this.centers = new Float32Array(clusters * dimension);
    this.spreads = new Float64Array(clusters);
    const topics = spec.topics ?? 0;
    const topicDirs = new Float32Array(Math.max(topics, 1) * dimension);
    for (let t = 0; t < topics; t++) unit(topicDirs, t * dimension);
    for (let c = 0; c < clusters; c++) {
      unit(this.centers, c * dimension);
      this.spreads[c] = spec.spread * (0.6 + 0.8 * r());
      if (topics > 0) {
        // centre = normalise(topic + own direction): siblings share about half their direction.
        const t = Math.floor(r() * topics);
        let norm = 0;
        for (let i = 0; i < dimension; i++) {
          const v = this.centers[c * dimension + i]! + topicDirs[t * dimension + i]!;
          this.centers[c * dimension + i] = v;
          norm += v * v;
        }
        const inv = 1 / Math.sqrt(norm);
        for (let i = 0; i < dimension; i++) this.centers[c * dimension + i]! *= inv;
      }
    }
    const m = spec.latentDims ?? 0;
    if (m > 0) {
      // Spectrum λ_j ∝ 1/(j+1), normalised to sum 1, so the latent offset has length ≈ 1 on average.
      const lambda = Array.from({ length: m }, (_, j) => 1 / (j + 1));
      const total = lambda.reduce((a, b) => a + b, 0);
      this.bases = new Float32Array(clusters * m * dimension);
      const colScale = 1 / Math.sqrt(dimension);
      for (let c = 0; c < clusters; c++) {
        for (let j = 0; j < m; j++) {
          const s = Math.sqrt(lambda[j]! / total) * colScale;
          const off = (c * m + j) * dimension;
          for (let i = 0; i < dimension; i++) this.bases[off + i] = g() * s;
        }
      }
    } else {
      this.bases = null;
    }
    this.gauss = seededGaussian(seed + 1);
    this.rand = seededRandom(seed + 2);
  }

  /** Writes the next `count` points (row-major, not normalised) into `out` from `offsetRows` on. */
  fill(out: Float32Array, count: number, offsetRows = 0): void {
    const { dimension, clusters } = this.spec;
    const m = this.spec.latentDims ?? 0;
    const noiseShare = this.bases === null ? 1 : (this.spec.noise ?? 0.3);
    const latentShare = Math.sqrt(Math.max(0, 1 - noiseShare * noiseShare));
    const sigmaScale = 1 / Math.sqrt(dimension);
    const z = new Float64Array(m);
    for (let n = 0; n < count; n++) {
      const c = Math.floor(this.rand() * clusters);
      const spread = this.spreads[c]!;
      const sigma = spread * noiseShare * sigmaScale;
      const base = (offsetRows + n) * dimension;
      const cBase = c * dimension;
      for (let i = 0; i < dimension; i++) out[base + i] = this.centers[cBase + i]! + sigma * this.gauss();
      if (this.bases !== null) {
        for (let j = 0; j < m; j++) z[j] = this.gauss() * spread * latentShare;
        for (let j = 0; j < m; j++) {
          const zj = z[j]!;
          const bOff = (c * m + j) * dimension;
          for (let i = 0; i < dimension; i++) out[base + i]! += zj * this.bases[bOff + i]!;
        }
      }
    }
  }

  /** Convenience: a fresh flat matrix of `count` points. */
  next(count: number): Float32Array {
    const out = new Float32Array(count * this.spec.dimension);
    this.fill(out, count);
    return out;
  }
}
