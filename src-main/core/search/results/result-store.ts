import type { ClipStatus } from '../../../../src-shared/contract/library';
import type { CatalogDb } from '../../catalog/open-catalog';

/**
 * Where a segment sits: what grouping needs of a hit (its clip, its shot's start, its range). The
 * range is its decoded frames, [startFrame, endFrame) with Out exclusive as shots count them (null
 * for a shot without frames), and their presentation times.
 */
export interface SegmentPlace {
  segmentId: number;
  clipId: number;
  shotId: number;
  shotStartS: number;
  startS: number;
  endS: number;
  startFrame: number | null;
  endFrame: number | null;
}

/** A clip as a result card shows it, with its volume. */
export interface CardClipRow {
  clip_id: number;
  file_name: string;
  rel_path: string;
  mount_path: string;
  online: number;
  missing_at: number | null;
  status: ClipStatus;
  duration_s: number | null;
  frame_count: number | null;
  fps: number | null;
  vfr: number | null;
  timecode: string | null;
  width: number | null;
  height: number | null;
  source_url: string | null;
}

export interface CardSegmentRow extends CardClipRow {
  segment_id: number;
  shot_id: number;
  start_s: number;
  end_s: number;
}

export interface PosterRow {
  clip_id: number;
  shot_id: number | null;
  path: string;
  width: number | null;
  height: number | null;
  time_s: number | null;
}

/** A clip's file identity (size and first and last 64 KiB) and every other clip catalogued with it. */
export interface FileCopies {
  fingerprint: string | null;
  others: number[];
}

/**
 * The reads of a page of search results: where hits sit (segments and their shots), which clips
 * hold the same file, the clips, segments and posters a card shows (clips, volumes, thumbnails),
 * the library's order, and find-similar's neighbourhood. A read model over the library's and the
 * pipeline's tables, for search alone: it writes nothing. Every read takes its ids as one JSON
 * array, so each statement is prepared once.
 */
