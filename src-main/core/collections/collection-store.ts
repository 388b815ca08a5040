import type { CollectionVideoState, TeamVideoState } from '../../../src-shared/contract/collections';
import type { CatalogDb } from '../catalog/open-catalog';
import { memberPresent, mergeVideo, takePresence, type MemberVersion } from './collection-member-merge';
import { createCollectionListStore } from './collection-list-store';
import { createCollectionOutboxStore } from './collection-outbox-store';
import { heldPresence, OPEN_STATES, toRow, versionOf, type AppliedMember, type RawRow, type VideoKey, type VideoRow } from './collection-video-row';

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

/**
 * The collections cache and the video_id <-> clip mapping, in the catalog's SQLite file: the owner of
 * `collection_videos` (a clip in a collection of a region, its upload and the service's verdict),
 * composed with the list of collections (collection-list-store.ts) and the team's outbox
 * (collection-outbox-store.ts) into the one store its consumers hold.
 */
export function createCollectionStore(db: CatalogDb, now: () => number = Date.now) {
  const q = {
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
      UPDATE collection_videos SET status = @status, video_id = @videoId, replaces_video_id = @replaces, progress = NULL, error_kind = NULL, error_message = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    // A removed clip added again: this catalog's add, now, pending over the presence held (its base).
    revive: db.prepare(`
      UPDATE collection_videos SET removed_at = NULL, removed_by = NULL, added_by = NULL, attached_at = @t, presence_by = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    remove: db.prepare(`
      UPDATE collection_videos SET removed_at = @t, removed_by = NULL, presence_by = NULL, progress = NULL, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId AND removed_at IS NULL`),
    startUpload: db.prepare(`
      UPDATE collection_videos SET status = 'uploading', uploads = uploads + 1, progress = 0, error_kind = NULL, error_message = NULL, updated_at = ?
      WHERE collection_id = ? AND region = ? AND clip_id = ? AND video_id IS NULL AND removed_at IS NULL`),
    adopt: db.prepare(`
      UPDATE collection_videos SET video_id = @videoId, replaces_video_id = NULL, status = @status, source = NULL, progress = NULL, error_kind = @errorKind, error_message = @errorMessage, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    mergeTeam: db.prepare(`
      UPDATE collection_videos SET attached_at = @addedAt, added_by = @addedBy, removed_at = @removedAt, removed_by = @removedBy,
        presence_at = @presenceAt, presence_by = @presenceBy, updated_at = @t
      WHERE collection_id = @collectionId AND region = @region AND clip_id = @clipId`),
    insertTeam: db.prepare(`
      INSERT INTO collection_videos (collection_id, region, clip_id, video_id, status, uploads, attached_at, added_by, presence_at, presence_by, updated_at)
      VALUES (@collectionId, @region, @clipId, NULL, 'queued', 0, @addedAt, @addedBy, @addedAt, @presenceBy, @t)`),
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

  const list = createCollectionListStore(db, now, (region, id) => (q.rowsOfCollection.all(id, region) as unknown[]).length > 0);
  const { touch, ...outbox } = createCollectionOutboxStore(db);

  const store = {
    ...list,
    ...outbox,

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
     * team; a retry of a video the service failed names that video, which is how the team's claim
     * knows this seat saw the failure (no clocks compared).
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
            // Added again after a removal, or retried: this catalog's add, now. The video the service
            // has is kept; one it failed is uploaded anew, in the team's place of the one named.
            q.revive.run({ ...key, t });
            if (retry) {
              const serviceFailed = existing.status === 'failed' && existing.errorKind === 'media';
              const repoll = existing.videoId !== null && !serviceFailed;
              q.reset.run({ ...key, t, status: repoll ? 'uploaded' : 'queued', videoId: repoll ? existing.videoId : null, replaces: serviceFailed ? existing.videoId : null });
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
      // A video id of this row's own ends the retry of the one it replaced.
      if (patch.videoId !== undefined) sets.push('replaces_video_id = NULL');
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
     * The server's version of a member, merged into this catalog's row by the team's rule
     * (collection-member-merge.ts; `sent`: what this seat's push sent of it, when this is its answer). A
     * member of a clip not in the collection here is added; a removal taken over the presence held
     * removes it; a pending add or removal over an older version gives way (`lost`); the team's video
     * is taken unless this seat is uploading its own at this moment.
     */
    applyTeamMember(seatId: string, key: VideoKey, incoming: MemberVersion, sent?: MemberVersion): AppliedMember & { lost: boolean } {
      const result = { key, changed: false, schedule: false, cancel: false, lost: false };
      const t = now();
      const mine = (by: string) => (by === seatId ? null : by);
      db.transaction(() => {
        let raw = q.anyRow.get(key.collectionId, key.region, key.clipId) as RawRow | undefined;
        if (!raw) {
          if (!memberPresent(incoming)) return;
          q.insertTeam.run({ ...key, addedAt: incoming.added.at, addedBy: mine(incoming.added.by), presenceBy: incoming.added.by, t });
          raw = q.anyRow.get(key.collectionId, key.region, key.clipId) as RawRow;
          result.changed = result.schedule = true;
        } else {
          const held = heldPresence(raw, seatId);
          const taken = takePresence(held, incoming, sent);
          result.lost = taken.lost;
          const p = taken.field;
          if (JSON.stringify(p) !== JSON.stringify(held)) {
            const added = p.value && !held.value;
            const removed = !p.value && held.value;
            q.mergeTeam.run({
              ...key,
              addedAt: added ? incoming.added.at : raw.attached_at,
              addedBy: added ? mine(incoming.added.by) : raw.added_by,
              removedAt: p.value ? null : removed ? incoming.removed!.at : raw.removed_at,
              removedBy: p.value ? null : removed ? mine(incoming.removed!.by) : raw.removed_by,
              presenceAt: p.stamp.at,
              presenceBy: p.pending ? null : p.stamp.by,
              t,
            });
            result.changed = true;
            if (removed) result.cancel = OPEN_STATES.includes(raw.status as CollectionVideoState);
            if (added) result.schedule = true;
          }
        }
        const present = (q.anyRow.get(key.collectionId, key.region, key.clipId) as RawRow).removed_at === null;
        const heldVideo = versionOf(raw, seatId).video;
        // The failed video this row's retry replaces, sent again by the team: known, not taken back.
        const retried = incoming.video !== null && incoming.video.id === raw.replaces_video_id;
        const video = retried ? heldVideo : mergeVideo(heldVideo, incoming.video);
        // This seat's own upload in flight records its own answer; the team keeps the first video.
        if (video && raw.status !== 'uploading') {
          const adopt = heldVideo === null || heldVideo.id !== video.id || heldVideo.state !== video.state;
          if (adopt) {
            store.adoptVideo(key, video.id, video.state);
            result.changed = true;
            result.schedule ||= present;
          }
        }
      })();
      return result;
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
