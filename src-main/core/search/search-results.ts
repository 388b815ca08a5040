import type { ThumbRef } from '../../../src-shared/contract/library';
import type { SegmentTag } from '../../../src-shared/contract/search';
import type { ClipStatus } from '../../../src-shared/contract/library';
import type { CatalogDb } from '../catalog/open-catalog';
import { rateFromFps, type FrameRate } from '../../../src-shared/timecode';
import { joinOnVolume } from '../library/clip-paths';
import { tagsForSegments } from './segment-tags';

export interface ClipInfo {
  clipId: number;
  clipName: string;
  clipPath: string;
  clipStatus: ClipStatus;
  clipDurationS: number | null;
  /** The clip's clock, so results show source timecode. */
  clipRate: FrameRate | null;
  clipTimecode: string | null;
  width: number | null;
  height: number | null;
}

export interface SegmentInfo extends ClipInfo {
  segmentId: number;
  shotId: number;
  startS: number;
  endS: number;
  thumb: ThumbRef | null;
  tags: SegmentTag[];
}

interface ClipRowLite {
  clip_id: number;
  file_name: string;
  rel_path: string;
  mount_path: string;
  online: number;
  missing_at: number | null;
  status: ClipStatus;
  duration_s: number | null;
  fps: number | null;
  vfr: number | null;
  timecode: string | null;
  width: number | null;
  height: number | null;
  source_url: string | null;
}

const CLIP_COLS = `c.id AS clip_id, c.file_name, c.rel_path, v.mount_path, v.online, c.missing_at, c.status, c.duration_s, c.fps, c.vfr, c.timecode, c.width, c.height, c.source_url`;

function clipInfo(r: ClipRowLite): ClipInfo {
  // Same rule as the Library: a clip on a disconnected volume is offline, one gone from its path is missing.
  const clipStatus: ClipStatus = !r.online ? 'offline' : r.missing_at !== null ? 'missing' : r.status;
  return {
    clipId: r.clip_id,
    clipName: r.file_name,
    clipPath: r.source_url ?? joinOnVolume(r.mount_path, r.rel_path),
    clipStatus,
    clipDurationS: r.duration_s,
    clipRate: r.fps ? rateFromFps(r.fps, r.vfr === 1) : null,
    clipTimecode: r.timecode,
    width: r.width,
    height: r.height,
  };
}

interface PosterRow {
  clip_id: number;
  shot_id: number | null;
  path: string;
  width: number | null;
  height: number | null;
  time_s: number | null;
}

function postersFor(db: CatalogDb, clipIds: readonly number[]): Map<number, PosterRow[]> {
  const out = new Map<number, PosterRow[]>();
  if (clipIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT clip_id, shot_id, path, width, height, time_s FROM thumbnails
       WHERE kind = 'poster' AND clip_id IN (SELECT value FROM json_each(?)) ORDER BY clip_id, time_s`,
    )
    .all(JSON.stringify(clipIds)) as PosterRow[];
  for (const r of rows) {
    const list = out.get(r.clip_id) ?? [];
    list.push(r);
    out.set(r.clip_id, list);
  }
  return out;
}

/** The poster nearest the middle of the range, preferring the segment's own shot. */
function pickPoster(posters: readonly PosterRow[] | undefined, shotId: number | null, startS: number, endS: number): ThumbRef | null {
  if (!posters?.length) return null;
  const own = shotId === null ? [] : posters.filter((p) => p.shot_id === shotId);
  const pool = own.length ? own : posters;
  const mid = (startS + endS) / 2;
  let best = pool[0]!;
  for (const p of pool) if (Math.abs((p.time_s ?? 0) - mid) < Math.abs((best.time_s ?? 0) - mid)) best = p;
  return { path: best.path, width: best.width, height: best.height };
}

/** Everything a result shows about each segment; ids no longer in the catalog are absent. */
export function loadSegments(db: CatalogDb, segmentIds: readonly number[]): Map<number, SegmentInfo> {
  const out = new Map<number, SegmentInfo>();
  if (segmentIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT s.id AS segment_id, s.shot_id, s.start_s, s.end_s, ${CLIP_COLS}
       FROM segments s JOIN clips c ON c.id = s.clip_id JOIN volumes v ON v.id = c.volume_id
       WHERE s.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(segmentIds)) as (ClipRowLite & { segment_id: number; shot_id: number; start_s: number; end_s: number })[];
  const posters = postersFor(db, [...new Set(rows.map((r) => r.clip_id))]);
  const tags = tagsForSegments(db, rows.map((r) => r.segment_id));
  for (const r of rows) {
    out.set(r.segment_id, {
      ...clipInfo(r),
      segmentId: r.segment_id,
      shotId: r.shot_id,
      startS: r.start_s,
      endS: r.end_s,
      thumb: pickPoster(posters.get(r.clip_id), r.shot_id, r.start_s, r.end_s),
      tags: tags.get(r.segment_id) ?? [],
    });
  }
  return out;
}

/** Clip facts plus its first poster, for results that name a whole clip (collection hits). */
export function loadClips(db: CatalogDb, clipIds: readonly number[]): Map<number, ClipInfo & { thumb: ThumbRef | null }> {
  const out = new Map<number, ClipInfo & { thumb: ThumbRef | null }>();
  if (clipIds.length === 0) return out;
  const rows = db
    .prepare(`SELECT ${CLIP_COLS} FROM clips c JOIN volumes v ON v.id = c.volume_id WHERE c.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(clipIds)) as ClipRowLite[];
  const posters = postersFor(db, rows.map((r) => r.clip_id));
  for (const r of rows) {
    const info = clipInfo(r);
    out.set(r.clip_id, { ...info, thumb: pickPoster(posters.get(r.clip_id), null, 0, info.clipDurationS ?? 0) });
  }
  return out;
}

