import type { CatalogDb } from '../../catalog/open-catalog';
import { blobToFloat32 } from '../../catalog/vector-blob';
import { spaceKey, type EmbeddingSpace } from './embedding-space';

/** A segment's stored embedding; `vector` is null when the blob is damaged (its length does not fit). */
export interface StoredVector {
  segmentId: number;
  model: string;
  region: string;
  vector: Float32Array | null;
}

interface EmbeddingRow {
  segment_id: number;
  dim: number;
  vector: Buffer;
  model: string;
  region: string;
}

function toStored(r: EmbeddingRow): StoredVector {
  let vector: Float32Array | null;
  try {
    vector = blobToFloat32(r.vector, r.dim);
  } catch {
    vector = null;
  }
  return { segmentId: r.segment_id, model: r.model, region: r.region, vector };
}

/** search_state names: the change-log sequence each space's saved index reflects, and how far the log was pruned. */
const SAVED_SEQ = 'index_generation:';
const PRUNED_THROUGH = 'log_pruned_through';

/**
 * The catalog side of keeping the vector index in step with the embeddings (migration 0005): the
 * only code that touches `embedding_changes` (filled by triggers on `embeddings`, read and pruned
 * here) and `search_state` (what each saved index reflects), and the reads of the pipeline's
 * `embeddings` the index is built from: a page of a space, the rows a change names, one segment's,
 * a fixed sample.
 */
export function createIndexSyncStore(db: CatalogDb) {
  const q = {
    lastSeq: db.prepare(`SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'embedding_changes'), 0)`).pluck(),
    changed: db.prepare('SELECT DISTINCT segment_id FROM embedding_changes WHERE seq > ? AND seq <= ?').pluck(),
    prune: db.prepare('DELETE FROM embedding_changes WHERE seq <= ?'),
    getState: db.prepare('SELECT value FROM search_state WHERE name = ?').pluck(),
    setState: db.prepare('INSERT INTO search_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    byIds: db.prepare('SELECT segment_id, dim, vector, model, region FROM embeddings WHERE segment_id IN (SELECT value FROM json_each(?))'),
    page: db.prepare('SELECT segment_id, dim, vector, model, region FROM embeddings WHERE model = ? AND region = ? AND segment_id > ? ORDER BY segment_id LIMIT ?'),
    one: db.prepare('SELECT segment_id, dim, vector, model, region FROM embeddings WHERE segment_id = ?'),
    // Spread over the ids by a multiplicative hash: the same segments from one call to the next.
    // Ids only: the order cannot use an index, so every row it ranks is read; the vectors (2 KB
    // each) are read for the few kept.
    sample: db.prepare(
      `SELECT segment_id FROM embeddings WHERE model = ? AND region = ?
       ORDER BY (segment_id * 2654435761) % 4294967296 LIMIT ?`,
    ).pluck(),
  };
  const stateOf = (name: string): number | undefined => (q.getState.get(name) as number | null | undefined) ?? undefined;

  return {
    /** The change log's last sequence number (0 before any change). */
    lastChangeSeq(): number {
      return q.lastSeq.get() as number;
    },

    /** Segments whose embedding was written or deleted after `afterSeq`, up to `throughSeq`. */
    changedSegmentIds(afterSeq: number, throughSeq: number): number[] {
      return q.changed.all(afterSeq, throughSeq) as number[];
    },

    /** The change-log sequence the saved index of `space` reflects; undefined when none was saved. */
    savedSeq(space: EmbeddingSpace): number | undefined {
      return stateOf(SAVED_SEQ + spaceKey(space));
    },

    /** How far the change log was pruned: a saved index older than this cannot catch up. */
    prunedThrough(): number {
      return stateOf(PRUNED_THROUGH) ?? 0;
    },

    /** The index of `space` was saved at `seq`: the log before it is in the file, so it goes. */
    recordSaved(space: EmbeddingSpace, seq: number): void {
      db.transaction(() => {
        q.setState.run(SAVED_SEQ + spaceKey(space), seq);
        q.prune.run(seq);
        if (seq > (stateOf(PRUNED_THROUGH) ?? 0)) q.setState.run(PRUNED_THROUGH, seq);
      })();
    },

    /** Embeddings of `space` after segment `afterId`, in id order: a page of a rebuild. */
    vectorPage(space: EmbeddingSpace, afterId: number, limit: number): StoredVector[] {
      return (q.page.all(space.model, space.region, afterId, limit) as EmbeddingRow[]).map(toStored);
    },

    /** The embeddings of these segments, of any space; deleted ones are absent. */
    vectorsOf(segmentIds: readonly number[]): StoredVector[] {
      return (q.byIds.all(JSON.stringify(segmentIds)) as EmbeddingRow[]).map(toStored);
    },

    /** One segment's embedding, of whatever space stored it. */
    vectorOf(segmentId: number): StoredVector | undefined {
      const r = q.one.get(segmentId) as EmbeddingRow | undefined;
      return r ? toStored(r) : undefined;
    },

    /** Up to `size` embeddings of `space`, the same ones from one call to the next (find-similar's sample). */
    sampleVectors(space: EmbeddingSpace, size: number): StoredVector[] {
      const ids = q.sample.all(space.model, space.region, size) as number[];
      const byId = new Map((q.byIds.all(JSON.stringify(ids)) as EmbeddingRow[]).map((r) => [r.segment_id, r]));
      return ids.flatMap((id) => {
        const r = byId.get(id);
        return r ? [toStored(r)] : [];
      });
    },
  };
}

export type IndexSyncStore = ReturnType<typeof createIndexSyncStore>;
