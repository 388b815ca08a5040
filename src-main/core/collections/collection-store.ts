import { ERROR_KINDS, type ErrorKind } from '../../../src-shared/errors';
import {
  COLLECTION_VIDEO_STATES,
  type CollectionSummary,
  type CollectionVideo,
  type CollectionVideoState,
} from '../../../src-shared/contract/collections';
import type { CatalogDb } from '../catalog/open-catalog';

/** One row of collection_videos: a clip in a collection of a region. */
export interface VideoKey {
  collectionId: string;
  region: string;
  clipId: number;
}

export interface VideoRow extends VideoKey {
  fileName: string;
  videoId: string | null;
  status: CollectionVideoState;
  progress: number | null;
  errorKind: ErrorKind | null;
  errorMessage: string | null;
  source: 'original' | 'proxy' | null;
  proxyPath: string | null;
  uploads: number;
  updatedAt: number;
}

/** States in which the app still has work to do for the row (upload or poll). */
export const OPEN_STATES: readonly CollectionVideoState[] = ['queued', 'transcoding', 'uploading', 'uploaded', 'processing'];
/** Before the service answered the upload with a video_id. */
export const UPLOAD_STATES: readonly CollectionVideoState[] = ['queued', 'transcoding', 'uploading'];
/** The service has the video and is (or may be) processing it. */
export const POLL_STATES: readonly CollectionVideoState[] = ['uploaded', 'processing'];

interface RawRow {
  collection_id: string;
  region: string;
  clip_id: number;
  file_name: string | null;
  video_id: string | null;
  status: string;
  progress: number | null;
  error_kind: string | null;
  error_message: string | null;
  source: string | null;
  proxy_path: string | null;
  uploads: number;
  updated_at: number;
}

function toRow(r: RawRow): VideoRow {
  return {
    collectionId: r.collection_id,
    region: r.region,
    clipId: r.clip_id,
    fileName: r.file_name ?? `clip ${r.clip_id}`,
    videoId: r.video_id,
    status: (COLLECTION_VIDEO_STATES as readonly string[]).includes(r.status) ? (r.status as CollectionVideoState) : 'processing',
    progress: r.progress,
    errorKind: (ERROR_KINDS as readonly string[]).includes(r.error_kind ?? '') ? (r.error_kind as ErrorKind) : null,
    errorMessage: r.error_message,
    source: r.source === 'original' || r.source === 'proxy' ? r.source : null,
    proxyPath: r.proxy_path,
    uploads: r.uploads,
    updatedAt: r.updated_at,
  };
}

export function toContractVideo(r: VideoRow): CollectionVideo {
  return {
    collectionId: r.collectionId,
    clipId: r.clipId,
    fileName: r.fileName,
    videoId: r.videoId,
    status: r.status,
    progress: r.progress === null ? null : Math.min(1, Math.max(0, r.progress)),
    errorKind: r.errorKind,
    errorMessage: r.errorMessage,
    source: r.source,
    uploads: r.uploads,
    updatedAt: r.updatedAt,
  };
}

export interface CachedCollection {
  id: string;
  name: string;
  description?: string | null;
  raw?: unknown;
}

export type RowPatch = Partial<Pick<VideoRow, 'status' | 'progress' | 'errorKind' | 'errorMessage' | 'source' | 'proxyPath' | 'videoId'>>;

const PATCH_COLUMNS: Record<keyof RowPatch, string> = {
  status: 'status',
  progress: 'progress',
  errorKind: 'error_kind',
  errorMessage: 'error_message',
  source: 'source',
  proxyPath: 'proxy_path',
  videoId: 'video_id',
};

const SELECT_ROW = `SELECT cv.*, c.file_name FROM collection_videos cv LEFT JOIN clips c ON c.id = cv.clip_id`;

