import { AppError, toAppError, type AppErrorData } from '../../../src-shared/errors';
import type {
  CachedQuery,
  SearchFilters,
  SearchResponse,
  SearchResult,
  SearchStatus,
} from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { searchCollectionClips } from '../collections/collection-search';
import { INTERACTIVE_TIMEOUT_MS } from '../collections/interactive-client';
import { createCollectionStore, type CollectionStore } from '../collections/collection-store';
import { resolveBaseUrl, resolveConfig, ServiceClient, type ServiceConfig } from '../service';
import { SYNC_CALL_RETRY, type RetryInfo } from '../service/retry';
import { INITIAL_HEALTH, nextHealth, type ServiceHealth } from '../service/service-health';
import type { Logger } from '../util/logger';
import { normalizeQuery, type EmbeddingSpace, type QueryCache } from './query-cache';
import { allowedSegmentIds, filterClips } from './search-filters';
import type { SearchIndexManager } from './search-index-manager';
import { createCalibrationSample } from './calibration-sample';
import { parseQuery, withParsedFilters } from './query-parser';
import { aboveFloor, relevanceScore, type Calibration } from './relevance';
import { candidatesFor, groupResults, type Hit, type Range, type ResultGroup } from './result-groups';
import { loadClips, loadSegments } from './search-results';
import type { SearchFilter, SearchHit } from './vector-types';

export interface SearchServiceDeps {
  db: CatalogDb;
  index: SearchIndexManager;
  queryCache: QueryCache;
  /** The embedding space of the configured service: query vectors and segment vectors must share it. */
  space: () => EmbeddingSpace;
  /**
   * The service settings with the key. Throws an AppError ('auth' without a key, 'invalid' without a
   * base URL) when the service cannot be used: searches then run from the caches only.
   */
  serviceConfig: () => ServiceConfig;
  collectionStore?: CollectionStore;
  logger?: Logger;
  /** Service reachability changed (the index reports its own changes). */
  onStatusChange?: () => void;
  /** Most collections searched per query: each search is a billable call. */
  maxCollections?: number;
  /** Once the service is offline (no answer at all), collection searches are skipped for this long. */
  offlineBackoffMs?: number;
  /** Retry policy of the interactive calls (tests shorten the deadline). */
  retry?: Partial<typeof SYNC_CALL_RETRY>;
  now?: () => number;
}


/** find-similar leaves out the source clip within this many seconds of the source segment. */
export const NEIGHBOURHOOD_S = 30;

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

