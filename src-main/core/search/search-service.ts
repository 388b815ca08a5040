import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { toAppError, type AppError, type AppErrorData } from '../../../src-shared/errors';
import {
  STRICTNESS_MIN_SCORE,
  type CachedQuery,
  type RelevanceInfo,
  type SearchFilters,
  type SearchResponse,
  type SearchStatus,
  type Strictness,
} from '../../../src-shared/contract/search';
import type { CollectionStore } from '../collections/collection-store';
import { resolveBaseUrl, resolveConfig, ServiceClient, type ServiceConfig } from '../service';
import { findKeyState, type KeyState } from '../service/key-state';
import { syncCallConfig } from '../service/interactive-client';
import type { RetryOptions } from '../service/http/retry';
import type { Logger } from '../util/logger';
import { searchableCollections, searchCollections, type CollectionHit } from './collection-hits';
import { spaceKey, type EmbeddingSpace } from './embedding-space';
import { normalizeQuery, type QueryEmbeddingStore } from './query-embedding-store';
import type { TextShare } from './text-sharing';
import { parseQuery, withParsedFilters } from './query-parser';
import type { IndexView, QueryScorer } from './relevance/relevance-model';
import { TextRelevance, VideoRelevance } from './relevance/relevance-model';
import { readTextBank } from './relevance/text-bank';
import { resultCards } from './result-cards';
import { groupResults, type Hit, type ResultGroup } from './result-groups';
import type { ResultStore, SegmentPlace } from './result-store';
import type { SearchFilterStore } from './search-filter-store';
import { createSearchHealth } from './search-health';
import type { IndexSyncStore } from './index-sync-store';
import type { SearchIndexManager } from './search-index-manager';
import { fileIdentities } from './search-results';
import { sampleSegmentVectors } from './segment-sample';
import type { TagResolutionStore } from './tag-resolution-store';
import type { SearchFilter, SearchHit } from './vector-types';

/** The catalog as search reads it: each a store prepared once (search-module.ts makes them). */
export interface SearchStores {
  queryEmbeddings: QueryEmbeddingStore;
  /** The stored segment vectors (find-similar's sample of the library). */
  indexSync: IndexSyncStore;
  results: ResultStore;
  tags: TagResolutionStore;
  filters: SearchFilterStore;
  collections: CollectionStore;
}

export interface SearchServiceDeps {
  stores: SearchStores;
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
/** The most hits one page may look through before it stops filling (a text query; filters list everything). */
const MAX_CANDIDATES = 4096;
/** Baselines computed per turn of the event loop while warming (about 15 ms of work). */
const WARM_PAGE = 1024;

function explainCannotRun(err: AppError, text: string): AppErrorData {
  const fallback = 'Earlier searches still run from the cache, and "find similar" and filters work offline.';
  const q = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  switch (err.kind) {
    case 'offline':
      return { kind: err.kind, message: `Cannot run "${q}" offline: it was never searched before, and the service that encodes new queries cannot be reached (${err.message}). ${fallback}` };
    case 'timeout':
    case 'upstream':
    case 'server':
    case 'rate_limit':
      return {
        kind: err.kind,
        ...(err.status === undefined ? {} : { status: err.status }),
        message: `Cannot run "${q}" now: the service is reachable but too busy or slow to encode new queries (${err.message}). Try again in a minute. ${fallback}`,
      };
    case 'auth':
      return { kind: 'auth', message: `Cannot run "${q}": new queries need the service and ${err.message}. ${fallback}` };
    case 'quota':
      return { kind: 'quota', message: `Cannot run "${q}": the service quota is used up (${err.message}). ${fallback}` };
    default:
      return { ...err.toJSON(), message: `Cannot run "${q}": ${err.message}` };
  }
}

/** Hits fetched for the first round of a page of `cards`: a few more, since a shot's segments merge and a clip's moments group. */
export function candidatesFor(cards: number): number {
  return Math.min(MAX_CANDIDATES, cards + Math.ceil(cards / 2));
}

function dot(a: Float32Array, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * s);
}