/** Where a segment sits: what grouping needs of a hit (its clip, its shot's start, its range). */
export interface SegmentPlace {
  segmentId: number;
  clipId: number;
  shotId: number;
  shotStartS: number;
  startS: number;
  endS: number;
}

const PLACE_COLS = 's.id AS segmentId, s.clip_id AS clipId, s.shot_id AS shotId, sh.start_s AS shotStartS, s.start_s AS startS, s.end_s AS endS';

/** Places of these segments; ids no longer in the catalog are absent. */
export function segmentPlaces(db: CatalogDb, segmentIds: readonly number[]): Map<number, SegmentPlace> {
  if (segmentIds.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT ${PLACE_COLS} FROM segments s JOIN shots sh ON sh.id = s.shot_id WHERE s.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(segmentIds)) as SegmentPlace[];
  return new Map(rows.map((r) => [r.segmentId, r]));
}

/** Every segment of these clips, in time order: the local evidence of a collection hit. */
export function clipSegmentPlaces(db: CatalogDb, clipIds: readonly number[]): Map<number, SegmentPlace[]> {
  const out = new Map<number, SegmentPlace[]>();
  if (clipIds.length === 0) return out;
  const rows = db
    .prepare(`SELECT ${PLACE_COLS} FROM segments s JOIN shots sh ON sh.id = s.shot_id WHERE s.clip_id IN (SELECT value FROM json_each(?)) ORDER BY s.clip_id, s.start_s`)
    .all(JSON.stringify(clipIds)) as SegmentPlace[];
  for (const r of rows) (out.get(r.clipId) ?? out.set(r.clipId, []).get(r.clipId)!).push(r);
  return out;
}

/**
 * The identity of each clip's file (its fingerprint: size and first and last 64 KiB) and, per
 * identity, every catalogued clip holding it: a card lists all the copies, not only those a hit found.
 */
export function fileIdentities(db: CatalogDb, clipIds: readonly number[]): { identity: (clipId: number) => string; copies: (clipId: number) => number[] } {
  const rows = clipIds.length
    ? (db
        .prepare(
          `SELECT c.id, c.fingerprint, (SELECT json_group_array(o.id) FROM clips o WHERE o.fingerprint = c.fingerprint AND o.id <> c.id) AS others
           FROM clips c WHERE c.id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify([...new Set(clipIds)])) as { id: number; fingerprint: string | null; others: string }[])
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    identity: (clipId) => {
      const f = byId.get(clipId)?.fingerprint;
      return f ? `file:${f}` : `clip:${clipId}`;
    },
    copies: (clipId) => {
      const r = byId.get(clipId);
      return r?.fingerprint ? (JSON.parse(r.others) as number[]).sort((a, b) => a - b) : [];
    },
  };
}
