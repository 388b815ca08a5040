import { toAppError, type AppErrorData } from '../../../../src-shared/errors';
import type { SearchFilters, SearchResponse } from '../../../../src-shared/contract/search';
import { searchCollectionClips } from '../../collections/collection-search';
import type { CollectionStore } from '../../collections/collection-store';
import type { ServiceClient } from '../../service';
import type { RetryInfo } from '../../service/http/retry';
import type { SearchFilterStore } from '../query/search-filter-store';

/** A hit of the service's collection search on a catalogued clip. */
export interface CollectionHit {
  clipId: number;
  videoId: string;
  startS: number | null;
  endS: number | null;
  similarity: number;
}

export interface CollectionSearchDeps {
  store: CollectionStore;
  filters: SearchFilterStore;
  region: () => string;
  /** Most collections searched per query: each search is a billable call. */
  maxCollections: number;
}

/** The region's collections holding processed videos uploaded from this catalog, most such videos first. */
export function searchableCollections(d: CollectionSearchDeps): string[] {
  return d.store.searchableCollectionIds(d.region(), d.maxCollections);
}

/**
 * Searches the given collections at once (each call its own request within the key's budget) and keeps
 * the hits on catalogued clips that pass the filters: whole-video hits obey the clip filters, and tag
 * filters need a matching segment in the clip. A failed collection is reported, never fatal.
 */
export async function searchCollections(
  d: CollectionSearchDeps,
  ids: readonly string[],
  client: ServiceClient,
  text: string,
  topK: number,
  filters: SearchFilters,
  onRetry: (info: RetryInfo) => void,
): Promise<{ hits: CollectionHit[]; info: NonNullable<SearchResponse['collections']> }> {
  const settled = await Promise.allSettled(ids.map((id) => searchCollectionClips({ store: d.store, client: () => client, region: d.region }, id, text, topK, { onRetry })));
  const found: CollectionHit[] = [];
  let unmapped = 0;
  let error: AppErrorData | null = null;
  const searched: string[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') {
      searched.push(ids[i]!);
      for (const h of s.value.results) if (h.clipId !== null) found.push({ clipId: h.clipId, videoId: h.videoId, startS: h.startS, endS: h.endS, similarity: h.similarity });
      unmapped += s.value.unmapped;
    } else error ??= toAppError(s.reason).toJSON();
  });
  const pass = d.filters.passingClips(filters, [...new Set(found.map((h) => h.clipId))]);
  const hits = found.filter((h) => pass.has(h.clipId));
  return { hits, info: { searched, hits: hits.length, unmapped, error } };
}
