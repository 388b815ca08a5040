import { ERROR_KINDS, type AppErrorData, type ErrorKind } from '../../../src-shared/errors';
import {
  COLLECTION_VIDEO_STATES,
  type CollectionsList,
  type CollectionSummary,
  type CollectionVideo,
  type CollectionVideoState,
} from '../../../src-shared/contract/collections';
import type { CatalogDb } from '../catalog/open-catalog';
import { memberPresent, mergeMember, VIDEO_STATES, type MemberVersion, type TeamVideoState } from '../team/collection-member-merge';
import type { TeamMember } from '../team/team-collection-store';

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
  /** When the clip was added to the collection (here, or by `addedBy`). */
  attachedAt: number;
  /** The team seat whose add this row is; null: this catalog's own. */
  addedBy: string | null;
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
  attached_at: number | null;
  added_by: string | null;
  removed_at: number | null;
  removed_by: string | null;
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
    attachedAt: r.attached_at ?? r.updated_at,
    addedBy: r.added_by,
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
// Removed rows stay as tombstones (migration 0048) for the team; every read of members skips them.
const PRESENT = 'cv.removed_at IS NULL';

/** A change the team must hear of: an add, a removal, a video id, the service's verdict. */
export interface MemberReceipt {
  collectionId: string;
  region: string;
  clipId: number;
  at: number;
}

/** What applying another seat's version of a member did to this catalog's row. */
export interface AppliedMember {
  key: VideoKey;
  /** The row was written (the views are told). */
  changed: boolean;
  /** The clip has work to (re)start: an upload to claim, or a video to poll. */
  schedule: boolean;
  /** The member was removed while work on it was open here. */
  cancel: boolean;
}


/** The row's video as the team's rule sees it; a video id on a row in another state (cancelled, reset to poll) counts as uploaded. */
function videoOf(r: RawRow, seatId: string): MemberVersion['video'] {
  if (r.video_id === null) return null;
  const state = (VIDEO_STATES as readonly string[]).includes(r.status) ? (r.status as TeamVideoState) : 'uploaded';
  return { id: r.video_id, state, by: seatId };
}

/**
 * The row as a version of the team's member. NULL seats are this catalog's own changes. A present row
 * keeps no removal: its add is later than any removal it survived, so an older one arriving changes nothing.
 */
