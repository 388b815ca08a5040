import type { RelevanceInfo, SearchResponse } from '../../../../src-shared/contract/search';
import type { CollectionStore } from '../../collections/collection-store';
import type { TagResolutionStore } from '../query/tag-resolution-store';
import type { Page } from './paging';
import { pageOf, groupByFile } from './paging';
import { resultCards } from './result-cards';
import type { Hit, ResultGroup } from './result-groups';
import type { ResultStore } from './result-store';

/** What a page's cards are read from. */
export interface PageReads {
  results: ResultStore;
  tags: TagResolutionStore;
  collections: CollectionStore;
}

export interface PageFacts {
  /** The hits carry relevance scores (false: listed unscored, or ordered by cosine). */
  scored: boolean;
  localSource: 'local' | 'cache';
  offset: number;
  limit: number;
  /** performance.now() when the search began. */
  t0: number;
  indexed: number;
  allowed: number | null;
  /** Moments listed from the `@` people's faces in shots without a segment (query/people-scope.ts). */
  unindexed?: number;
  relevance: RelevanceInfo;
}

/** A page as the search box shows it: its cards, whether any is a good match, and the page's facts. */
export function pageResponse(reads: PageReads, region: string, page: Page, o: PageFacts): Pick<SearchResponse, 'results' | 'noGoodMatch' | 'page' | 'stats' | 'relevance'> {
  const cards = resultCards(reads, page.groups, {
    localSource: o.localSource,
    scored: o.scored,
    firstRank: o.offset + 1,
    copies: page.copies,
    collectionOf: (videoId) => reads.collections.collectionOfVideo(region, videoId),
  });
  return {
    results: cards,
    noGoodMatch: o.scored && o.offset === 0 && cards.length > 0 && !cards.some((r) => r.good),
    relevance: o.relevance,
    page: { offset: o.offset, limit: o.limit, hasMore: page.hasMore },
    stats: { indexed: o.indexed, allowed: o.allowed, unindexed: o.unindexed ?? 0, tookMs: performance.now() - o.t0 },
  };
}

/**
 * Groups in the order of the library (`order`: a clip's position by folder and file name), each
 * group's moments in the order of time: how a listing without a score reads.
 */
export function inLibraryOrder(groups: ResultGroup[], order: (clipId: number) => number): ResultGroup[] {
  groups.sort((a, b) => order(a.clipId) - order(b.clipId));
  for (const g of groups) {
    const ranges = [g.best, ...g.more].sort((a, b) => (a.startS ?? 0) - (b.startS ?? 0));
    g.best = ranges[0]!;
    g.more = ranges.slice(1);
  }
  return groups;
}

/**
 * A page of every moment of `allowed`, unscored, in the library's order (a query of filters only);
 * `narrow` cuts the moments down first (to where the `@` people are); `extra` are moments without a
 * segment listed with them (the people's, in clips the index has none of).
 */
export function listedPage(results: ResultStore, allowed: ReadonlySet<number>, offset: number, limit: number, narrow: (hits: Hit[]) => Hit[] = (h) => h, extra: readonly Hit[] = []): Page {
  const places = results.placesOf([...allowed]);
  const listed: Hit[] = [...places.values()].map((p) => ({ clipId: p.clipId, segmentId: p.segmentId, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, startFrame: p.startFrame, endFrame: p.endFrame, similarity: 0, score: 0, source: 'local' }));
  const hits = [...narrow(listed), ...extra];
  const { groups, copies } = groupByFile(results, hits);
  const pos = new Map(results.inLibraryOrder(groups.map((g) => g.clipId)).map((id, i) => [id, i]));
  return pageOf(inLibraryOrder(groups, (id) => pos.get(id) ?? Number.MAX_SAFE_INTEGER), copies, offset, limit);
}
