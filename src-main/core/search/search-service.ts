import type { CachedQuery, SearchFilters, SearchResponse, SearchStatus, Strictness } from '../../../src-shared/contract/search';
import { STRICTNESS_MIN_SCORE } from '../../../src-shared/contract/search';
import type { AppErrorData } from '../../../src-shared/errors';
import type { CollectionStore } from '../collections/collection-store';
import type { PersonPresence } from '../people/person-presence';
import type { ServiceConfig } from '../service';
import type { RetryOptions } from '../service/http/retry';
import type { Logger } from '../util/logger';
import type { EmbeddingSpace } from './index/embedding-space';
import type { IndexSyncStore } from './index/index-sync-store';
import type { SearchIndexManager } from './index/search-index-manager';
import { allowedWithPeople, narrowHits, unindexedHits, type PeopleScope } from './query/people-scope';
import { labelPersonChips, peopleFilter } from './query/people-filter';
import type { PeopleScopeStore } from './query/people-scope-store';
import { parseQuery, withParsedFilters } from './query/query-parser';
import { normalizeQuery, type QueryEmbeddingStore } from './query/query-embedding-store';
import { explainCannotRun, queryVector } from './query/query-vector';
import { hasFilters, type SearchFilterStore } from './query/search-filter-store';
import type { TagResolutionStore } from './query/tag-resolution-store';
import { createSearchRelevance } from './relevance/search-relevance';
import type { CollectionHit } from './results/collection-hits';
import type { Hit } from './results/result-groups';
import { scoredCollectionHits, scoredHits, unit } from './results/hit-scores';
import { listedPage, pageResponse, type PageFacts } from './results/page-response';
import { fillPage, type IndexSearch, type Page } from './results/paging';
import type { ResultStore } from './results/result-store';
import { fileIdentities } from './results/search-results';
import { createServiceLink } from './service-link';
import type { TextShare } from '../team-port';

/** The catalog as search reads it: each a store prepared once (search-module.ts makes them). */
export interface SearchStores {
  queryEmbeddings: QueryEmbeddingStore;
  /** The stored segment vectors (find-similar's sample of the library). */
  indexSync: IndexSyncStore;
  results: ResultStore;
  tags: TagResolutionStore;
  filters: SearchFilterStore;
  collections: CollectionStore;
  /** The segments `@Name` cuts down to where the people are. */
  peopleScope: PeopleScopeStore;
}

export interface SearchServiceDeps {
  stores: SearchStores;
  /** Where named people are visible: what `@Maria` and `-@Tom` resolve through. */
  presence: PersonPresence;
  index: SearchIndexManager;
  /** The embedding space of the configured service: query vectors and segment vectors must share it. */
  space: () => EmbeddingSpace;
  /**
   * The service settings with the key. Throws an AppError ('auth' without a key, 'invalid' without a
   * base URL) when the service cannot be used: searches then run from the caches only.
   */
  serviceConfig: () => ServiceConfig;
  logger?: Logger;
  /** Service reachability or relevance readiness changed (the index reports its own changes). */
  onStatusChange?: () => void;
  /** Asks the runner to encode the reference queries (the query-bank stage); called while they are missing. */
  requestBank?: () => void;
  /** Most collections searched per query: each search is a billable call. */
  maxCollections?: number;
  /** Once the service is offline (no answer at all), collection searches are skipped for this long. */
  offlineBackoffMs?: number;
  /** Retry policy of the interactive calls (tests shorten the deadline). */
  retry?: Partial<RetryOptions>;
  /** A team library's encoded texts while this seat is joined; null when solo. */
  textShare?: () => TextShare | null;
  now?: () => number;
}

/** find-similar leaves out the source clip (and its copies) within this many seconds of the source segment. */
export const NEIGHBOURHOOD_S = 30;

/**
 * Search composed of its parts: a text query is parsed (query/query-parser.ts), encoded or read from
 * the cache (query/query-vector.ts) while the collections are searched (service-link.ts), its
 * candidates gathered from the index page by page (results/paging.ts), scored against each
 * segment's baseline (results/hit-scores.ts, relevance/search-relevance.ts), grouped and shown as
 * cards (results/page-response.ts). find-similar does the same from a stored segment vector.
 */
