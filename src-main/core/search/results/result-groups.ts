/**
 * One result per moment, one card per file. Hits of the local index (segments) and of the service's
 * collection search (videos, sometimes with a moment) become:
 * - ranges: hits of one shot that overlap or touch merge into one range (its best-scoring segment
 *   names it); a cut separates moments, so hits of two shots stay two ranges. Identical files (same
 *   fingerprint) share one timeline: their shots are the same shots, recognised by where they start,
 *   so a segment of the copy merges with the next segment of the original;
 *   a collection hit with times joins the range it overlaps, one without times joins the file's
 *   best range, or stands for the whole clip when there is no local hit;
 * - groups: a file's ranges, best first ("2 more in this clip"), shown for the clip with the best hit;
 *   the other copies are listed as further locations (the caller adds the copies no hit found).
 * Every hit arrives scored on one scale (relevance/relevance-math.ts; a collection hit on a clip with
 * local vectors carries the score of its local segments, see hit-scores.ts); a range scores its
 * best hit and groups are ordered by their best score, so the order shown is the score shown.
 * Pure: tested directly.
 */
export type HitSource = 'local' | 'collection';

export interface Hit {
  clipId: number;
  /** null for a collection hit. */
  segmentId: number | null;
  /**
   * Where the hit's shot starts in its clip (seconds): hits merge only within one shot, and identical
   * files have their shots at the same places. null for a collection hit.
   */
  shotStartS: number | null;
  /** null: the whole clip (a collection hit that names no moment). Presentation times: a view of the frames. */
  startS: number | null;
  endS: number | null;
  /**
   * Decoded frame numbers, [startFrame, endFrame): Out exclusive, as shots count them. null when only
   * times are known (a collection hit naming its moment in seconds, a shot without frames).
   */
  startFrame: number | null;
  endFrame: number | null;
  similarity: number;
  /** Relevance 0..100, or the cosine while no calibration exists: what ranges and groups are ordered by. */
  score: number;
  source: HitSource;
  videoId?: string;
  /**
   * false: nothing scored this hit against the query (a person's moment in a clip the index has no
   * segment of, query/people-scope.ts): it is listed after every scored one, its score not shown.
   */
  judged?: boolean;
}

export interface Range {
  /** The segment that names the range: the best-scoring local hit of the clip the card shows. */
  segmentId: number | null;
  segmentIds: number[];
  startS: number | null;
  endS: number | null;
  /** The frames of its hits, [startFrame, endFrame) (Hit); null when a hit known only by its times widened it. */
  startFrame: number | null;
  endFrame: number | null;
  /** The naming segment's cosine (the best local one when the card's own clip has none; null when only the collection found it). */
  similarity: number | null;
  remoteSimilarity: number | null;
  videoId: string | null;
  score: number;
  sources: HitSource[];
  /** Some hit of the range was scored against the query (Hit.judged). */
  judged: boolean;
}

export interface ResultGroup {
  clipId: number;
  best: Range;
  more: Range[];
  /** Other clips that are the same file (same fingerprint) among the hits. */
  sameFile: number[];
}

export interface GroupOptions {
  /** Identity of a clip's file (its fingerprint); clips sharing one are one result. */
  identity: (clipId: number) => string;
  /** Hits this close (seconds) count as adjacent. */
  gapS?: number;
}

const DEFAULT_GAP_S = 0.05;
/** Shot starts of identical files agree to the frame; this absorbs float noise only. */
const SAME_SHOT_S = 1e-3;

function rangeOf(h: Hit): Range {
  const local = h.source === 'local';
  return {
    segmentId: h.segmentId,
    segmentIds: h.segmentId === null ? [] : [h.segmentId],
    startS: h.startS,
    endS: h.endS,
    startFrame: h.startFrame,
    endFrame: h.endFrame,
    similarity: local ? h.similarity : null,
    remoteSimilarity: local ? null : h.similarity,
    videoId: h.videoId ?? null,
    score: h.score,
    sources: [h.source],
    judged: h.judged !== false,
  };
}

interface Building {
  range: Range;
  /** Score of the hit naming the range (-Infinity until a hit of the card's own clip names it). */
  namedBy: number;
  shotStartS: number | null;
}

