import type { CatalogDb } from '../../catalog/open-catalog';
import type { CachedQuery } from '../../../../src-shared/contract/search';
import { blobToFloat32, float32ToBlob } from '../../catalog/vector-blob';
import type { EmbeddingSpace } from '../index/embedding-space';

/**
 * The cache key of a query: Unicode NFKC (full-width letters, ligatures), case-folded, whitespace
 * collapsed. "Red  Car" and "red car" are one query; punctuation is kept because it can change meaning.
 */
export function normalizeQuery(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en-US').replace(/\s+/g, ' ').trim();
}

export interface CachedQueryVector {
  vector: Float32Array;
  createdAt: number;
}

/** Bound on stored queries: at 512 floats each, 20k queries are about 40 MB. */
export const DEFAULT_QUERY_CACHE_MAX = 20_000;

/**
 * The owner of query_embeddings (migration 0005): the vectors of queries the service encoded, kept
 * in the catalog so they survive restarts (a query typed before runs again offline and costs no
 * quota online), and the reference queries of the relevance bank (migration 0025). The only code
 * that reads or writes the table.
 */
export function createQueryEmbeddingStore(db: CatalogDb, opts: { maxEntries?: number; now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? DEFAULT_QUERY_CACHE_MAX;
  const cachedRow = db.prepare('SELECT dim, vector, created_at FROM query_embeddings WHERE text_norm = ? AND model = ? AND region = ?');
  const markUsed = db.prepare('UPDATE query_embeddings SET last_used_at = ?, uses = uses + 1, text = ? WHERE text_norm = ? AND model = ? AND region = ?');
  const saveTyped = db.prepare(
    `INSERT INTO query_embeddings (text_norm, model, region, text, dim, vector, created_at, last_used_at, uses)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)
     ON CONFLICT (text_norm, model, region) DO UPDATE SET text = excluded.text, dim = excluded.dim, vector = excluded.vector,
       created_at = excluded.created_at, last_used_at = excluded.last_used_at, uses = uses + 1`,
  );
  // Reference queries (bank IS NOT NULL) are stored with uses = 0 until someone types one: they are
  // neither the user's searches (count, recent) nor subject to the bound (prune).
  const typedInSpace = db.prepare('SELECT COUNT(*) AS n FROM query_embeddings WHERE model = ? AND region = ? AND uses > 0');
  const boundedCount = db.prepare('SELECT COUNT(*) AS n FROM query_embeddings WHERE bank IS NULL');
  const dropLeastRecent = db.prepare(
    `DELETE FROM query_embeddings WHERE (text_norm, model, region) IN
       (SELECT text_norm, model, region FROM query_embeddings WHERE bank IS NULL ORDER BY last_used_at DESC LIMIT -1 OFFSET ?)`,
  );
  const recentInSpace = db.prepare(
    `SELECT text, text_norm, created_at, last_used_at, uses FROM query_embeddings WHERE model = ? AND region = ? AND uses > 0
     ORDER BY last_used_at DESC LIMIT ?`,
  );
  const saveReference = db.prepare(
    `INSERT INTO query_embeddings (text_norm, model, region, text, dim, vector, created_at, last_used_at, uses, bank)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
     ON CONFLICT (text_norm, model, region) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, bank = excluded.bank`,
  );
  const referencesOfBank = db.prepare('SELECT text_norm, dim, vector FROM query_embeddings WHERE bank = ? AND model = ? AND region = ?');
  let putsSincePrune = 0;

  const store = {
    /**
     * The cached vector, marking it used; undefined when this query was never encoded in this space.
     * `typed`: what the editor typed (camera words and all), which the recent searches show and run
     * again; `text` is what was encoded.
     */
    cachedVector(text: string, space: EmbeddingSpace, typed = text): CachedQueryVector | undefined {
      const norm = normalizeQuery(text);
      const row = cachedRow.get(norm, space.model, space.region) as { dim: number; vector: Buffer; created_at: number } | undefined;
      if (!row) return undefined;
      let vector: Float32Array;
      try {
        vector = blobToFloat32(row.vector, row.dim);
      } catch {
        // A damaged row is a miss: the next online search stores a good one.
        return undefined;
      }
      markUsed.run(now(), typed.trim(), norm, space.model, space.region);
      return { vector, createdAt: row.created_at };
    },

    save(text: string, space: EmbeddingSpace, vector: ArrayLike<number>, typed = text): void {
      const t = now();
      saveTyped.run(normalizeQuery(text), space.model, space.region, typed.trim(), vector.length, float32ToBlob(vector), t, t);
      // Pruning scans the table: do it now and then, not on every insert.
      if (++putsSincePrune >= 100) {
        putsSincePrune = 0;
        store.prune();
      }
    },

    /** Drops the least recently used entries beyond the bound. */
    prune(): number {
      const { n } = boundedCount.get() as { n: number };
      if (n <= maxEntries) return 0;
      return dropLeastRecent.run(maxEntries).changes;
    },

    /** Stores a reference query's vector (query-bank.ts) for bank `version`. */
    saveBankVector(text: string, space: EmbeddingSpace, vector: ArrayLike<number>, version: string): void {
      const t = now();
      saveReference.run(normalizeQuery(text), space.model, space.region, text.trim(), vector.length, float32ToBlob(vector), t, t, version);
    },

    /** The reference queries of bank `version` cached in `space`, by normalised text (damaged rows left out). */
    bankVectors(space: EmbeddingSpace, version: string): Map<string, Float32Array> {
      const out = new Map<string, Float32Array>();
      for (const r of referencesOfBank.all(version, space.model, space.region) as { text_norm: string; dim: number; vector: Buffer }[]) {
        try {
          out.set(r.text_norm, blobToFloat32(r.vector, r.dim));
        } catch {
          // Encoded again by the next bank job.
        }
      }
      return out;
    },

    /** How many of the editor's queries run offline in `space` (the status line's count). */
    typedCount(space: EmbeddingSpace): number {
      return (typedInSpace.get(space.model, space.region) as { n: number }).n;
    },

    /** The editor's queries of `space`, most recently used first (the recent searches). */
    recentTyped(space: EmbeddingSpace, limit: number): CachedQuery[] {
      const rows = recentInSpace.all(space.model, space.region, limit) as {
        text: string;
        text_norm: string;
        created_at: number;
        last_used_at: number;
        uses: number;
      }[];
      return rows.map((r) => ({ text: r.text, normalized: r.text_norm, createdAt: r.created_at, lastUsedAt: r.last_used_at, uses: r.uses }));
    },
  };
  return store;
}

export type QueryEmbeddingStore = ReturnType<typeof createQueryEmbeddingStore>;