export function createSearchService(d: SearchServiceDeps) {
  const { queryEmbeddings, results, filters: filterStore, collections } = d.stores;
  const link = createServiceLink({
    serviceConfig: d.serviceConfig,
    retry: d.retry,
    now: d.now ?? Date.now,
    onStatusChange: d.onStatusChange,
    offlineBackoffMs: d.offlineBackoffMs ?? 30_000,
  });
  const relevance = createSearchRelevance({
    index: d.index,
    queryEmbeddings,
    indexSync: d.stores.indexSync,
    space: d.space,
    logger: d.logger,
    onStatusChange: d.onStatusChange,
    requestBank: d.requestBank,
  });
  const collectionDeps = { store: collections, filters: filterStore, region: () => d.space().region, maxCollections: d.maxCollections ?? 5 };
  const queryVectorDeps = { queryEmbeddings, textShare: () => d.textShare?.() ?? null, encode: (text: string) => link.encodeText(text), onEncoded: () => d.onStatusChange?.() };
  const search: IndexSearch = (vector, k, filter) => d.index.search(vector, k, filter);
  const respond = (page: Page, o: PageFacts) => pageResponse(d.stores, d.space().region, page, o);

  /**
   * The people's moments in shots the index has no segment of (query/people-scope.ts), in the clips
   * the other filters let through: a tag filter passes a clip when one of its shots carries the tag
   * (the local tags need no service), clip filters as for a collection hit.
   */
  function unindexedMoments(filters: SearchFilters, scope: PeopleScope): Hit[] {
    if (scope.unindexed.length === 0) return [];
    const passing = hasFilters(filters) ? filterStore.passingClips(filters, [...new Set(scope.unindexed.map((p) => p.clipId))]) : null;
    return unindexedHits(scope, passing);
  }

  /**
   * A query that was only camera or people words, or no words at all (an empty box with facets on):
   * no text to encode, so every moment the filters allow is listed, unscored, in the order of the
   * library: by folder and file name, then by time. With no filter either there is nothing to
   * search for: an empty list (stats.allowed null, as for any unfiltered search), not the library.
   * `@Maria` needs no service: where she is in clips the index has no segment of is listed from her
   * faces alone, beside the segments cut down to her.
   */
  async function filterOnly(filters: SearchFilters, people: PeopleScope | null, offset: number, limit: number, text: string, parsed: SearchResponse['parsed'], t0: number): Promise<SearchResponse> {
    let filtered = filterStore.allowedSegmentIds(filters, d.space());
    // "-@Tom" alone is a filter too: every moment without Tom.
    if (people && people.segments === null && filtered === null) filtered = d.stores.peopleScope.searchableSegmentIds(d.space());
    if (people) filtered = allowedWithPeople(filtered, people);
    const allowed = filtered ?? new Set<number>();
    const indexed = (await d.index.ready()).size;
    const unindexed = people ? unindexedMoments(filters, people) : [];
    const page = listedPage(results, allowed, offset, limit, people ? (hits) => narrowHits(hits, people) : undefined, unindexed);
    return {
      ...respond(page, { scored: false, localSource: 'local', offset, limit, t0, indexed, allowed: filtered ? allowed.size : null, unindexed: unindexed.length, relevance: { ...relevance.info(), state: 'unscored' } }),
      query: { text, normalized: '', segmentId: null, origin: null, cachedAt: null },
      cannotRun: null,
      collections: null,
      parsed,
    };
  }

  return {
    async text(a: { text: string; topK: number; offset?: number; strictness?: Strictness; filters: SearchFilters; collections: boolean }): Promise<SearchResponse> {
      const t0 = performance.now();
      const args = { offset: 0, strictness: 'any' as Strictness, ...a };
      const space = d.space();
      // Camera, framing, angle and people words become filters; the rest is what the service encodes.
      const parsed = parseQuery(args.text);
      const filters = withParsedFilters(args.filters, parsed);
      // `@Maria -@Tom`: where the people are, as a scope the other filters are ANDed with.
      const people = peopleFilter({ segments: d.stores.peopleScope, presence: d.presence }, space, parsed.people);
      const scope = people && 'filter' in people ? people.filter.scope : null;
      const parsedInfo = { text: parsed.text, chips: labelPersonChips(parsed.chips, people && 'filter' in people ? people.filter : null) };
      const normalized = normalizeQuery(parsed.text);
      const cannotRun = (error: AppErrorData, info: SearchResponse['collections']): SearchResponse => ({
        results: [],
        query: { text: args.text, normalized, segmentId: null, origin: null, cachedAt: null },
        cannotRun: error,
        collections: info,
        parsed: parsedInfo,
        noGoodMatch: false,
        relevance: relevance.info(),
        page: { offset: args.offset, limit: args.topK, hasMore: false },
        stats: { indexed: d.index.status().size, allowed: null, unindexed: 0, tookMs: performance.now() - t0 },
      });
      if (people && 'error' in people) return cannotRun(people.error, null);
      if (parsed.text === '') return filterOnly(filters, scope, args.offset, args.topK, args.text, parsedInfo, t0);
      // encode_text (on a cache miss) and every collection search go out together. Not with people:
      // a collection hit is a whole video (or a moment in seconds) nobody has looked for faces in.
      const collectionsWanted = args.collections && !scope ? link.searchCollections(collectionDeps, parsed.text, args.offset + args.topK, filters) : Promise.resolve({ hits: [] as CollectionHit[], info: null });
      const [q, coll] = await Promise.all([queryVector(queryVectorDeps, parsed.text, args.text, space), collectionsWanted]);
      if ('error' in q) {
        d.logger?.info('search.text.cannotRun', { kind: q.error.kind });
        return cannotRun(explainCannotRun(q.error, parsed.text), coll.info);
      }
      const index = await d.index.ready();
      relevance.ensureTextBank(d.index.status().dimension);
      const query = unit(q.vector);
      const filtered = filterStore.allowedSegmentIds(filters, space);
      const allowed = scope ? allowedWithPeople(filtered, scope) : filtered;
      const narrow = (hits: Hit[]) => (scope ? narrowHits(hits, scope) : hits);
      const minScore = STRICTNESS_MIN_SCORE[args.strictness];
      // The text is judged on segments only: the people's moments in clips without one follow the scored ones, unscored.
      const unjudged = scope ? unindexedMoments(filters, scope) : [];
      const remote = coll.hits.length
        ? scoredCollectionHits(coll.hits, results.placesInClips([...new Set(coll.hits.map((h) => h.clipId))]), query, index, relevance.text.scorer(index, []), minScore)
        : [];
      const page = await fillPage({ search, results }, { vector: query, allowed, offset: args.offset, limit: args.topK }, (found) =>
        narrow(scoredHits(found, results.placesOf(found.map((h) => h.id)), relevance.text.scorer(index, found.map((h) => h.id)), minScore)),
      [...remote, ...unjudged]);
      return {
        ...respond(page, { scored: relevance.text.ready, localSource: q.origin === 'cache' ? 'cache' : 'local', offset: args.offset, limit: args.topK, t0, indexed: index.size, allowed: allowed?.size ?? null, unindexed: unjudged.length, relevance: relevance.info() }),
        query: { text: args.text, normalized, segmentId: null, origin: q.origin, cachedAt: q.cachedAt },
        cannotRun: null,
        collections: coll.info,
        parsed: parsedInfo,
      };
    },

    /**
     * Nearest segments to a segment's own stored embedding: no service involved. The source's own
     * neighbourhood (its clip, and every copy of its file, within NEIGHBOURHOOD_S) is left out by
     * default: it always looks alike.
     */
    async similar(a: { segmentId: number; topK: number; offset?: number; strictness?: Strictness; filters: SearchFilters; exclude: 'neighbourhood' | 'clip' | 'none' }): Promise<SearchResponse> {
      const t0 = performance.now();
      const args = { offset: 0, strictness: 'any' as Strictness, ...a };
      const vector = unit(d.index.storedVector(args.segmentId));
      const index = await d.index.ready();
      relevance.refreshVideoSample(index.size);
      const exclude = new Set<number>([args.segmentId]);
      const src = results.placesOf([args.segmentId]).get(args.segmentId);
      if (src && args.exclude !== 'none') {
        for (const clipId of [src.clipId, ...fileIdentities(results, [src.clipId]).copies(src.clipId)]) {
          const ids = args.exclude === 'clip' ? results.segmentIdsOfClip(clipId) : results.segmentIdsOverlapping(clipId, src.startS - NEIGHBOURHOOD_S, src.endS + NEIGHBOURHOOD_S);
          for (const id of ids) exclude.add(id);
        }
      }
      const allowed = filterStore.allowedSegmentIds(args.filters, d.space());
      if (allowed) for (const id of exclude) allowed.delete(id);
      const minScore = STRICTNESS_MIN_SCORE[args.strictness];
      const page = await fillPage({ search, results }, { vector, allowed, exclude, offset: args.offset, limit: args.topK }, (found) =>
        scoredHits(found, results.placesOf(found.map((h) => h.id)), relevance.video.scorer(index, found.map((h) => h.id)), minScore),
      );
      return {
        ...respond(page, { scored: relevance.video.ready, localSource: 'local', offset: args.offset, limit: args.topK, t0, indexed: index.size, allowed: allowed?.size ?? null, relevance: { ...relevance.info(), state: relevance.video.ready ? 'ready' : 'unscored' } }),
        query: { text: null, normalized: null, segmentId: args.segmentId, origin: 'segment', cachedAt: null },
        cannotRun: null,
        collections: null,
        parsed: null,
      };
    },

    /** Vectors changed in the index: their baselines are stale. */
    vectorsChanged: relevance.vectorsChanged,

    /** The reference queries were (partly) encoded: read them again. */
    bankChanged(): void {
      relevance.bankChanged(d.index.status().dimension);
    },

    status(): SearchStatus {
      return {
        service: link.health.status(),
        index: d.index.status(),
        cachedQueries: queryEmbeddings.typedCount(d.space()),
        relevance: relevance.info(),
      };
    },

    history(limit: number): CachedQuery[] {
      return queryEmbeddings.recentTyped(d.space(), limit);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