export function createResultStore(db: CatalogDb) {
  const q = {
    places: db.prepare(
      `SELECT s.id AS segmentId, s.clip_id AS clipId, s.shot_id AS shotId, sh.start_s AS shotStartS, s.start_s AS startS, s.end_s AS endS,
         s.start_frame AS startFrame, s.end_frame AS endFrame
       FROM segments s JOIN shots sh ON sh.id = s.shot_id WHERE s.id IN (SELECT value FROM json_each(?))`,
    ),
    placesInClips: db.prepare(
      `SELECT s.id AS segmentId, s.clip_id AS clipId, s.shot_id AS shotId, sh.start_s AS shotStartS, s.start_s AS startS, s.end_s AS endS,
         s.start_frame AS startFrame, s.end_frame AS endFrame
       FROM segments s JOIN shots sh ON sh.id = s.shot_id WHERE s.clip_id IN (SELECT value FROM json_each(?)) ORDER BY s.clip_id, s.start_s`,
    ),
    copies: db.prepare(
      `SELECT c.id, c.fingerprint, (SELECT json_group_array(o.id) FROM clips o WHERE o.fingerprint = c.fingerprint AND o.id <> c.id) AS others
       FROM clips c WHERE c.id IN (SELECT value FROM json_each(?))`,
    ),
    cardSegments: db.prepare(
      `SELECT s.id AS segment_id, s.shot_id, s.start_s, s.end_s, c.id AS clip_id, c.file_name, c.rel_path, v.mount_path, v.online,
         c.missing_at, c.status, c.duration_s, c.frame_count, c.fps, c.vfr, c.timecode, c.width, c.height, c.source_url
       FROM segments s JOIN clips c ON c.id = s.clip_id JOIN volumes v ON v.id = c.volume_id
       WHERE s.id IN (SELECT value FROM json_each(?))`,
    ),
    cardClips: db.prepare(
      `SELECT c.id AS clip_id, c.file_name, c.rel_path, v.mount_path, v.online, c.missing_at, c.status, c.duration_s, c.frame_count, c.fps, c.vfr,
         c.timecode, c.width, c.height, c.source_url
       FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id IN (SELECT value FROM json_each(?))`,
    ),
    posters: db.prepare(
      `SELECT clip_id, shot_id, path, width, height, time_s FROM thumbnails
       WHERE kind = 'poster' AND clip_id IN (SELECT value FROM json_each(?)) ORDER BY clip_id, time_s`,
    ),
    libraryOrder: db
      .prepare(
        `SELECT c.id FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id IN (SELECT value FROM json_each(?))
         ORDER BY v.mount_path, c.rel_path COLLATE NOCASE, c.id`,
      )
      .pluck(),
    segmentsOfClip: db.prepare('SELECT id FROM segments WHERE clip_id = ?').pluck(),
    segmentsOverlapping: db.prepare('SELECT id FROM segments WHERE clip_id = ? AND start_s < ? AND end_s > ?').pluck(),
  };
  const ids = (list: readonly number[]) => JSON.stringify(list);

  return {
    /** Places of these segments; ids no longer in the catalog are absent. */
    placesOf(segmentIds: readonly number[]): Map<number, SegmentPlace> {
      if (segmentIds.length === 0) return new Map();
      return new Map((q.places.all(ids(segmentIds)) as SegmentPlace[]).map((r) => [r.segmentId, r]));
    },

    /** Every segment of these clips, in time order: the local evidence of a collection hit. */
    placesInClips(clipIds: readonly number[]): Map<number, SegmentPlace[]> {
      const out = new Map<number, SegmentPlace[]>();
      if (clipIds.length === 0) return out;
      for (const r of q.placesInClips.all(ids(clipIds)) as SegmentPlace[]) (out.get(r.clipId) ?? out.set(r.clipId, []).get(r.clipId)!).push(r);
      return out;
    },

    /** Each clip's fingerprint and the other clips catalogued with the same one; unknown ids are absent. */
    fileCopies(clipIds: readonly number[]): Map<number, FileCopies> {
      if (clipIds.length === 0) return new Map();
      const rows = q.copies.all(ids([...new Set(clipIds)])) as { id: number; fingerprint: string | null; others: string }[];
      return new Map(rows.map((r) => [r.id, { fingerprint: r.fingerprint, others: r.fingerprint ? (JSON.parse(r.others) as number[]).sort((a, b) => a - b) : [] }]));
    },

    /** The segments a card shows, each with its clip. */
    cardSegments(segmentIds: readonly number[]): CardSegmentRow[] {
      return segmentIds.length === 0 ? [] : (q.cardSegments.all(ids(segmentIds)) as CardSegmentRow[]);
    },

    /** The clips cards show (a card's own, and every copy it lists). */
    cardClips(clipIds: readonly number[]): CardClipRow[] {
      return clipIds.length === 0 ? [] : (q.cardClips.all(ids(clipIds)) as CardClipRow[]);
    },

    /** Every poster of these clips, by clip, in time order. */
    postersOf(clipIds: readonly number[]): Map<number, PosterRow[]> {
      const out = new Map<number, PosterRow[]>();
      if (clipIds.length === 0) return out;
      for (const r of q.posters.all(ids(clipIds)) as PosterRow[]) (out.get(r.clip_id) ?? out.set(r.clip_id, []).get(r.clip_id)!).push(r);
      return out;
    },

    /** These clips in the library's order: by volume and path (case aside), then id. */
    inLibraryOrder(clipIds: readonly number[]): number[] {
      return clipIds.length === 0 ? [] : (q.libraryOrder.all(ids([...new Set(clipIds)])) as number[]);
    },

    /** Every segment of a clip. */
    segmentIdsOfClip(clipId: number): number[] {
      return q.segmentsOfClip.all(clipId) as number[];
    },

    /** The segments of a clip that overlap [fromS, toS]. */
    segmentIdsOverlapping(clipId: number, fromS: number, toS: number): number[] {
      return q.segmentsOverlapping.all(clipId, toS, fromS) as number[];
    },
  };
}

export type ResultStore = ReturnType<typeof createResultStore>;
