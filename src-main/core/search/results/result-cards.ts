import type { SearchResult } from '../../../../src-shared/contract/search';
import { MATCH_FLOOR_SCORE } from '../relevance/relevance-math';
import type { Range, ResultGroup } from './result-groups';
import type { ResultStore } from './result-store';
import { loadClips, loadSegments, momentFrames } from './search-results';
import type { TagResolutionStore } from '../query/tag-resolution-store';

export interface CardOptions {
  /** Which source badge the local index's hits wear: 'cache' when the query vector came from the cache. */
  localSource: 'local' | 'cache';
  /** False for a filters-only listing: no score is shown. */
  scored: boolean;
  /** First rank of this page (1 on the first page). */
  firstRank: number;
  /** Every other clip holding the same file, hit or not. */
  copies: (clipId: number) => number[];
  /** The collection a video id was uploaded to. */
  collectionOf: (videoId: string) => string | null;
}

/** Cards of one page: one per file, its best moment shown, the others as "more", every copy listed. */
export function resultCards(reads: { results: ResultStore; tags: TagResolutionStore }, groups: readonly ResultGroup[], o: CardOptions): SearchResult[] {
  const segIds = groups.flatMap((g) => [g.best, ...g.more].map((r) => r.segmentId).filter((id): id is number => id !== null));
  const segments = loadSegments(reads.results, reads.tags, segIds);
  const copiesOf = new Map(groups.map((g) => [g.clipId, [...new Set([...g.sameFile, ...o.copies(g.clipId)])].sort((a, b) => a - b)]));
  const clips = loadClips(reads.results, [...new Set(groups.flatMap((g) => [g.clipId, ...copiesOf.get(g.clipId)!]))]);
  const scoreOf = (r: Range) => (o.scored && r.judged ? r.score : null);
  const simOf = (r: Range) => r.similarity ?? r.remoteSimilarity ?? 0;
  const out: SearchResult[] = [];
  for (const g of groups) {
    const c = clips.get(g.clipId);
    if (!c) continue;
    const r = g.best;
    const seg = r.segmentId === null ? undefined : segments.get(r.segmentId);
    const collectionId = r.videoId ? o.collectionOf(r.videoId) : null;
    const sources = r.sources.map((x) => (x === 'local' ? o.localSource : 'collection'));
    out.push({
      rank: o.firstRank + out.length,
      segmentId: seg ? r.segmentId : null,
      clipId: c.clipId,
      clipName: c.clipName,
      clipPath: c.clipPath,
      clipStatus: c.clipStatus,
      clipDurationS: c.clipDurationS,
      clipRate: c.clipRate,
      clipTimecode: c.clipTimecode,
      width: c.width,
      height: c.height,
      shotId: seg?.shotId ?? null,
      ...momentFrames(c, r),
      score: scoreOf(r),
      good: o.scored ? r.judged && r.score >= MATCH_FLOOR_SCORE : true,
      similarity: simOf(r),
      source: sources[0]!,
      sources,
      thumb: seg?.thumb ?? c.thumb,
      tags: seg?.tags ?? [],
      collection: r.videoId && collectionId ? { collectionId, videoId: r.videoId, similarity: r.remoteSimilarity ?? 0 } : null,
      more: g.more.map((m) => ({
        segmentId: m.segmentId,
        ...momentFrames(c, m),
        score: scoreOf(m),
        similarity: simOf(m),
        thumb: (m.segmentId === null ? undefined : segments.get(m.segmentId)?.thumb) ?? null,
      })),
      otherLocations: copiesOf.get(g.clipId)!.flatMap((id) => {
        const other = clips.get(id);
        return other ? [{ clipId: id, clipPath: other.clipPath }] : [];
      }),
    });
  }
  return out;
}