/** The collections cache and the video_id <-> clip mapping, in the catalog's SQLite file. */
export function createCollectionStore(db: CatalogDb, now: () => number = Date.now) {
  const q = {
    summaries: db.prepare(`
      SELECT col.id, col.name, col.description, col.synced_at, col.gone_at,
             COUNT(cv.clip_id) AS videos,
             SUM(cv.status = 'processed') AS processed,
             SUM(cv.status = 'failed') AS failed,
             SUM(cv.status IN ('queued','transcoding','uploading','uploaded','processing')) AS in_flight
      FROM collections col
      LEFT JOIN collection_videos cv ON cv.collection_id = col.id AND cv.region = col.region
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
    row: db.prepare(`${SELECT_ROW} WHERE cv.collection_id = ? AND cv.region = ? AND cv.clip_id = ?`),
    rowsOfCollection: db.prepare(`${SELECT_ROW} WHERE cv.collection_id = ? AND cv.region = ? ORDER BY cv.attached_at, cv.clip_id`),
    rowsOfClip: db.prepare(`${SELECT_ROW} WHERE cv.clip_id = ? AND cv.region = ? ORDER BY cv.attached_at, cv.collection_id`),
    openClips: db.prepare(`SELECT DISTINCT clip_id FROM collection_videos WHERE region = ? AND status IN ('queued','transcoding','uploading','uploaded','processing') ORDER BY clip_id`),
    insertRow: db.prepare(`
      INSERT INTO collection_videos (collection_id, region, clip_id, status, uploads, attached_at, updated_at)
      VALUES (?, ?, ?, 'queued', 0, ?, ?)`),
    reset: db.prepare(`
      UPDATE collection_videos SET status = @status, video_id = @videoId, progress = NULL, error_kind = NULL, error_message = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    startUpload: db.prepare(`
      UPDATE collection_videos SET status = 'uploading', uploads = uploads + 1, progress = 0, error_kind = NULL, error_message = NULL, updated_at = ?
      WHERE collection_id = ? AND region = ? AND clip_id = ? AND video_id IS NULL`),
    // Processed videos uploaded from this catalog, counted per collection: what a search can ask.
    searchable: db
      .prepare(
        `SELECT collection_id FROM collection_videos WHERE region = ? AND status = 'processed' AND video_id IS NOT NULL
         GROUP BY collection_id ORDER BY COUNT(*) DESC, collection_id LIMIT ?`,
      )
      .pluck(),
    collectionOfVideo: db.prepare('SELECT collection_id FROM collection_videos WHERE video_id = ? AND region = ?').pluck(),
    byVideoIds: db.prepare(`
      SELECT cv.video_id, cv.clip_id, c.file_name FROM collection_videos cv LEFT JOIN clips c ON c.id = cv.clip_id
      WHERE cv.collection_id = ? AND cv.region = ? AND cv.video_id IN (SELECT value FROM json_each(?))`),
  };

  const store = {
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
      return store.summaries(region).find((c) => c.id === id);
    },

    lastSynced(region: string): number | null {
      return (q.lastSynced.get(region) as { t: number } | undefined)?.t ?? null;
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
        for (const c of items) store.upsertCollection(region, c);
        for (const { id } of q.collectionIds.all(region) as { id: string }[]) {
          if (keep.has(id)) continue;
          if ((q.rowsOfCollection.all(id, region) as unknown[]).length === 0) q.deleteCollection.run(id, region);
          else q.markGone.run(now(), id, region);
        }
      })();
    },

    row(key: VideoKey): VideoRow | undefined {
      const r = q.row.get(key.collectionId, key.region, key.clipId) as RawRow | undefined;
      return r ? toRow(r) : undefined;
    },

    rowsOfCollection(region: string, collectionId: string): VideoRow[] {
      return (q.rowsOfCollection.all(collectionId, region) as RawRow[]).map(toRow);
    },

    rowsOfClip(region: string, clipId: number): VideoRow[] {
      return (q.rowsOfClip.all(clipId, region) as RawRow[]).map(toRow);
    },

    /** Clips with work left: what a restart picks up again. */
    openClipIds(region: string): number[] {
      return (q.openClips.all(region) as { clip_id: number }[]).map((r) => r.clip_id);
    },

    /**
     * Adds clips to a collection. A clip already there is left alone unless it failed or was
     * cancelled: then it is queued again. A video the service itself failed is uploaded anew; one
     * that only stopped being polled (cancel, a local deadline) is polled again.
     */
    attach(region: string, collectionId: string, clipIds: readonly number[]): { queued: number[]; already: number[] } {
      const queued: number[] = [];
      const already: number[] = [];
      const t = now();
      db.transaction(() => {
        for (const clipId of clipIds) {
          const existing = store.row({ collectionId, region, clipId });
          if (!existing) {
            q.insertRow.run(collectionId, region, clipId, t, t);
            queued.push(clipId);
          } else if (existing.status === 'failed' || existing.status === 'cancelled') {
            const serviceFailed = existing.status === 'failed' && existing.errorKind === 'media';
            const repoll = existing.videoId !== null && !serviceFailed;
            q.reset.run({ collectionId, region, clipId, t, status: repoll ? 'uploaded' : 'queued', videoId: repoll ? existing.videoId : null });
            queued.push(clipId);
          } else {
            already.push(clipId);
          }
        }
      })();
      return { queued, already };
    },

    update(key: VideoKey, patch: RowPatch): void {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [k, v] of Object.entries(patch) as [keyof RowPatch, unknown][]) {
        if (v === undefined) continue;
        sets.push(`${PATCH_COLUMNS[k]} = ?`);
        values.push(v);
      }
      sets.push('updated_at = ?');
      values.push(now());
      db.prepare(`UPDATE collection_videos SET ${sets.join(', ')} WHERE collection_id = ? AND region = ? AND clip_id = ?`).run(
        ...values,
        key.collectionId,
        key.region,
        key.clipId,
      );
    },

    /**
     * Committed before the first byte goes out: a crash from here until recordVideoId leaves the
     * row 'uploading' without a video_id, which a restart uploads again.
     */
    startUpload(key: VideoKey): boolean {
      return q.startUpload.run(now(), key.collectionId, key.region, key.clipId).changes === 1;
    },

    /** The service answered the upload: from now on the row is only ever polled. */
    recordVideoId(key: VideoKey, videoId: string, source: 'original' | 'proxy'): void {
      store.update(key, { videoId, status: 'uploaded', progress: null, source, errorKind: null, errorMessage: null });
    },

    /** The region's collections holding processed videos uploaded from this catalog, most such videos first (at most `limit`). */
    searchableCollectionIds(region: string, limit: number): string[] {
      return q.searchable.all(region, limit) as string[];
    },

    /** The collection a video of this catalog was uploaded to; null for a video it does not know. */
    collectionOfVideo(region: string, videoId: string): string | null {
      return (q.collectionOfVideo.get(videoId, region) as string | undefined) ?? null;
    },

    /** video_id -> clip for the videos of one collection that this catalog uploaded. */
    clipsByVideoId(region: string, collectionId: string, videoIds: readonly string[]): Map<string, { clipId: number; fileName: string | null }> {
      const rows = q.byVideoIds.all(collectionId, region, JSON.stringify(videoIds)) as { video_id: string; clip_id: number; file_name: string | null }[];
      return new Map(rows.map((r) => [r.video_id, { clipId: r.clip_id, fileName: r.file_name }]));
    },
  };
  return store;
}

export type CollectionStore = ReturnType<typeof createCollectionStore>;