/** Folds hit `h` into range `r` (same file, overlapping or touching); `own`: h is of the clip the card shows. */
function absorb(b: Building, h: Hit, own: boolean): void {
  const r = b.range;
  if (h.segmentId !== null && !r.segmentIds.includes(h.segmentId)) r.segmentIds.push(h.segmentId);
  if (h.startS !== null && h.endS !== null) {
    const within = r.startS !== null && r.endS !== null && h.startS >= r.startS && h.endS <= r.endS;
    r.startS = r.startS === null ? h.startS : Math.min(r.startS, h.startS);
    r.endS = r.endS === null ? h.endS : Math.max(r.endS, h.endS);
    if (h.startFrame !== null && h.endFrame !== null && r.startFrame !== null && r.endFrame !== null) {
      r.startFrame = Math.min(r.startFrame, h.startFrame);
      r.endFrame = Math.max(r.endFrame, h.endFrame);
    } else if (!within) {
      // Widened by times alone: the range is counted from its times.
      r.startFrame = null;
      r.endFrame = null;
    }
  }
  if (h.source === 'local') {
    // The range is named by a segment of its own clip; a copy's segment only fills in.
    if (own && h.score > b.namedBy) {
      b.namedBy = h.score;
      r.segmentId = h.segmentId;
      r.similarity = h.similarity;
    } else if (r.similarity === null) r.similarity = h.similarity;
  } else {
    r.remoteSimilarity = Math.max(r.remoteSimilarity ?? Number.NEGATIVE_INFINITY, h.similarity);
    r.videoId ??= h.videoId ?? null;
  }
  if (!r.sources.includes(h.source)) r.sources.push(h.source);
  r.score = Math.max(r.score, h.score);
  r.judged ||= h.judged !== false;
  b.shotStartS ??= h.shotStartS;
}

/** Scored before unscored (Hit.judged), whatever the scores. */
function judgedFirst(a: { judged?: boolean }, b: { judged?: boolean }): number {
  return Number(b.judged !== false) - Number(a.judged !== false);
}

function sameShot(a: number | null, b: number | null): boolean {
  return a === null || b === null || Math.abs(a - b) <= SAME_SHOT_S;
}

/** All groups, best first (the caller pages through them). */
export function groupResults(hits: readonly Hit[], o: GroupOptions): ResultGroup[] {
  const gap = o.gapS ?? DEFAULT_GAP_S;
  const finite = hits.filter((h) => Number.isFinite(h.similarity) && Number.isFinite(h.score));
  // The clip that stands for each file: the one with the best hit.
  const primaryOf = new Map<string, number>();
  const sameFile = new Map<number, Set<number>>();
  for (const h of [...finite].sort((a, b) => judgedFirst(a, b) || b.score - a.score || b.similarity - a.similarity || a.clipId - b.clipId)) {
    const id = o.identity(h.clipId);
    const primary = primaryOf.get(id) ?? h.clipId;
    primaryOf.set(id, primary);
    if (primary !== h.clipId) (sameFile.get(primary) ?? sameFile.set(primary, new Set()).get(primary)!).add(h.clipId);
  }
  const byFile = new Map<number, Hit[]>();
  for (const h of finite) {
    const primary = primaryOf.get(o.identity(h.clipId))!;
    (byFile.get(primary) ?? byFile.set(primary, []).get(primary)!).push(h);
  }
  const groups: ResultGroup[] = [];
  for (const [clipId, list] of byFile) {
    const own = (h: Hit) => h.clipId === clipId;
    const timed = list
      .filter((h) => h.startS !== null && h.endS !== null)
      .sort((a, b) => a.startS! - b.startS! || Number(own(b)) - Number(own(a)) || b.score - a.score);
    const built: Building[] = [];
    for (const h of timed) {
      const last = built.at(-1);
      const r = last?.range;
      if (last && r && r.endS !== null && h.startS! <= r.endS + gap && sameShot(last.shotStartS, h.shotStartS)) absorb(last, h, own(h));
      else {
        const b: Building = { range: rangeOf(h), namedBy: h.source === 'local' && own(h) ? h.score : Number.NEGATIVE_INFINITY, shotStartS: h.shotStartS };
        built.push(b);
      }
    }
    const order = (a: Building, b: Building) => judgedFirst(a.range, b.range) || b.range.score - a.range.score || (a.range.startS ?? 0) - (b.range.startS ?? 0);
    built.sort(order);
    for (const h of list.filter((x) => x.startS === null || x.endS === null)) {
      if (built.length > 0) absorb(built[0]!, h, own(h));
      else built.push({ range: rangeOf(h), namedBy: Number.NEGATIVE_INFINITY, shotStartS: null });
    }
    built.sort(order);
    const ranges = built.map((b) => b.range);
    groups.push({ clipId, best: ranges[0]!, more: ranges.slice(1), sameFile: [...(sameFile.get(clipId) ?? [])].sort((a, b) => a - b) });
  }
  const sim = (r: Range) => Math.max(r.similarity ?? Number.NEGATIVE_INFINITY, r.remoteSimilarity ?? Number.NEGATIVE_INFINITY);
  groups.sort((a, b) => judgedFirst(a.best, b.best) || b.best.score - a.best.score || sim(b.best) - sim(a.best) || a.clipId - b.clipId);
  return groups;
}
