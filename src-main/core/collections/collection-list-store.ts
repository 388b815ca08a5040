import type { AppErrorData } from '../../../src-shared/errors';
import type { CollectionsList, CollectionSummary } from '../../../src-shared/contract/collections';
import type { CatalogDb } from '../catalog/open-catalog';

/** A collection as the service lists it, kept in the cache. */
export interface CachedCollection {
  id: string;
  name: string;
  description?: string | null;
  raw?: unknown;
}

/**
 * The owner of `collections` and `collection_syncs`: the service's list of collections per region as
 * last read, and when. `hasMembers` says whether clips of this catalog are in a collection (rows of
 * collection-store.ts), which keeps it when the service stops listing it.
 */
export function createCollectionListStore(db: CatalogDb, now: () => number, hasMembers: (region: string, id: string) => boolean) {
  const q = {
    summaries: db.prepare(`
      SELECT col.id, col.name, col.description, col.synced_at, col.gone_at,
             COUNT(cv.clip_id) AS videos,
             SUM(cv.status = 'processed') AS processed,
             SUM(cv.status = 'failed') AS failed,
             SUM(cv.status IN ('queued','transcoding','uploading','uploaded','processing')) AS in_flight
      FROM collections col
      LEFT JOIN collection_videos cv ON cv.collection_id = col.id AND cv.region = col.region AND cv.removed_at IS NULL
      WHERE col.region = ?
      GROUP BY col.id, col.region
      ORDER BY col.name COLLATE NOCASE, col.id`),
    lastSynced: db.prepare(`SELECT synced_at AS t FROM collection_syncs WHERE region = ?`),
    noteSynced: db.prepare(`INSERT INTO collection_syncs (region, synced_at) VALUES (?, ?) ON CONFLICT (region) DO UPDATE SET synced_at = excluded.synced_at`),
    upsertCollection: db.prepare(`
      INSERT INTO collections (id, region, name, description, raw_json, synced_at) VALUES (@id, @region, @name, @description, @raw, @t)
      ON CONFLICT (id, region) DO UPDATE SET name = excluded.name, gone_at = NULL,
        description = COALESCE(excluded.description, collections.description),
        raw_json = COALESCE(excluded.raw_json, collections.raw_json), synced_at = excluded.synced_at`),
    collectionIds: db.prepare(`SELECT id FROM collections WHERE region = ?`),
    deleteCollection: db.prepare(`DELETE FROM collections WHERE id = ? AND region = ?`),
    markGone: db.prepare(`UPDATE collections SET gone_at = COALESCE(gone_at, ?) WHERE id = ? AND region = ?`),
    hasCollection: db.prepare(`SELECT 1 FROM collections WHERE id = ? AND region = ?`),
  };

  const list = {
    summaries(region: string): CollectionSummary[] {
      const rows = q.summaries.all(region) as { id: string; name: string; description: string | null; synced_at: number; gone_at: number | null; videos: number; processed: number | null; failed: number | null; in_flight: number | null }[];
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        syncedAt: r.synced_at,
        goneAt: r.gone_at,
        videos: r.videos,
        processed: r.processed ?? 0,
        failed: r.failed ?? 0,
        inFlight: r.in_flight ?? 0,
      }));
    },

    summary(region: string, id: string): CollectionSummary | undefined {
      return list.summaries(region).find((c) => c.id === id);
    },

    lastSynced(region: string): number | null {
      return (q.lastSynced.get(region) as { t: number } | undefined)?.t ?? null;
    },

    /** The list as cached; `error` says why the service was not (or could not be) asked. */
    cachedList(region: string, source: 'service' | 'cache' = 'cache', error?: AppErrorData): CollectionsList {
      const out: CollectionsList = { collections: list.summaries(region), source, syncedAt: list.lastSynced(region) };
      if (error) out.error = error;
      return out;
    },

    hasCollection(region: string, id: string): boolean {
      return q.hasCollection.get(id, region) !== undefined;
    },

    upsertCollection(region: string, c: CachedCollection): void {
      q.upsertCollection.run({ id: c.id, region, name: c.name, description: c.description ?? null, raw: c.raw === undefined ? null : JSON.stringify(c.raw), t: now() });
    },

    /**
     * The service's list replaces the cache. A collection the service no longer lists is dropped
     * unless clips of this catalog are attached to it: their mapping must survive a list that
     * pages differently or lags behind a create, and the user must see that it is gone (gone_at).
     */
    replaceCollections(region: string, items: readonly CachedCollection[]): void {
      db.transaction(() => {
        // The list was read, even when it holds nothing yet.
        q.noteSynced.run(region, now());
        const keep = new Set(items.map((c) => c.id));
        for (const c of items) list.upsertCollection(region, c);
        for (const { id } of q.collectionIds.all(region) as { id: string }[]) {
          if (keep.has(id)) continue;
          if (!hasMembers(region, id)) q.deleteCollection.run(id, region);
          else q.markGone.run(now(), id, region);
        }
      })();
    },
  };
  return list;
}
