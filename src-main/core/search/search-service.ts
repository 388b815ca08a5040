import { AppError, toAppError, type AppErrorData } from '../../../src-shared/errors';
import type {
  CachedQuery,
  SearchFilters,
  SearchResponse,
  SearchResult,
  SearchStatus,
} from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { searchCollectionClips, toRemoteHits } from '../collections/collection-search';
import { createCollectionStore, type CollectionStore } from '../collections/collection-store';
import { mergeSearchResults, type LocalHit, type MergedHit, type RemoteHit } from '../collections/merge-search-results';
import { resolveBaseUrl, resolveConfig, ServiceClient, type ServiceConfig } from '../service';
import type { Logger } from '../util/logger';
import { normalizeQuery, type EmbeddingSpace, type QueryCache } from './query-cache';
import { allowedSegmentIds, filterClips } from './search-filters';
import type { SearchIndexManager } from './search-index-manager';
import { loadClips, loadSegments, type SegmentInfo } from './search-results';
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
  /** After a failure that says the service is unreachable, collection searches are skipped for this long. */
  offlineBackoffMs?: number;
  now?: () => number;
}

type ServiceState = SearchStatus['service']['state'];

/** Kinds meaning "the service cannot be reached right now", as opposed to a refusal. */
const UNREACHABLE = new Set(['offline', 'timeout', 'upstream', 'server']);

/**
 * Interactive calls fail fast: someone is waiting at the search box, and a cached or local answer
 * is better than a long retry ladder. The job pipeline keeps the client's patient defaults.
 */
const INTERACTIVE = { retry: { maxAttempts: 2, baseDelayMs: 250, maxDelayMs: 1000, timeoutAttempts: 1, serverAttempts: 2 }, timeoutMs: 20_000 };
const COLLECTION_TIMEOUT_MS = 10_000;

