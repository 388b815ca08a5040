import { clearLoadingMarker, saveIndex, tryLoadIndex, type RebuildReason } from '../../../src-main/core/search/index/index-store';
import { createVectorIndex } from '../../../src-main/core/search/index/vector-index';
import type { VectorIndex, VectorInput } from '../../../src-main/core/search/index/vector-types';

/**
 * The index store's load-or-rebuild cycle in one call, for its tests: the app's own cycle (and its
 * rebuild from the catalog's change log) is SearchIndexManager.open.
 */
export type RebuildSource = Iterable<readonly [number, VectorInput]> | AsyncIterable<readonly [number, VectorInput]>;

export interface LoadOrRebuildOptions<T extends VectorIndex> {
  /** The catalog's generation: an index saved at another generation is rebuilt. */
  generation: number;
  createIndex?: () => T;
  /** Rows per addBatch call while rebuilding. */
  batchSize?: number;
  /** Save the rebuilt index at once (default true). */
  persist?: boolean;
}

export type LoadOrRebuildResult<T extends VectorIndex> =
  | { index: T; source: 'loaded' }
  | { index: T; source: 'rebuilt'; reason: RebuildReason; detail: string };

/** Fills `index` from (id, vector) pairs in batches; returns the number of pairs read. */
export async function fillIndex(index: VectorIndex, rows: RebuildSource, batchSize = 8192): Promise<number> {
  let ids: number[] = [];
  let vectors: VectorInput[] = [];
  let total = 0;
  for await (const [id, vector] of rows) {
    ids.push(id);
    vectors.push(vector);
    if (ids.length >= batchSize) {
      index.addBatch(ids, vectors);
      total += ids.length;
      ids = [];
      vectors = [];
      // Each batch blocks for a moment in native code; let timers and IPC run between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  if (ids.length > 0) index.addBatch(ids, vectors);
  return total + ids.length;
}

/**
 * Opens the persisted index, or rebuilds it from the catalog when the files are missing, damaged,
 * from another catalog generation or unreadable by this build; the rebuilt index is saved at once.
 */
export async function loadOrRebuild<T extends VectorIndex = VectorIndex>(
  dir: string,
  rebuild: () => RebuildSource,
  options: LoadOrRebuildOptions<T>,
): Promise<LoadOrRebuildResult<T>> {
  const createIndex = options.createIndex ?? (createVectorIndex as unknown as () => T);
  const loaded = tryLoadIndex(dir, options.generation, createIndex);
  if (loaded.ok) {
    loaded.settle();
    return { index: loaded.index, source: 'loaded' };
  }
  const index = createIndex();
  await fillIndex(index, rebuild(), options.batchSize);
  if (options.persist !== false) {
    saveIndex(dir, index, options.generation);
    clearLoadingMarker(dir);
  }
  return { index, source: 'rebuilt', reason: loaded.reason, detail: loaded.detail };
}