function versionOf(r: RawRow, seatId: string): MemberVersion {
  return {
    added: { at: r.attached_at ?? r.updated_at, by: r.added_by ?? seatId },
    removed: r.removed_at === null ? null : { at: r.removed_at, by: r.removed_by ?? seatId },
    video: videoOf(r, seatId),
  };
}

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
    row: db.prepare(`${SELECT_ROW} WHERE cv.collection_id = ? AND cv.region = ? AND cv.clip_id = ? AND ${PRESENT}`),
    // present or removed
    anyRow: db.prepare(`${SELECT_ROW} WHERE cv.collection_id = ? AND cv.region = ? AND cv.clip_id = ?`),
    rowsOfCollection: db.prepare(`${SELECT_ROW} WHERE cv.collection_id = ? AND cv.region = ? AND ${PRESENT} ORDER BY cv.attached_at, cv.clip_id`),
    rowsOfClip: db.prepare(`${SELECT_ROW} WHERE cv.clip_id = ? AND cv.region = ? AND ${PRESENT} ORDER BY cv.attached_at, cv.collection_id`),
    openClips: db.prepare(
      `SELECT DISTINCT clip_id FROM collection_videos WHERE region = ? AND removed_at IS NULL AND status IN ('queued','transcoding','uploading','uploaded','processing') ORDER BY clip_id`,
    ),
    insertRow: db.prepare(`
      INSERT INTO collection_videos (collection_id, region, clip_id, status, uploads, attached_at, updated_at)
      VALUES (?, ?, ?, 'queued', 0, ?, ?)`),
    reset: db.prepare(`
      UPDATE collection_videos SET status = @status, video_id = @videoId, progress = NULL, error_kind = NULL, error_message = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    // A removed clip added again: this catalog's add, now.
    revive: db.prepare(`
      UPDATE collection_videos SET removed_at = NULL, removed_by = NULL, added_by = NULL, attached_at = @t, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    remove: db.prepare(`
      UPDATE collection_videos SET removed_at = @t, removed_by = NULL, progress = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId AND removed_at IS NULL`),
    startUpload: db.prepare(`
      UPDATE collection_videos SET status = 'uploading', uploads = uploads + 1, progress = 0, error_kind = NULL, error_message = NULL, updated_at = ?
      WHERE collection_id = ? AND region = ? AND clip_id = ? AND video_id IS NULL AND removed_at IS NULL`),
    adopt: db.prepare(`
      UPDATE collection_videos SET video_id = @videoId, status = @status, source = NULL, progress = NULL, error_kind = @errorKind, error_message = @errorMessage, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    mergeTeam: db.prepare(`
      UPDATE collection_videos SET attached_at = @addedAt, added_by = @addedBy, removed_at = @removedAt, removed_by = @removedBy, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    insertTeam: db.prepare(`
      INSERT INTO collection_videos (collection_id, region, clip_id, video_id, status, uploads, attached_at, added_by, updated_at)
      VALUES (@collectionId, @region, @clipId, NULL, 'queued', 0, @addedAt, @addedBy, @t)`),
    touchOutbox: db.prepare(`
      INSERT INTO collection_outbox (collection_id, region, clip_id, at) VALUES (?, ?, ?, ?)
      ON CONFLICT (collection_id, region, clip_id) DO UPDATE SET at = excluded.at`),
    outbox: db.prepare(`
      SELECT o.collection_id AS o_collection_id, o.region AS o_region, o.clip_id AS o_clip_id, o.at AS o_at, t.team_clip_id, cv.*
        FROM collection_outbox o
        LEFT JOIN collection_videos cv ON cv.collection_id = o.collection_id AND cv.region = o.region AND cv.clip_id = o.clip_id
        LEFT JOIN team_clips t ON t.clip_id = o.clip_id
       -- a clip the team does not know yet waits for its link; a row gone with its clip is only cleared
       WHERE cv.clip_id IS NULL OR t.team_clip_id IS NOT NULL
       ORDER BY o.at LIMIT ?`),
    sent: db.prepare('DELETE FROM collection_outbox WHERE collection_id = ? AND region = ? AND clip_id = ? AND at = ?'),
    wait: db.prepare('INSERT INTO collection_waiting (team_clip_id) VALUES (?) ON CONFLICT DO NOTHING'),
    waitingLinked: db.prepare('SELECT w.team_clip_id FROM collection_waiting w JOIN team_clips t ON t.team_clip_id = w.team_clip_id ORDER BY w.team_clip_id').pluck(),
    waited: db.prepare('DELETE FROM collection_waiting WHERE team_clip_id = ?'),
    // Processed videos uploaded from this catalog, counted per collection: what a search can ask.
    searchable: db
      .prepare(
        `SELECT collection_id FROM collection_videos WHERE region = ? AND status = 'processed' AND video_id IS NOT NULL AND removed_at IS NULL
         GROUP BY collection_id ORDER BY COUNT(*) DESC, collection_id LIMIT ?`,
      )
      .pluck(),
    collectionOfVideo: db.prepare('SELECT collection_id FROM collection_videos WHERE video_id = ? AND region = ? AND removed_at IS NULL').pluck(),
    byVideoIds: db.prepare(`
      SELECT cv.video_id, cv.clip_id, c.file_name FROM collection_videos cv LEFT JOIN clips c ON c.id = cv.clip_id
      WHERE cv.collection_id = ? AND cv.region = ? AND cv.removed_at IS NULL AND cv.video_id IN (SELECT value FROM json_each(?))`),
  };

  const touch = (key: VideoKey, t: number) => q.touchOutbox.run(key.collectionId, key.region, key.clipId, t);

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

    /** The list as cached; `error` says why the service was not (or could not be) asked. */
    cachedList(region: string, source: 'service' | 'cache' = 'cache', error?: AppErrorData): CollectionsList {
      const out: CollectionsList = { collections: store.summaries(region), source, syncedAt: store.lastSynced(region) };
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
     * that only stopped being polled (cancel, a local deadline) is polled again. A clip removed
     * before is added again, keeping the video the service has. Adds and retries are listed for the
     * team (the retry's time tells the team's claim that this seat saw the failure).
     */
    attach(region: string, collectionId: string, clipIds: readonly number[]): { queued: number[]; already: number[] } {
      const queued: number[] = [];
      const already: number[] = [];
      const t = now();
      db.transaction(() => {
        for (const clipId of clipIds) {
          const key = { collectionId, region, clipId };
          const raw = q.anyRow.get(collectionId, region, clipId) as RawRow | undefined;
          const existing = raw ? toRow(raw) : undefined;
          const retry = existing?.status === 'failed' || existing?.status === 'cancelled';
          if (!existing) {
            q.insertRow.run(collectionId, region, clipId, t, t);
          } else if (raw!.removed_at === null && !retry) {
            already.push(clipId);
            continue;
          } else {
            // Added again after a removal, or retried: this catalog's add, now (a retry's time tells the
            // team's claim that this seat saw the failure). The video the service has is kept.
            q.revive.run({ ...key, t });
            if (retry) {
              const serviceFailed = existing.status === 'failed' && existing.errorKind === 'media';
              const repoll = existing.videoId !== null && !serviceFailed;
              q.reset.run({ ...key, t, status: repoll ? 'uploaded' : 'queued', videoId: repoll ? existing.videoId : null });
            }
          }
          queued.push(clipId);
          touch(key, t);
        }
      })();
      return { queued, already };
    },

    /**
     * Takes clips out of the collection as this catalog (and the team) sees it. The service keeps
     * the video (the spec has no delete); the row stays as a tombstone so the removal reaches the team
     * even when made offline. Returns the clips removed.
     */
    remove(region: string, collectionId: string, clipIds: readonly number[]): number[] {
      const t = now();
      const removed: number[] = [];
      db.transaction(() => {
        for (const clipId of clipIds) {
          const key = { collectionId, region, clipId };
          if (q.remove.run({ ...key, t }).changes === 0) continue;
          touch(key, t);
          removed.push(clipId);
        }
      })();
      return removed;
    },

    update(key: VideoKey, patch: RowPatch): void {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [k, v] of Object.entries(patch) as [keyof RowPatch, unknown][]) {
        if (v === undefined) continue;
        sets.push(`${PATCH_COLUMNS[k]} = ?`);
        values.push(v);
      }
      const t = now();
      sets.push('updated_at = ?');
      values.push(t);
      // A video id and the service's verdict are the team's business; progress and local steps are not.
      const publish = patch.videoId !== undefined || patch.status === 'processed' || patch.status === 'failed';
      db.transaction(() => {
        db.prepare(`UPDATE collection_videos SET ${sets.join(', ')} WHERE collection_id = ? AND region = ? AND clip_id = ?`).run(
          ...values,
          key.collectionId,
          key.region,
          key.clipId,
        );
        if (publish) touch(key, t);
      })();
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

    /**
     * The team's video for the row (another seat uploaded it): recorded as this row's, with the
     * service's state as the team knows it; nothing to send back.
     */
    adoptVideo(key: VideoKey, videoId: string, state: TeamVideoState): void {
      const failed = state === 'failed';
      q.adopt.run({
        ...key,
        videoId,
        status: state,
        errorKind: failed ? 'media' : null,
        errorMessage: failed ? 'the service failed the video another seat of the team uploaded; Retry uploads it again' : null,
        t: now(),
      });
    },

    /**
     * Another seat's version of a member, merged into this catalog's row by the team's rule
     * (team/collection-member-merge.ts). A member of a clip not in the collection here is added; a
     * removal later than this catalog's add removes it; the team's video is taken unless this seat is
     * uploading its own at this moment.
     */
    applyTeamMember(seatId: string, key: VideoKey, incoming: MemberVersion): AppliedMember {
      const result: AppliedMember = { key, changed: false, schedule: false, cancel: false };
      const t = now();
      const mine = (by: string) => (by === seatId ? null : by);
      db.transaction(() => {
        let raw = q.anyRow.get(key.collectionId, key.region, key.clipId) as RawRow | undefined;
        if (!raw) {
          if (!memberPresent(incoming)) return;
          q.insertTeam.run({ ...key, addedAt: incoming.added.at, addedBy: mine(incoming.added.by), t });
          raw = q.anyRow.get(key.collectionId, key.region, key.clipId) as RawRow;
          result.changed = result.schedule = true;
        }
        const held = versionOf(raw, seatId);
        const merged = mergeMember(held, incoming);
        const present = memberPresent(merged);
        const wasPresent = raw.removed_at === null;
        if (merged.added.at !== held.added.at || merged.added.by !== held.added.by || present !== wasPresent) {
          q.mergeTeam.run({
            ...key,
            addedAt: merged.added.at,
            addedBy: mine(merged.added.by),
            removedAt: present ? null : merged.removed!.at,
            removedBy: present ? null : mine(merged.removed!.by),
            t,
          });
          result.changed = true;
          if (wasPresent && !present) result.cancel = OPEN_STATES.includes(raw.status as CollectionVideoState);
          if (!wasPresent && present) result.schedule = true;
        }
        const video = merged.video;
        // This seat's own upload in flight records its own answer; the team keeps the first video.
        if (video && raw.status !== 'uploading') {
          const adopt = held.video === null || held.video.id !== video.id || held.video.state !== video.state;
          if (adopt) {
            store.adoptVideo(key, video.id, video.state);
            result.changed = true;
            result.schedule ||= present;
          }
        }
      })();
      return result;
    },

    /**
     * The changes not yet sent to the team, oldest first: members of linked clips as the team names
     * them, and the receipts to clear once sent (also of rows gone with their clip, which send nothing).
     */
    unsentMembers(seatId: string, limit: number): { members: TeamMember[]; receipts: MemberReceipt[] } {
      const rows = q.outbox.all(limit) as (RawRow & { o_collection_id: string; o_region: string; o_clip_id: number; o_at: number; team_clip_id: number | null })[];
      const members: TeamMember[] = [];
      const receipts: MemberReceipt[] = [];
      for (const r of rows) {
        const receipt = { collectionId: r.o_collection_id, region: r.o_region, clipId: r.o_clip_id, at: r.o_at };
        receipts.push(receipt);
        if (r.clip_id !== null && r.team_clip_id !== null) {
          members.push({ collectionId: r.collection_id, region: r.region, teamClipId: r.team_clip_id, version: versionOf(r, seatId) });
        }
      }
      return { members, receipts };
    },

    /** Sent: the entries are cleared unless a change came since they were read. */
    membersSent(receipts: readonly MemberReceipt[]): void {
      db.transaction(() => {
        for (const r of receipts) q.sent.run(r.collectionId, r.region, r.clipId, r.at);
      })();
    },

    /** Team clips with members this catalog does not have the clip of: looked at again once linked. */
    waitForClips(teamClipIds: readonly number[]): void {
      db.transaction(() => {
        for (const id of teamClipIds) q.wait.run(id);
      })();
    },

    waitingClipsNowLinked(): number[] {
      return q.waitingLinked.all() as number[];
    },

    doneWaiting(teamClipIds: readonly number[]): void {
      db.transaction(() => {
        for (const id of teamClipIds) q.waited.run(id);
      })();
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