interface Page {
  groups: ResultGroup[];
  hasMore: boolean;
  /** Every group's other copies of its file, read once with the identities the groups were made by. */
  copies: (clipId: number) => number[];
}

export function createSearchService(d: SearchServiceDeps) {
  const now = d.now ?? Date.now;
  const { queryEmbeddings, indexSync, results, filters: filterStore, collections } = d.stores;
  const maxCollections = d.maxCollections ?? 5;
  const offlineBackoffMs = d.offlineBackoffMs ?? 30_000;
  const textRelevance = new TextRelevance();
  const videoRelevance = new VideoRelevance();
  let videoSample: { key: string; size: number } | null = null;
  let client: { key: string; client: ServiceClient } | null = null;
  let watched: { state: KeyState; off: () => void } | null = null;
  /**
   * The configured key's shared state, whoever used it (the pipeline's calls move its health as much
   * as search's); its changes are pushed as search.status.
   */
  const keyState = (): KeyState | null => {
    let state: KeyState | undefined;
    try {
      const cfg = resolveConfig(d.serviceConfig());
      state = findKeyState(resolveBaseUrl(cfg.region, cfg.baseUrls), cfg.apiKey);
    } catch {
      state = undefined;
    }
    if (state && watched?.state !== state) {
      watched?.off();
      watched = { state, off: state.onHealth(() => d.onStatusChange?.()) };
    }
    return state ?? null;
  };
  const health = createSearchHealth({ serviceConfig: d.serviceConfig, keyState, now, onChange: d.onStatusChange });
  const collectionDeps = { store: collections, filters: filterStore, region: () => d.space().region, maxCollections };
  let relevanceInfo: RelevanceInfo = { state: 'calibrating', encoded: 0, total: 0 };
  let warming = 0;

  /**
   * Every segment's baseline and the library's floor, computed in the background once the bank is
   * whole (and after the index is replaced), page by page, yielding between pages: searches then
   * only read them (a cold search computes its own candidates' baselines, ~15 µs each).
   */
  async function warmBaselines(): Promise<void> {
    const token = ++warming;
    try {
      // Never within the caller's turn: the index calls in while it is still being opened.
      await yieldToLoop();
      if (token !== warming) return;
      const index = await d.index.ready();
      if (!textRelevance.ready) return;
      const ids = index.ids();
      const vectorOf = (id: number) => index.vector(id);
      for (let i = 0; i < ids.length; i += WARM_PAGE) {
        if (token !== warming || !textRelevance.ready) return;
        textRelevance.baselines.get(ids.slice(i, i + WARM_PAGE), vectorOf);
        await yieldToLoop();
      }
      if (token === warming && textRelevance.ready) textRelevance.scorer(index, []);
    } catch (e) {
      d.logger?.warn('search.relevance.warm.failed', { message: toAppError(e).message });
    }
  }

  /** The interactive client for the current settings (its calls take the key's next token); a settings change gives a new one. */
  function serviceClient(): ServiceClient {
    try {
      const cfg = d.serviceConfig();
      const key = JSON.stringify(cfg);
      if (client?.key === key) return client.client;
      const c = new ServiceClient(syncCallConfig(cfg, d.retry));
      client = { key, client: c };
      keyState();
      health.noteConfigured();
      return c;
    } catch (e) {
      const err = toAppError(e);
      health.noteUnconfigured(err);
      throw err;
    }
  }

  /** The text bank of the active space, read from the query cache; asks the runner for what is missing. */
  function refreshTextBank(indexDimension: number): void {
    const state = readTextBank(queryEmbeddings, d.space(), indexDimension);
    const before = textRelevance.baselines.current?.key;
    textRelevance.setBank(state.bank);
    if (state.bank && state.bank.key !== before) void warmBaselines();
    const next: RelevanceInfo = { state: state.bank ? 'ready' : 'calibrating', encoded: state.encoded, total: state.total };
    if (JSON.stringify(next) !== JSON.stringify(relevanceInfo)) {
      relevanceInfo = next;
      d.onStatusChange?.();
    }
    if (!state.bank) d.requestBank?.();
  }

  /**
   * The bank as a query needs it: read from the catalog only while it is incomplete or when the
   * space or the index's dimension changed; a complete bank changes only through `bankChanged`.
   */
  let bankReadFor: string | null = null;
  function ensureTextBank(indexDimension: number): void {
    const key = `${spaceKey(d.space())}\n${indexDimension}`;
    if (textRelevance.ready && bankReadFor === key) return;
    refreshTextBank(indexDimension);
    bankReadFor = key;
  }

  /** The library's own sample for find-similar, drawn again when the library changed size by a twentieth. */
  function refreshVideoSample(size: number): void {
    const space = d.space();
    const key = spaceKey(space);
    if (videoSample && videoSample.key === key && Math.abs(size - videoSample.size) <= videoSample.size / 20) return;
    videoRelevance.setSample(sampleSegmentVectors(indexSync, space));
    videoSample = { key, size };
  }

  /** Local k-NN under the filters. An empty allow-set means nothing can match: the index is not asked. */
  async function localHits(vector: ArrayLike<number>, k: number, allowed: Set<number> | null, exclude?: ReadonlySet<number>): Promise<SearchHit[]> {
    if (allowed !== null && allowed.size === 0) return [];
    let filter: SearchFilter | undefined = allowed ?? undefined;
    let ask = k;
    if (!allowed && exclude?.size) {
      // A few excluded ids (the query segment, its neighbourhood): ask for that many more and drop them.
      ask = k + exclude.size;
      filter = undefined;
    }
    return (await d.index.search(vector, ask, filter)).filter((h) => !exclude?.has(h.id)).slice(0, k);
  }

  /** Hits to scored Hit values: each local segment against its own baseline; a scorer of null orders by cosine. */
  function scoredHits(found: readonly SearchHit[], places: Map<number, SegmentPlace>, scorer: QueryScorer | null, minScore: number): Hit[] {
    const out: Hit[] = [];
    for (const h of found) {
      const p = places.get(h.id);
      if (!p) continue;
      const score = scorer ? scorer.segment(h.id, h.similarity).score : h.similarity;
      if (scorer && score < minScore) continue;
      out.push({ clipId: p.clipId, segmentId: h.id, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, similarity: h.similarity, score, source: 'local' });
    }
    return out;
  }

  /**
   * Collection hits on one scale with local ones: where the clip has local vectors, the moment's score
   * is the local one (the query against the vectors of the segments the hit names, or of the whole
   * clip), because that is the number calibrated against its own baseline; the service's similarity is
   * kept for the tooltip. A clip known only to the collection gets the service's similarity read as a
   * cosine of the same model against the library's typical baseline.
   */
  function scoredCollectionHits(hits: readonly CollectionHit[], query: Float32Array, index: IndexView, scorer: QueryScorer | null, minScore: number): Hit[] {
    const segs = results.placesInClips([...new Set(hits.map((h) => h.clipId))]);
    const out: Hit[] = [];
    for (const h of hits) {
      const own = (segs.get(h.clipId) ?? []).filter((s) => index.vector(s.segmentId));
      const named = h.startS !== null && h.endS !== null ? own.filter((s) => s.startS < h.endS! && s.endS > h.startS!) : [];
      const evidence = named.length ? named : own;
      let best: { place: SegmentPlace; cos: number; score: number } | null = null;
      for (const s of evidence) {
        const cos = dot(index.vector(s.segmentId)!, query);
        const score = scorer ? scorer.segment(s.segmentId, cos).score : cos;
        if (!best || score > best.score) best = { place: s, cos, score };
      }
      const score = best ? best.score : scorer ? scorer.typical(h.similarity).score : h.similarity;
      if (scorer && score < minScore) continue;
      if (best) {
        // The local segment behind the score is part of the card (its poster, its tags).
        const p = best.place;
        out.push({ clipId: p.clipId, segmentId: p.segmentId, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, similarity: best.cos, score: best.score, source: 'local' });
      }
      out.push({ clipId: h.clipId, segmentId: null, shotStartS: best?.place.shotStartS ?? null, startS: h.startS ?? best?.place.startS ?? null, endS: h.endS ?? best?.place.endS ?? null, similarity: h.similarity, score, source: 'collection', videoId: h.videoId });
    }
    return out;
  }

  /**
   * A page of cards from the index: candidates are fetched until the page is full (each round doubles
   * them), so a long clip's many segments cannot leave a page half empty.
   */
  async function fillPage(
    vector: ArrayLike<number>,
    allowed: Set<number> | null,
    exclude: ReadonlySet<number> | undefined,
    offset: number,
    limit: number,
    score: (found: SearchHit[]) => Hit[],
    extra: Hit[] = [],
  ): Promise<Page> {
    const want = offset + limit + 1;
    const cap = Math.min(MAX_CANDIDATES, allowed?.size ?? Number.POSITIVE_INFINITY);
    for (let k = candidatesFor(want); ; k = Math.min(cap, k * 2)) {
      const found = await localHits(vector, k, allowed, exclude);
      const hits = [...score(found), ...extra];
      const ids = fileIdentities(results, hits.map((h) => h.clipId));
      const groups = groupResults(hits, { identity: ids.identity });
      const exhausted = found.length < k || k >= cap;
      if (groups.length >= want || exhausted) return { groups: groups.slice(offset, offset + limit), hasMore: groups.length > offset + limit, copies: ids.copies };
    }
  }

  function respond(
    page: Page,
    o: { scored: boolean; localSource: 'local' | 'cache'; offset: number; limit: number; t0: number; indexed: number; allowed: number | null; relevance: RelevanceInfo },
  ): Pick<SearchResponse, 'results' | 'noGoodMatch' | 'page' | 'stats' | 'relevance'> {
    const region = d.space().region;
    const cards = resultCards(d.stores, page.groups, {
      localSource: o.localSource,
      scored: o.scored,
      firstRank: o.offset + 1,
      copies: page.copies,
      collectionOf: (videoId) => collections.collectionOfVideo(region, videoId),
    });
    return {
      results: cards,
      noGoodMatch: o.scored && o.offset === 0 && cards.length > 0 && !cards.some((r) => r.good),
      relevance: o.relevance,
      page: { offset: o.offset, limit: o.limit, hasMore: page.hasMore },
      stats: { indexed: o.indexed, allowed: o.allowed, tookMs: performance.now() - o.t0 },
    };
  }

  /**
   * A query that was only camera or people words, or no words at all (an empty box with facets on):
   * no text to encode, so every moment the filters allow is listed, unscored, in the order of the
   * library: by folder and file name, then by time. With no filter either there is nothing to
   * search for: an empty list (stats.allowed null, as for any unfiltered search), not the library.
   */
  async function filterOnly(filters: SearchFilters, offset: number, limit: number, text: string, parsed: SearchResponse['parsed'], t0: number): Promise<SearchResponse> {
    const filtered = filterStore.allowedSegmentIds(filters, d.space());
    const allowed = filtered ?? new Set<number>();
    const indexed = (await d.index.ready()).size;
    const places = results.placesOf([...allowed]);
    const hits: Hit[] = [...places.values()].map((p) => ({ clipId: p.clipId, segmentId: p.segmentId, shotStartS: p.shotStartS, startS: p.startS, endS: p.endS, similarity: 0, score: 0, source: 'local' }));
    const ids = fileIdentities(results, hits.map((h) => h.clipId));
    const groups = groupResults(hits, { identity: ids.identity });
    const order = libraryOrder(groups.map((g) => g.clipId));
    groups.sort((a, b) => order(a.clipId) - order(b.clipId));
    for (const g of groups) {
      const ranges = [g.best, ...g.more].sort((a, b) => (a.startS ?? 0) - (b.startS ?? 0));
      g.best = ranges[0]!;
      g.more = ranges.slice(1);
    }
    const page = { groups: groups.slice(offset, offset + limit), hasMore: groups.length > offset + limit, copies: ids.copies };
    return {
      ...respond(page, { scored: false, localSource: 'local', offset, limit, t0, indexed, allowed: filtered ? allowed.size : null, relevance: { ...relevanceInfo, state: 'unscored' } }),
      query: { text, normalized: '', segmentId: null, origin: null, cachedAt: null },
      cannotRun: null,
      collections: null,
      parsed,
    };
  }

  /** Position of each clip in the library's order (folder, then file name). */
  function libraryOrder(clipIds: readonly number[]): (clipId: number) => number {
    const pos = new Map(results.inLibraryOrder(clipIds).map((id, i) => [id, i]));
    return (id) => pos.get(id) ?? Number.MAX_SAFE_INTEGER;
  }

  /** The query's vector: from the cache, or encoded by the service (null with the reason it cannot run). */
  async function queryVector(text: string, typed: string, space: EmbeddingSpace): Promise<{ vector: Float32Array; origin: 'service' | 'cache'; cachedAt: number | null } | { error: AppError }> {
    const cached = queryEmbeddings.cachedVector(text, space, typed);
    if (cached) return { vector: cached.vector, origin: 'cache', cachedAt: cached.createdAt };
    // A seat of a team library: another seat may have paid for this text already.
    const share = d.textShare?.() ?? null;
    // Only while the server answers: a search someone waits for never waits on a server that is away.
    const team = share?.online() ? (await share.known(space, [text])).get(normalizeQuery(text)) : undefined;
    if (team) {
      queryEmbeddings.save(text, space, team, typed);
      return { vector: team, origin: 'cache', cachedAt: null };
    }
    try {
      const c = serviceClient();
      const r = await health.patiently((onRetry) => c.encodeText(text, { onRetry }));
      queryEmbeddings.save(text, space, r.embedding, typed);
      void share?.encoded(space, text, r.embedding);
      // One more query runs offline now: the status line counts them.
      d.onStatusChange?.();
      return { vector: Float32Array.from(r.embedding), origin: 'service', cachedAt: null };
    } catch (e) {
      return { error: toAppError(e) };
    }
  }

  /** The collection searches of a query, started at once beside encode_text (each its own call within the key's budget). */
  async function collectionSearch(text: string, topK: number, filters: SearchFilters): Promise<{ hits: CollectionHit[]; info: SearchResponse['collections'] }> {
    const ids = searchableCollections(collectionDeps);
    if (ids.length === 0) return { hits: [], info: null };
    if (health.recentlyUnreachable(offlineBackoffMs)) {
      return { hits: [], info: { searched: [], hits: 0, unmapped: 0, error: health.health().error ?? { kind: 'offline', message: 'the service cannot be reached' } } };
    }
    let c: ServiceClient;
    try {
      c = serviceClient();
    } catch (e) {
      return { hits: [], info: { searched: [], hits: 0, unmapped: 0, error: toAppError(e).toJSON() } };
    }
    return health.patiently((onRetry) => searchCollections(collectionDeps, ids, c, text, topK, filters, onRetry));
  }

  return {
    async text(a: { text: string; topK: number; offset?: number; strictness?: Strictness; filters: SearchFilters; collections: boolean }): Promise<SearchResponse> {
      const t0 = performance.now();
      const args = { offset: 0, strictness: 'any' as Strictness, ...a };
      const space = d.space();
      // Camera, framing, angle and people words become filters; the rest is what the service encodes.
      const parsed = parseQuery(args.text);
      const filters = withParsedFilters(args.filters, parsed);
      const parsedInfo = { text: parsed.text, chips: parsed.chips };
      const normalized = normalizeQuery(parsed.text);
      if (parsed.text === '') return filterOnly(filters, args.offset, args.topK, args.text, parsedInfo, t0);
      // encode_text (on a cache miss) and every collection search go out together.
      const collectionsWanted = args.collections ? collectionSearch(parsed.text, args.offset + args.topK, filters) : Promise.resolve({ hits: [] as CollectionHit[], info: null });
      const [q, coll] = await Promise.all([queryVector(parsed.text, args.text, space), collectionsWanted]);
      if ('error' in q) {
        d.logger?.info('search.text.cannotRun', { kind: q.error.kind });
        return {
          results: [],
          query: { text: args.text, normalized, segmentId: null, origin: null, cachedAt: null },
          cannotRun: explainCannotRun(q.error, parsed.text),
          collections: coll.info,
          parsed: parsedInfo,
          noGoodMatch: false,
          relevance: relevanceInfo,
          page: { offset: args.offset, limit: args.topK, hasMore: false },
          stats: { indexed: d.index.status().size, allowed: null, tookMs: performance.now() - t0 },
        };
      }
      const index = await d.index.ready();
      ensureTextBank(d.index.status().dimension);
      const query = unit(q.vector);
      const allowed = filterStore.allowedSegmentIds(filters, space);
      const minScore = STRICTNESS_MIN_SCORE[args.strictness];
      const remote = coll.hits.length ? scoredCollectionHits(coll.hits, query, index, textRelevance.scorer(index, []), minScore) : [];
      const page = await fillPage(query, allowed, undefined, args.offset, args.topK, (found) =>
        scoredHits(found, results.placesOf(found.map((h) => h.id)), textRelevance.scorer(index, found.map((h) => h.id)), minScore),
      remote);
      return {
        ...respond(page, { scored: textRelevance.ready, localSource: q.origin === 'cache' ? 'cache' : 'local', offset: args.offset, limit: args.topK, t0, indexed: index.size, allowed: allowed?.size ?? null, relevance: relevanceInfo }),
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
      refreshVideoSample(index.size);
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
      const page = await fillPage(vector, allowed, exclude, args.offset, args.topK, (found) =>
        scoredHits(found, results.placesOf(found.map((h) => h.id)), videoRelevance.scorer(index, found.map((h) => h.id)), minScore),
      );
      return {
        ...respond(page, { scored: videoRelevance.ready, localSource: 'local', offset: args.offset, limit: args.topK, t0, indexed: index.size, allowed: allowed?.size ?? null, relevance: { ...relevanceInfo, state: videoRelevance.ready ? 'ready' : 'unscored' } }),
        query: { text: null, normalized: null, segmentId: args.segmentId, origin: 'segment', cachedAt: null },
        cannotRun: null,
        collections: null,
        parsed: null,
      };
    },

    /** Vectors changed in the index: their baselines are stale. */
    vectorsChanged(ids: readonly number[] | null): void {
      for (const r of [textRelevance, videoRelevance]) {
        if (ids === null) r.baselines.clear();
        else r.forget(ids);
      }
      if (ids === null) void warmBaselines();
    },

    /** The reference queries were (partly) encoded: read them again. */
    bankChanged(): void {
      refreshTextBank(d.index.status().dimension);
    },

    status(): SearchStatus {
      return {
        service: health.status(),
        index: d.index.status(),
        cachedQueries: queryEmbeddings.typedCount(d.space()),
        relevance: relevanceInfo,
      };
    },

    history(limit: number): CachedQuery[] {
      return queryEmbeddings.recentTyped(d.space(), limit);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