export function createSearchService(d: SearchServiceDeps) {
  const now = d.now ?? Date.now;
  const collectionStore = d.collectionStore ?? createCollectionStore(d.db);
  const maxCollections = d.maxCollections ?? 5;
  const offlineBackoffMs = d.offlineBackoffMs ?? 30_000;
  const retry = { ...SYNC_CALL_RETRY, ...d.retry };
  let client: { key: string; client: ServiceClient } | null = null;
  const calibration = createCalibrationSample(d.db, d.space, () => d.index.status().size);
  let health: ServiceHealth = INITIAL_HEALTH;
  /** Set while the configuration itself is missing (no key, no address). */
  let unconfigured: AppErrorData | null = null;
  let waiting: SearchStatus['service']['waiting'] = null;

  const processedCollections = d.db
    .prepare(
      `SELECT collection_id FROM collection_videos WHERE region = ? AND status = 'processed' AND video_id IS NOT NULL
       GROUP BY collection_id ORDER BY COUNT(*) DESC, collection_id LIMIT ?`,
    )
    .pluck();

  function updateHealth(next: ServiceHealth): void {
    const changed = next.state !== health.state || JSON.stringify(next.error) !== JSON.stringify(health.error);
    health = next;
    unconfigured = null;
    if (changed) d.onStatusChange?.();
  }

  /** Errors of the settings themselves (no key, no address): already recorded as 'unconfigured'. */
  const configErrors = new WeakSet<AppError>();

  function noteSuccess(): void {
    updateHealth(nextHealth(health, { type: 'succeeded', at: now() }));
  }

  function noteFailure(err: AppError): void {
    if (err.kind === 'cancelled' || configErrors.has(err)) return;
    updateHealth(nextHealth(health, { type: 'failed', at: now(), error: err.toJSON() }));
  }

  /** Every failed attempt of a call someone waits for: the health follows it, and the UI shows the wait. */
  function noteRetry(info: RetryInfo): void {
    noteFailure(info.error);
    if (info.deadlineAt === undefined) return;
    waiting = { since: waiting?.since ?? now(), attempts: (waiting?.attempts ?? 0) + 1, deadlineAt: info.deadlineAt, error: info.error.toJSON() };
    d.onStatusChange?.();
  }

  /** Runs a call with the wait made visible; the wait ends with the call. */
  async function patiently<T>(call: (onRetry: (info: RetryInfo) => void) => Promise<T>): Promise<T> {
    try {
      return await call(noteRetry);
    } finally {
      if (waiting) {
        waiting = null;
        d.onStatusChange?.();
      }
    }
  }

  /** The interactive client for the current settings; a settings change gives a new one. */
  function serviceClient(): ServiceClient {
    let cfg: ServiceConfig;
    let c: ServiceClient;
    try {
      cfg = d.serviceConfig();
      const key = JSON.stringify(cfg);
      if (client?.key === key) return client.client;
      // Encoding a query and searching a collection have no asynchronous counterpart and someone is
      // waiting: a busy service (502/503/504) is tried again with backoff up to the deadline the UI
      // shows (SYNC_CALL_RETRY); no answer at all gives up after a few attempts and the cache answers.
      c = new ServiceClient({ ...cfg, retry, timeoutMs: Math.min(cfg.timeoutMs ?? INTERACTIVE_TIMEOUT_MS, INTERACTIVE_TIMEOUT_MS) });
      client = { key, client: c };
      return c;
    } catch (e) {
      const err = toAppError(e);
      configErrors.add(err);
      if (JSON.stringify(unconfigured) !== JSON.stringify(err.toJSON())) {
        unconfigured = err.toJSON();
        d.onStatusChange?.();
      }
      throw err;
    }
  }

  function recentlyUnreachable(): boolean {
    return health.state === 'offline' && health.checkedAt !== null && now() - health.checkedAt < offlineBackoffMs;
  }

  /** Local k-NN under the filters. An empty allow-set means nothing can match: the index is not asked. */
  async function localSearch(vector: ArrayLike<number>, topK: number, filters: SearchFilters, exclude?: ReadonlySet<number>) {
    const space = d.space();
    const allowed = allowedSegmentIds(d.db, filters, space);
    if (allowed && exclude) for (const id of exclude) allowed.delete(id);
    const indexed = (await d.index.ready()).size;
    let hits: SearchHit[] = [];
    if (allowed === null || allowed.size > 0) {
      let filter: SearchFilter | undefined = allowed ?? undefined;
      let k = topK;
      if (!allowed && exclude?.size) {
        // A few excluded ids (the query segment, its clip): ask for that many more and drop them.
        k = topK + exclude.size;
        filter = undefined;
      }
      hits = (await d.index.search(vector, k, filter)).filter((h) => !exclude?.has(h.id)).slice(0, topK);
    }
    return { hits, allowed: allowed?.size ?? null, indexed };
  }

  async function collectionHits(text: string, topK: number, filters: SearchFilters): Promise<{ remote: Hit[]; info: SearchResponse['collections'] }> {
    const region = d.space().region;
    const ids = processedCollections.all(region, maxCollections) as string[];
    if (ids.length === 0) return { remote: [], info: null };
    if (recentlyUnreachable()) {
      return { remote: [], info: { searched: [], hits: 0, unmapped: 0, error: health.error ?? { kind: 'offline', message: 'the service cannot be reached' } } };
    }
    let c: ServiceClient;
    try {
      c = serviceClient();
    } catch (e) {
      return { remote: [], info: { searched: [], hits: 0, unmapped: 0, error: toAppError(e).toJSON() } };
    }
    const settled = await patiently((onRetry) =>
      Promise.allSettled(ids.map((id) => searchCollectionClips({ store: collectionStore, client: () => c, region: () => region }, id, text, topK, { onRetry }))),
    );
    const remote: Hit[] = [];
    let unmapped = 0;
    let error: AppErrorData | null = null;
    const searched: string[] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') {
        searched.push(ids[i]!);
        for (const h of s.value.results) {
          if (h.clipId !== null) remote.push({ clipId: h.clipId, segmentId: null, shotId: null, startS: h.startS, endS: h.endS, similarity: h.similarity, source: 'collection', videoId: h.videoId });
        }
        unmapped += s.value.unmapped;
      } else {
        const err = toAppError(s.reason);
        error ??= err.toJSON();
        noteFailure(err);
      }
    });
    if (searched.length > 0) noteSuccess();
    // Whole-video hits obey the clip filters; tag filters need a matching segment in the clip.
    const pass = filterClips(d.db, filters, [...new Set(remote.map((h) => h.clipId))]);
    const kept = remote.filter((h) => pass.has(h.clipId));
    return { remote: kept, info: { searched, hits: kept.length, unmapped, error } };
  }

  const collectionOfVideo = d.db.prepare('SELECT collection_id FROM collection_videos WHERE video_id = ? AND region = ?').pluck();
  const fingerprintOf = d.db.prepare('SELECT fingerprint FROM clips WHERE id = ?').pluck();
  const segmentsNear = d.db.prepare('SELECT id FROM segments WHERE clip_id = ? AND start_s < ? AND end_s > ?').pluck();
  const segmentsOfClip = d.db.prepare('SELECT id FROM segments WHERE clip_id = ?').pluck();

  /** Local index hits with their clip and time range (segments deleted since indexing drop out). */
  function localHits(found: readonly SearchHit[]): Hit[] {
    const segments = loadSegments(d.db, found.map((h) => h.id));
    return found.flatMap((h) => {
      const s = segments.get(h.id);
      return s ? [{ clipId: s.clipId, segmentId: h.id, shotId: s.shotId, startS: s.startS, endS: s.endS, similarity: h.similarity, source: 'local' as const }] : [];
    });
  }

  /** Groups to cards: one per clip (and per file), its best range shown, the rest as "more". */
  function toResults(groups: readonly ResultGroup[], cal: Calibration | null, localSource: 'local' | 'cache'): SearchResult[] {
    const segIds = groups.flatMap((g) => [g.best, ...g.more].map((r) => r.segmentId).filter((id): id is number => id !== null));
    const segments = loadSegments(d.db, segIds);
    const clips = loadClips(d.db, groups.flatMap((g) => [g.clipId, ...g.sameFile]));
    const scoreOf = (r: Range) => (cal ? Math.round(r.score) : null);
    const simOf = (r: Range) => r.similarity ?? r.remoteSimilarity ?? 0;
    const out: SearchResult[] = [];
    for (const g of groups) {
      const c = clips.get(g.clipId);
      if (!c) continue;
      const r = g.best;
      const seg = r.segmentId === null ? undefined : segments.get(r.segmentId);
      const collectionId = r.videoId ? ((collectionOfVideo.get(r.videoId, d.space().region) as string | undefined) ?? null) : null;
      const sources = r.sources.map((x) => (x === 'local' ? localSource : 'collection'));
      out.push({
        rank: out.length + 1,
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
        startS: r.startS ?? 0,
        endS: r.endS ?? c.clipDurationS ?? 0,
        score: scoreOf(r),
        good: cal ? aboveFloor(simOf(r), cal) : true,
        similarity: simOf(r),
        source: sources[0]!,
        sources,
        thumb: seg?.thumb ?? c.thumb,
        tags: seg?.tags ?? [],
        collection: r.videoId && collectionId ? { collectionId, videoId: r.videoId, similarity: r.remoteSimilarity ?? 0 } : null,
        more: g.more.map((m) => ({
          segmentId: m.segmentId,
          startS: m.startS ?? 0,
          endS: m.endS ?? c.clipDurationS ?? 0,
          score: scoreOf(m),
          similarity: simOf(m),
          thumb: (m.segmentId === null ? undefined : segments.get(m.segmentId)?.thumb) ?? null,
        })),
        otherLocations: g.sameFile.flatMap((id) => {
          const o = clips.get(id);
          return o ? [{ clipId: id, clipPath: o.clipPath }] : [];
        }),
      });
    }
    return out;
  }

  /** Hits to cards, scored against the query's calibration (none: filters only, unscored). */
  function assemble(hits: readonly Hit[], cal: Calibration | null, topK: number, localSource: 'local' | 'cache') {
    const identities = new Map<number, string>();
    const identity = (clipId: number) => {
      let id = identities.get(clipId);
      if (id === undefined) {
        const f = fingerprintOf.get(clipId) as string | null | undefined;
        id = f ? `file:${f}` : `clip:${clipId}`;
        identities.set(clipId, id);
      }
      return id;
    };
    const groups = groupResults(hits, { score: (cos) => (cal ? relevanceScore(cos, cal) : 0), identity, topK });
    const results = toResults(groups, cal, localSource);
    return { results, noGoodMatch: cal !== null && results.length > 0 && !results.some((r) => r.good) };
  }

  /**
   * A query that was only camera or people words: no text to encode, so the segments the filters
   * allow are listed (unscored), clip by clip, in time order.
   */
  async function filterOnly(filters: SearchFilters, topK: number, text: string, parsed: SearchResponse['parsed'], t0: number): Promise<SearchResponse> {
    const space = d.space();
    const allowed = allowedSegmentIds(d.db, filters, space) ?? new Set<number>();
    const indexed = (await d.index.ready()).size;
    const ids = [...allowed].sort((a, b) => a - b).slice(0, candidatesFor(topK));
    const hits = localHits(ids.map((id) => ({ id, similarity: 0 })));
    const { results } = assemble(hits, null, topK, 'local');
    return {
      results,
      query: { text, normalized: '', segmentId: null, origin: null, cachedAt: null },
      cannotRun: null,
      collections: null,
      parsed,
      noGoodMatch: false,
      stats: { indexed, allowed: allowed.size, tookMs: performance.now() - t0 },
    };
  }

  return {
    async text(args: { text: string; topK: number; filters: SearchFilters; collections: boolean }): Promise<SearchResponse> {
      const t0 = performance.now();
      const space = d.space();
      // Camera, framing, angle and people words become filters; the rest is what the service encodes.
      const parsed = parseQuery(args.text);
      const filters = withParsedFilters(args.filters, parsed);
      const parsedInfo = { text: parsed.text, chips: parsed.chips };
      const normalized = normalizeQuery(parsed.text);
      if (parsed.text === '') return filterOnly(filters, args.topK, args.text, parsedInfo, t0);
      let vector: ArrayLike<number>;
      let origin: 'service' | 'cache';
      let cachedAt: number | null = null;
      const cached = d.queryCache.get(parsed.text, space);
      if (cached) {
        vector = cached.vector;
        origin = 'cache';
        cachedAt = cached.createdAt;
      } else {
        try {
          const c = serviceClient();
          const r = await patiently((onRetry) => c.encodeText(parsed.text, { onRetry }));
          vector = r.embedding;
          d.queryCache.put(parsed.text, space, r.embedding);
          origin = 'service';
          noteSuccess();
        } catch (e) {
          const err = toAppError(e);
          noteFailure(err);
          d.logger?.info('search.text.cannotRun', { kind: err.kind });
          const indexed = d.index.status().size;
          return {
            results: [],
            query: { text: args.text, normalized, segmentId: null, origin: null, cachedAt: null },
            cannotRun: explainCannotRun(err, parsed.text),
            collections: null,
            parsed: parsedInfo,
            noGoodMatch: false,
            stats: { indexed, allowed: null, tookMs: performance.now() - t0 },
          };
        }
      }
      const [local, coll] = await Promise.all([
        localSearch(vector, candidatesFor(args.topK), filters),
        args.collections ? collectionHits(parsed.text, args.topK, filters) : Promise.resolve({ remote: [] as Hit[], info: null }),
      ]);
      const cal = calibration.forQuery(vector);
      const { results, noGoodMatch } = assemble([...localHits(local.hits), ...coll.remote], cal, args.topK, origin === 'cache' ? 'cache' : 'local');
      return {
        results,
        query: { text: args.text, normalized, segmentId: null, origin, cachedAt },
        cannotRun: null,
        collections: coll.info,
        parsed: parsedInfo,
        noGoodMatch,
        stats: { indexed: local.indexed, allowed: local.allowed, tookMs: performance.now() - t0 },
      };
    },

    /**
     * Nearest segments to a segment's own stored embedding: no service involved. The source's own
     * neighbourhood (its clip within NEIGHBOURHOOD_S) is left out by default: it always looks alike.
     */
    async similar(args: { segmentId: number; topK: number; filters: SearchFilters; exclude: 'neighbourhood' | 'clip' | 'none' }): Promise<SearchResponse> {
      const t0 = performance.now();
      const vector = d.index.storedVector(args.segmentId);
      const exclude = new Set<number>([args.segmentId]);
      const src = loadSegments(d.db, [args.segmentId]).get(args.segmentId);
      if (src && args.exclude === 'clip') for (const id of segmentsOfClip.all(src.clipId) as number[]) exclude.add(id);
      if (src && args.exclude === 'neighbourhood') {
        for (const id of segmentsNear.all(src.clipId, src.endS + NEIGHBOURHOOD_S, src.startS - NEIGHBOURHOOD_S) as number[]) exclude.add(id);
      }
      const local = await localSearch(vector, candidatesFor(args.topK), args.filters, exclude);
      const cal = calibration.forQuery(vector);
      const { results, noGoodMatch } = assemble(localHits(local.hits), cal, args.topK, 'local');
      return {
        results,
        query: { text: null, normalized: null, segmentId: args.segmentId, origin: 'segment', cachedAt: null },
        cannotRun: null,
        collections: null,
        parsed: null,
        noGoodMatch,
        stats: { indexed: local.indexed, allowed: local.allowed, tookMs: performance.now() - t0 },
      };
    },

    status(): SearchStatus {
      let state: SearchStatus['service']['state'] = health.state;
      let error = health.error;
      if (unconfigured || state === 'unknown') {
        // Cheap local check, no network: is there a key and an address at all?
        try {
          const cfg = resolveConfig(d.serviceConfig());
          resolveBaseUrl(cfg.region, cfg.baseUrls);
        } catch (e) {
          state = 'unconfigured';
          error = unconfigured ?? toAppError(e).toJSON();
        }
      }
      return {
        service: { state, error, checkedAt: health.checkedAt, waiting },
        index: d.index.status(),
        cachedQueries: d.queryCache.count(d.space()),
      };
    },

    history(limit: number): CachedQuery[] {
      return d.queryCache.recent(d.space(), limit);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
