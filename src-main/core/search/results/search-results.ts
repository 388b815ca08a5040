import type { ClipStatus, ThumbRef } from '../../../../src-shared/contract/library';
import type { SegmentTag } from '../../../../src-shared/contract/search';
import { clipFrameCount, countingOf, shotFrames, type Counting, type FrameRate, type FrameSpan } from '../../../../src-shared/timecode';
import { joinOnVolume } from '../../library/clip-paths';
import type { CardClipRow, PosterRow, ResultStore } from './result-store';
import { tagsForSegments } from './segment-tags';
import type { TagResolutionStore } from '../query/tag-resolution-store';

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
  /** How the clip counts its frames (its rate, and whether conformed: VFR), and its length in them. */
  counting: Counting;
  clipFrames: number | null;
}

export interface SegmentInfo extends ClipInfo {
  segmentId: number;
  shotId: number;
  startS: number;
  endS: number;
  thumb: ThumbRef | null;
  tags: SegmentTag[];
}

function clipInfo(r: CardClipRow): ClipInfo {
  const counting = countingOf(r.fps, r.vfr === 1);
  // Same rule as the Library: a clip on a disconnected volume is offline, one gone from its path is missing.
  const clipStatus: ClipStatus = !r.online ? 'offline' : r.missing_at !== null ? 'missing' : r.status;
  return {
    clipId: r.clip_id,
    clipName: r.file_name,
    clipPath: r.source_url ?? joinOnVolume(r.mount_path, r.rel_path),
    clipStatus,
    clipDurationS: r.duration_s,
    clipRate: r.fps ? counting.rate : null,
    clipTimecode: r.timecode,
    width: r.width,
    height: r.height,
    counting,
    clipFrames: clipFrameCount({ frameCount: r.frame_count, durationS: r.duration_s, conformed: counting.conformed }, counting.rate),
  };
}

/**
 * A moment as a result carries it: frames of the clip's counting, [inFrame, outFrame) with Out
 * exclusive as shots count them (shotFrames: decoded frame numbers; a conformed clip's, VFR, its
 * presentation times on its rate's grid). A moment known only by its times (a collection hit) is
 * counted from them; one without any (the whole clip) is every frame.
 */
export function momentFrames(c: Pick<ClipInfo, 'counting' | 'clipFrames' | 'clipDurationS'>, m: { startS: number | null; endS: number | null; startFrame: number | null; endFrame: number | null }): FrameSpan {
  if (m.startS === null || m.endS === null) {
    const all = c.clipFrames ?? shotFrames({ startS: 0, endS: c.clipDurationS ?? 0, startFrame: null, endFrame: null }, c.counting.rate, true).outFrame;
    return { inFrame: 0, outFrame: Math.max(1, all) };
  }
  return shotFrames({ startS: m.startS, endS: m.endS, startFrame: m.startFrame, endFrame: m.endFrame }, c.counting.rate, c.counting.conformed);
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
export function loadSegments(results: ResultStore, tags: TagResolutionStore, segmentIds: readonly number[]): Map<number, SegmentInfo> {
  const out = new Map<number, SegmentInfo>();
  const rows = results.cardSegments(segmentIds);
  if (rows.length === 0) return out;
  const posters = results.postersOf([...new Set(rows.map((r) => r.clip_id))]);
  const tagsOf = tagsForSegments(tags, rows.map((r) => r.segment_id));
  for (const r of rows) {
    out.set(r.segment_id, {
      ...clipInfo(r),
      segmentId: r.segment_id,
      shotId: r.shot_id,
      startS: r.start_s,
      endS: r.end_s,
      thumb: pickPoster(posters.get(r.clip_id), r.shot_id, r.start_s, r.end_s),
      tags: tagsOf.get(r.segment_id) ?? [],
    });
  }
  return out;
}

/** Clip facts plus its first poster, for results that name a whole clip (collection hits). */
export function loadClips(results: ResultStore, clipIds: readonly number[]): Map<number, ClipInfo & { thumb: ThumbRef | null }> {
  const out = new Map<number, ClipInfo & { thumb: ThumbRef | null }>();
  const rows = results.cardClips(clipIds);
  const posters = results.postersOf(rows.map((r) => r.clip_id));
  for (const r of rows) {
    const info = clipInfo(r);
    out.set(r.clip_id, { ...info, thumb: pickPoster(posters.get(r.clip_id), null, 0, info.clipDurationS ?? 0) });
  }
  return out;
}

/**
 * The identity of each clip's file (its fingerprint: size and first and last 64 KiB) and, per
 * identity, every catalogued clip holding it: a card lists all the copies, not only those a hit found.
 */
export function fileIdentities(results: ResultStore, clipIds: readonly number[]): { identity: (clipId: number) => string; copies: (clipId: number) => number[] } {
  const byId = results.fileCopies(clipIds);
  return {
    identity: (clipId) => {
      const f = byId.get(clipId)?.fingerprint;
      return f ? `file:${f}` : `clip:${clipId}`;
    },
    copies: (clipId) => byId.get(clipId)?.others ?? [],
  };
}
