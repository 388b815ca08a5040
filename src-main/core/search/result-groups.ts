/**
 * One result per moment, one card per clip. Hits of the local index (segments) and of the
 * service's collection search (videos, sometimes with a moment) become:
 * - ranges: adjacent or overlapping hits of one shot merge into one range (its best hit names it;
 *   a shot boundary separates moments, so hits of two shots stay two ranges);
 *   a collection hit with times joins the range it overlaps, one without times joins the clip's
 *   best range, or stands for the whole clip when the clip has no local hit;
 * - groups: a clip's ranges, best first ("2 more in this clip"); byte- or fingerprint-identical
 *   files are one group, the others listed as further locations.
 * Every range is scored on one scale (relevance.ts: the service's collection similarity is a
 * cosine in the same embedding space as the local index); groups are ordered by their best score,
 * so the order shown is the score shown. Pure: tested directly.
 */
export type HitSource = 'local' | 'collection';

export interface Hit {
  clipId: number;
  /** null for a collection hit. */
  segmentId: number | null;
  /** Adjacent hits merge only within one shot; null for a collection hit. */
  shotId: number | null;
  /** null: the whole clip (a collection hit that names no moment). */
  startS: number | null;
  endS: number | null;
  similarity: number;
  source: HitSource;
  videoId?: string;
}

export interface Range {
  segmentId: number | null;
  segmentIds: number[];
  startS: number | null;
  endS: number | null;
  /** Best local cosine (null when only the collection found it). */
  similarity: number | null;
  remoteSimilarity: number | null;
  videoId: string | null;
  score: number;
  sources: HitSource[];
}

export interface ResultGroup {
  clipId: number;
  best: Range;
  more: Range[];
  /** Other clips that are the same file (same fingerprint), found at other paths. */
  sameFile: number[];
}

export interface GroupOptions {
  /** Calibrated score of a cosine (relevance.ts). */
  score: (similarity: number) => number;
  /** Identity of a clip's file (its fingerprint); clips sharing one are one result. */
  identity: (clipId: number) => string;
  topK: number;
  /** Hits this close (seconds) count as adjacent. */
  gapS?: number;
}

const DEFAULT_GAP_S = 0.05;

/**
 * Hits fetched for `topK` cards: a few more than the cards wanted, since merging a shot's segments
 * and grouping by clip turn several hits into one card. Kept small: at 1M segments every extra
 * candidate costs graph search and exact re-ranking (bench:search "app path"); a page that groups
 * into fewer cards than asked shows fewer, never wrong ones.
 */
export function candidatesFor(topK: number): number {
  return Math.min(500, topK + Math.ceil(topK / 2));
}

function rangeOf(h: Hit, score: number): Range {
  const local = h.source === 'local';
  return {
    segmentId: h.segmentId,
    segmentIds: h.segmentId === null ? [] : [h.segmentId],
    startS: h.startS,
    endS: h.endS,
    similarity: local ? h.similarity : null,
    remoteSimilarity: local ? null : h.similarity,
    videoId: h.videoId ?? null,
    score,
    sources: [h.source],
  };
}

/** Folds hit `h` into range `r` (they are of one file and overlap or touch); `own`: h is of the clip the range is shown for. */
function absorb(r: Range, h: Hit, score: number, own: boolean): void {
  if (h.segmentId !== null && !r.segmentIds.includes(h.segmentId)) r.segmentIds.push(h.segmentId);
  if (h.startS !== null && h.endS !== null) {
    r.startS = r.startS === null ? h.startS : Math.min(r.startS, h.startS);
    r.endS = r.endS === null ? h.endS : Math.max(r.endS, h.endS);
  }
  if (h.source === 'local') {
    if (r.similarity === null || h.similarity > r.similarity) r.similarity = h.similarity;
    // The range is named by a segment of its own clip; an identical file's segment only fills in.
    if (own && (r.segmentId === null || h.similarity >= r.similarity)) r.segmentId = h.segmentId;
  } else {
    r.remoteSimilarity = Math.max(r.remoteSimilarity ?? -Infinity, h.similarity);
    r.videoId ??= h.videoId ?? null;
  }
  if (!r.sources.includes(h.source)) r.sources.push(h.source);
  r.score = Math.max(r.score, score);
}

export function groupResults(hits: readonly Hit[], o: GroupOptions): ResultGroup[] {
  const gap = o.gapS ?? DEFAULT_GAP_S;
  const finite = hits.filter((h) => Number.isFinite(h.similarity));
  // The clip that stands for each file: the one with the best hit.
  const primaryOf = new Map<string, number>();
  const sameFile = new Map<number, Set<number>>();
  for (const h of [...finite].sort((a, b) => b.similarity - a.similarity || a.clipId - b.clipId)) {
    const id = o.identity(h.clipId);
    const primary = primaryOf.get(id) ?? h.clipId;
    primaryOf.set(id, primary);
    if (primary !== h.clipId) (sameFile.get(primary) ?? sameFile.set(primary, new Set()).get(primary)!).add(h.clipId);
  }
  const byClip = new Map<number, Hit[]>();
  for (const h of finite) {
    const primary = primaryOf.get(o.identity(h.clipId))!;
    (byClip.get(primary) ?? byClip.set(primary, []).get(primary)!).push(h);
  }
  const groups: ResultGroup[] = [];
  for (const [clipId, list] of byClip) {
    const own = (h: Hit) => h.clipId === clipId;
    const timed = list
      .filter((h) => h.startS !== null && h.endS !== null)
      .sort((a, b) => a.startS! - b.startS! || Number(own(b)) - Number(own(a)) || b.similarity - a.similarity);
    const ranges: Range[] = [];
    let lastShot: number | null = null;
    for (const h of timed) {
      const last = ranges.at(-1);
      const s = o.score(h.similarity);
      const sameShot = h.shotId === null || lastShot === null || h.shotId === lastShot;
      if (last && last.endS !== null && h.startS! <= last.endS + gap && sameShot) absorb(last, h, s, own(h));
      else ranges.push(rangeOf(h, s));
      if (h.shotId !== null) lastShot = h.shotId;
    }
    ranges.sort((a, b) => b.score - a.score || (a.startS ?? 0) - (b.startS ?? 0));
    for (const h of list.filter((x) => x.startS === null || x.endS === null)) {
      const s = o.score(h.similarity);
      if (ranges.length > 0) absorb(ranges[0]!, h, s, own(h));
      else ranges.push(rangeOf(h, s));
    }
    ranges.sort((a, b) => b.score - a.score || (a.startS ?? 0) - (b.startS ?? 0));
    groups.push({ clipId, best: ranges[0]!, more: ranges.slice(1), sameFile: [...(sameFile.get(clipId) ?? [])].sort((a, b) => a - b) });
  }
  const sim = (r: Range) => Math.max(r.similarity ?? -Infinity, r.remoteSimilarity ?? -Infinity);
  groups.sort((a, b) => b.best.score - a.best.score || sim(b.best) - sim(a.best) || a.clipId - b.clipId);
  return groups.slice(0, Math.max(0, o.topK));
}