function explainCannotRun(err: AppError, text: string): AppErrorData {
  const fallback = 'Earlier searches still run from the cache, and "find similar" and filters work offline.';
  const q = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  switch (err.kind) {
    case 'offline':
    case 'timeout':
    case 'upstream':
    case 'server':
      return { kind: err.kind, message: `Cannot run "${q}" offline: it was never searched before, and the service that encodes new queries is unreachable (${err.message}). ${fallback}` };
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
  let client: { key: string; client: ServiceClient } | null = null;
  const service: { state: ServiceState; error: AppErrorData | null; checkedAt: number | null } = { state: 'unknown', error: null, checkedAt: null };

  const processedCollections = d.db
    .prepare(
      `SELECT collection_id FROM collection_videos WHERE region = ? AND status = 'processed' AND video_id IS NOT NULL
       GROUP BY collection_id ORDER BY COUNT(*) DESC, collection_id LIMIT ?`,
    )
    .pluck();
  const clipOfSegment = d.db.prepare('SELECT clip_id FROM segments WHERE id = ?').pluck();
  const segmentsOfClip = d.db.prepare('SELECT id FROM segments WHERE clip_id = ?').pluck();

  function setService(state: ServiceState, error: AppErrorData | null): void {
    const changed = state !== service.state || JSON.stringify(error) !== JSON.stringify(service.error);
    service.state = state;
    service.error = error;
    service.checkedAt = now();
    if (changed) d.onStatusChange?.();
  }

  /** Errors of the settings themselves (no key, no address): already recorded as 'unconfigured'. */
  const configErrors = new WeakSet<AppError>();

  function noteFailure(err: AppError): void {
    if (err.kind === 'cancelled' || configErrors.has(err)) return;
    setService(UNREACHABLE.has(err.kind) ? 'offline' : 'online', err.toJSON());
  }

  /** The interactive client for the current settings; a settings change gives a new one. */
  function serviceClient(): ServiceClient {
    let cfg: ServiceConfig;
    let c: ServiceClient;
    try {
      cfg = d.serviceConfig();
      const key = JSON.stringify(cfg);
      if (client?.key === key) return client.client;
      c = new ServiceClient({ ...cfg, ...INTERACTIVE, timeoutMs: Math.min(cfg.timeoutMs ?? INTERACTIVE.timeoutMs, INTERACTIVE.timeoutMs) });
      client = { key, client: c };
      return c;
    } catch (e) {
      const err = toAppError(e);
      configErrors.add(err);
      setService('unconfigured', err.toJSON());
      throw err;
    }
  }

  function recentlyUnreachable(): boolean {
    return service.state === 'offline' && service.checkedAt !== null && now() - service.checkedAt < offlineBackoffMs;
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

  async function collectionHits(text: string, topK: number, filters: SearchFilters): Promise<{ remote: RemoteHit[]; info: SearchResponse['collections'] }> {
    const region = d.space().region;
    const ids = processedCollections.all(region, maxCollections) as string[];
    if (ids.length === 0) return { remote: [], info: null };
    if (recentlyUnreachable()) {
      return { remote: [], info: { searched: [], hits: 0, unmapped: 0, error: service.error ?? { kind: 'offline', message: 'the service is unreachable' } } };
    }
    let c: ServiceClient;
    try {
      c = serviceClient();
    } catch (e) {
      return { remote: [], info: { searched: [], hits: 0, unmapped: 0, error: toAppError(e).toJSON() } };
    }
    const settled = await Promise.allSettled(
      ids.map((id) =>
        searchCollectionClips({ store: collectionStore, client: () => c, region: () => region }, id, text, topK, AbortSignal.timeout(COLLECTION_TIMEOUT_MS)),
      ),
    );
    const remote: RemoteHit[] = [];
    let unmapped = 0;
    let error: AppErrorData | null = null;
    const searched: string[] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') {
        searched.push(ids[i]!);
        remote.push(...toRemoteHits(s.value.results));
        unmapped += s.value.unmapped;
      } else {
        const err = toAppError(s.reason);
        // An abort from our own deadline means "no answer in time".
        const e = err.kind === 'cancelled' ? new AppError('timeout', `collection search: no answer within ${COLLECTION_TIMEOUT_MS / 1000} s`) : err;
        error ??= e.toJSON();
        noteFailure(e);
      }
    });
    if (searched.length > 0) setService('online', null);
    // Whole-video hits obey the clip filters; tag filters need a matching segment in the clip.
    const mapped = remote.filter((h) => h.clipId !== null);
    const pass = filterClips(d.db, filters, [...new Set(mapped.map((h) => h.clipId!))]);
    const kept = mapped.filter((h) => pass.has(h.clipId!));
    return { remote: kept, info: { searched, hits: kept.length, unmapped, error } };
  }

  function toResults(merged: readonly MergedHit[], segments: ReadonlyMap<number, SegmentInfo>, localSource: 'local' | 'cache', remote: readonly RemoteHit[]): SearchResult[] {
    const remoteByClip = new Map<number, RemoteHit>();
    for (const r of remote) if (r.clipId !== null && !remoteByClip.has(r.clipId)) remoteByClip.set(r.clipId, r);
    const clipOnly = loadClips(d.db, merged.filter((m) => m.segmentId === null && m.clipId !== null).map((m) => m.clipId!));
    const out: SearchResult[] = [];
    for (const m of merged) {
      const inCollection = m.remoteSimilarity !== null && m.videoId !== null && m.remoteRank !== null;
      const collectionId = inCollection ? collectionOf(m.videoId!) : null;
      const collection = inCollection && collectionId ? { collectionId, videoId: m.videoId!, similarity: m.remoteSimilarity!, rank: m.remoteRank! } : null;
      if (m.segmentId !== null) {
        const s = segments.get(m.segmentId);
        if (!s) continue;
        out.push({
          rank: out.length + 1,
          segmentId: s.segmentId,
          clipId: s.clipId,
          clipName: s.clipName,
          clipPath: s.clipPath,
          clipStatus: s.clipStatus,
          clipDurationS: s.clipDurationS,
          width: s.width,
          height: s.height,
          shotId: s.shotId,
          startS: s.startS,
          endS: s.endS,
          similarity: m.localSimilarity ?? 0,
          source: localSource,
          sources: collection ? [localSource, 'collection'] : [localSource],
          thumb: s.thumb,
          tags: s.tags,
          collection,
        });
      } else if (m.clipId !== null) {
        const c = clipOnly.get(m.clipId);
        if (!c) continue;
        out.push({
          rank: out.length + 1,
          segmentId: null,
          clipId: c.clipId,
          clipName: c.clipName,
          clipPath: c.clipPath,
          clipStatus: c.clipStatus,
          clipDurationS: c.clipDurationS,
          width: c.width,
          height: c.height,
          shotId: null,
          startS: 0,
          endS: c.clipDurationS ?? 0,
          similarity: m.remoteSimilarity ?? 0,
          source: 'collection',
          sources: ['collection'],
          thumb: c.thumb,
          tags: [],
          collection,
        });
      }
    }
    return out;
  }

  const collectionOfVideo = d.db.prepare('SELECT collection_id FROM collection_videos WHERE video_id = ? AND region = ?').pluck();
  function collectionOf(videoId: string): string | null {
    return (collectionOfVideo.get(videoId, d.space().region) as string | undefined) ?? null;
  }

  /** Local hits with their clip and time range (segments deleted since indexing drop out). */
  function localHits(hits: readonly SearchHit[]): { local: LocalHit[]; segments: Map<number, SegmentInfo> } {
    const segments = loadSegments(d.db, hits.map((h) => h.id));
    const local: LocalHit[] = [];
    for (const h of hits) {
      const s = segments.get(h.id);
      if (s) local.push({ clipId: s.clipId, segmentId: h.id, startS: s.startS, endS: s.endS, similarity: h.similarity });
    }
    return { local, segments };
  }

  return {
    async text(args: { text: string; topK: number; filters: SearchFilters; collections: boolean }): Promise<SearchResponse> {
      const t0 = performance.now();
      const space = d.space();
      const normalized = normalizeQuery(args.text);
      let vector: ArrayLike<number>;
      let origin: 'service' | 'cache';
      let cachedAt: number | null = null;
      const cached = d.queryCache.get(args.text, space);
      if (cached) {
        vector = cached.vector;
        origin = 'cache';
        cachedAt = cached.createdAt;
      } else {
        try {
          const r = await serviceClient().encodeText(args.text);
          vector = r.embedding;
          d.queryCache.put(args.text, space, r.embedding);
          origin = 'service';
          setService('online', null);
        } catch (e) {
          const err = toAppError(e);
          noteFailure(err);
          d.logger?.info('search.text.cannotRun', { kind: err.kind });
          const indexed = d.index.status().size;
          return {
            results: [],
            query: { text: args.text, normalized, segmentId: null, origin: null, cachedAt: null },
            cannotRun: explainCannotRun(err, args.text),
            collections: null,
            stats: { indexed, allowed: null, tookMs: performance.now() - t0 },
          };
        }
      }
      const [local, coll] = await Promise.all([
        localSearch(vector, args.topK, args.filters),
        args.collections ? collectionHits(args.text, args.topK, args.filters) : Promise.resolve({ remote: [] as RemoteHit[], info: null }),
      ]);
      const { local: hits, segments } = localHits(local.hits);
      const merged = mergeSearchResults(hits, coll.remote, { topK: args.topK });
      return {
        results: toResults(merged, segments, origin === 'cache' ? 'cache' : 'local', coll.remote),
        query: { text: args.text, normalized, segmentId: null, origin, cachedAt },
        cannotRun: null,
        collections: coll.info,
        stats: { indexed: local.indexed, allowed: local.allowed, tookMs: performance.now() - t0 },
      };
    },

    /** Nearest segments to a segment's own stored embedding: no service involved. */
    async similar(args: { segmentId: number; topK: number; filters: SearchFilters; excludeSameClip: boolean }): Promise<SearchResponse> {
      const t0 = performance.now();
      const vector = d.index.storedVector(args.segmentId);
      const exclude = new Set<number>([args.segmentId]);
      if (args.excludeSameClip) {
        const clipId = clipOfSegment.get(args.segmentId) as number | undefined;
        if (clipId !== undefined) for (const id of segmentsOfClip.all(clipId) as number[]) exclude.add(id);
      }
      const local = await localSearch(vector, args.topK, args.filters, exclude);
      const { local: hits, segments } = localHits(local.hits);
      const merged = mergeSearchResults(hits, [], { topK: args.topK });
      return {
        results: toResults(merged, segments, 'local', []),
        query: { text: null, normalized: null, segmentId: args.segmentId, origin: 'segment', cachedAt: null },
        cannotRun: null,
        collections: null,
        stats: { indexed: local.indexed, allowed: local.allowed, tookMs: performance.now() - t0 },
      };
    },

    status(): SearchStatus {
      let state = service.state;
      if (state === 'unknown' || state === 'unconfigured') {
        // Cheap local check, no network: is there a key and an address at all?
        try {
          const cfg = resolveConfig(d.serviceConfig());
          resolveBaseUrl(cfg.region, cfg.baseUrls);
          if (state === 'unconfigured') state = 'unknown';
        } catch {
          state = 'unconfigured';
        }
      }
      return {
        service: { state, error: service.error, checkedAt: service.checkedAt },
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
