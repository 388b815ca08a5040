/**
 * Merging the local segment search with the service's collection search.
 *
 * The two similarity scales are unrelated (the service does not say what its similarity is, and
 * the local one is a cosine over our own segment embeddings), so scores are never compared or
 * added. Ranks are: reciprocal rank fusion, score = sum over sources of 1 / (k + rank).
 *
 * - Local results stay per segment (rank = position among local hits, best similarity first).
 * - Remote results are per video; they are mapped to clips by video_id, and each clip keeps its
 *   best remote hit (rank = position among those clips).
 * - A clip found by both: its best local segment gets the remote term added (the service says
 *   the video matches, the local index says where); its other segments keep their local score.
 * - A clip found only remotely appears once: at the moment the service names, or as a whole clip.
 * - A remote video that maps to no clip of this catalog is dropped unless keepUnmapped.
 * - Ties: results backed by both sources first, then higher local similarity, then higher remote
 *   similarity, then clip id and segment id, so the order is deterministic.
 */

export interface LocalHit {
  clipId: number;
  segmentId: number;
  startS: number;
  endS: number;
  similarity: number;
}

export interface RemoteHit {
  videoId: string;
  /** null: the video is in the collection but was not uploaded from this catalog. */
  clipId: number | null;
  similarity: number;
  /** The moment the service matched, when it names one. */
  startS?: number | null;
  endS?: number | null;
}

export interface MergeOptions {
  /** The RRF constant: larger flattens the advantage of the first ranks. 60 is the usual choice. */
  k?: number;
  /** Cut the merged list to this many results. */
  topK?: number;
  keepUnmapped?: boolean;
}

export interface MergedHit {
  clipId: number | null;
  segmentId: number | null;
  startS: number | null;
  endS: number | null;
  /** True for a remote-only clip: the service does not say which moment matched. */
  wholeClip: boolean;
  videoId: string | null;
  /** The fused score: only meaningful for ordering within one merge. */
  score: number;
  localSimilarity: number | null;
  remoteSimilarity: number | null;
  localRank: number | null;
  remoteRank: number | null;
  sources: ('local' | 'remote')[];
}

export const DEFAULT_RRF_K = 60;

function finite(n: number): boolean {
  return typeof n === 'number' && Number.isFinite(n);
}

export function mergeSearchResults(local: readonly LocalHit[], remote: readonly RemoteHit[], opts: MergeOptions = {}): MergedHit[] {
  const k = opts.k ?? DEFAULT_RRF_K;
  if (!(k >= 0) || !Number.isFinite(k)) throw new RangeError('k must be a finite number >= 0');

  // Local: best first; one entry per segment (a segment listed twice keeps its best similarity).
  const seenSegments = new Set<number>();
  const localSorted = local
    .filter((h) => finite(h.similarity))
    .slice()
    .sort((a, b) => b.similarity - a.similarity || a.clipId - b.clipId || a.segmentId - b.segmentId)
    .filter((h) => (seenSegments.has(h.segmentId) ? false : (seenSegments.add(h.segmentId), true)));

  // Remote: best first, stable for equal similarity (the service's own order); one entry per clip.
  const remoteSorted = remote
    .map((h, i) => ({ h, i }))
    .filter((x) => finite(x.h.similarity))
    .sort((a, b) => b.h.similarity - a.h.similarity || a.i - b.i)
    .map((x) => x.h);
  const remoteByClip = new Map<number, { hit: RemoteHit; rank: number }>();
  const unmapped: { hit: RemoteHit; rank: number }[] = [];
  const seenVideos = new Set<string>();
  let remoteRank = 0;
  for (const hit of remoteSorted) {
    if (hit.clipId === null) {
      if (seenVideos.has(hit.videoId)) continue;
      seenVideos.add(hit.videoId);
      unmapped.push({ hit, rank: ++remoteRank });
      continue;
    }
    if (remoteByClip.has(hit.clipId)) continue;
    remoteByClip.set(hit.clipId, { hit, rank: ++remoteRank });
  }

  const out: MergedHit[] = [];
  const boosted = new Set<number>();
  localSorted.forEach((h, i) => {
    const localRank = i + 1;
    const r = remoteByClip.get(h.clipId);
    const withRemote = r !== undefined && !boosted.has(h.clipId);
    if (withRemote) boosted.add(h.clipId);
    out.push({
      clipId: h.clipId,
      segmentId: h.segmentId,
      startS: h.startS,
      endS: h.endS,
      wholeClip: false,
      videoId: withRemote ? r.hit.videoId : null,
      score: 1 / (k + localRank) + (withRemote ? 1 / (k + r.rank) : 0),
      localSimilarity: h.similarity,
      remoteSimilarity: withRemote ? r.hit.similarity : null,
      localRank,
      remoteRank: withRemote ? r.rank : null,
      sources: withRemote ? ['local', 'remote'] : ['local'],
    });
  });
  const remoteOnly = (clipId: number | null, x: { hit: RemoteHit; rank: number }): MergedHit => ({
    clipId,
    segmentId: null,
    startS: x.hit.startS ?? null,
    endS: x.hit.endS ?? null,
    wholeClip: x.hit.startS === null || x.hit.startS === undefined,
    videoId: x.hit.videoId,
    score: 1 / (k + x.rank),
    localSimilarity: null,
    remoteSimilarity: x.hit.similarity,
    localRank: null,
    remoteRank: x.rank,
    sources: ['remote'],
  });
  for (const [clipId, r] of remoteByClip) if (!boosted.has(clipId)) out.push(remoteOnly(clipId, r));
  if (opts.keepUnmapped) for (const u of unmapped) out.push(remoteOnly(null, u));

  out.sort(
    (a, b) =>
      b.score - a.score ||
      b.sources.length - a.sources.length ||
      (b.localSimilarity ?? -Infinity) - (a.localSimilarity ?? -Infinity) ||
      (b.remoteSimilarity ?? -Infinity) - (a.remoteSimilarity ?? -Infinity) ||
      (a.clipId ?? Infinity) - (b.clipId ?? Infinity) ||
      (a.segmentId ?? -1) - (b.segmentId ?? -1),
  );
  return opts.topK === undefined ? out : out.slice(0, Math.max(0, opts.topK));
}
