/**
 * The contract every nearest-neighbour index over segment embeddings fulfils, whatever sits behind it
 * (HNSW from usearch, or the brute-force scan that also serves as the test oracle).
 *
 * Ids are catalog segment ids: non-negative safe integers (< 2^53), so they survive the trip through
 * usearch's 64-bit keys and back into a JS number without loss.
 * Similarity is cosine: vectors are L2-normalised on insert and queries on search, so the score is a
 * plain dot product in [-1, 1].
 */

export interface SearchHit {
  id: number;
  similarity: number;
}

/** Restricts a search to some segments: a predicate, or the set of allowed ids (faster when small). */
export type SearchFilter = ((id: number) => boolean) | ReadonlySet<number>;

/** A vector as the caller holds it: any numeric array of the index's dimension. */
export type VectorInput = Float32Array | Float64Array | ArrayLike<number>;

export interface VectorIndex {
  /** Fixed by the first vector added (or by a loaded file); 0 while the index is empty and new. */
  readonly dimension: number;
  /** Number of live vectors. */
  readonly size: number;
  /** Inserts, or replaces the vector of an id already present. */
  add(id: number, vector: VectorInput): void;
  /**
   * Inserts many vectors at once; `vectors` is either one flat array of ids.length * dimension
   * numbers or one array per id. When an id repeats, the last occurrence wins.
   */
  addBatch(ids: ArrayLike<number>, vectors: Float32Array | readonly VectorInput[]): void;
  /** Returns whether the id was present. */
  remove(id: number): boolean;
  has(id: number): boolean;
  /** Every id held, in no particular order. */
  ids(): number[];
  /** A copy of the stored unit vector ("find similar" starts from it), or undefined. */
  vector(id: number): Float32Array | undefined;
  /** Top k by cosine similarity, highest first; fewer than k when fewer vectors match. */
  search(query: VectorInput, k: number, filter?: SearchFilter): SearchHit[];
  /** Writes the index to `basePath` plus companion files; returns every path written. */
  save(basePath: string): string[];
  /** Replaces the content with what `save(basePath)` wrote. Verify files before calling (see index-store). */
  load(basePath: string): void;
}
