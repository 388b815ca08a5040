import type { CollectionSearchHit } from '../../../src-shared/contract/collections';
import type { ServiceClient } from '../service';
import type { CallOptions } from '../service/http/transport';
import type { CollectionStore } from './collection-store';

export interface CollectionSearchDeps {
  store: CollectionStore;
  client: () => ServiceClient;
  region: () => string;
}

export interface CollectionSearchResult {
  results: CollectionSearchHit[];
  /** Hits on videos that were not uploaded from this catalog (another app, another machine). */
  unmapped: number;
}

/**
 * The service's text search inside one collection (one hit per video, the client groups them), with
 * each video_id mapped back to the clip it was uploaded from. Needs the service: offline it fails
 * with the client's 'offline' error.
 */
export async function searchCollectionClips(d: CollectionSearchDeps, collectionId: string, text: string, topK: number, opts: Pick<CallOptions, 'signal' | 'onRetry'> = {}): Promise<CollectionSearchResult> {
  const hits = await d.client().searchCollection(collectionId, text, topK, opts);
  const map = d.store.clipsByVideoId(d.region(), collectionId, hits.map((h) => h.videoId));
  // The spec leaves the order open: the client sorts by similarity; cut to top_k in case the service sends more.
  const results = hits.slice(0, topK).map((h, i) => {
    const m = map.get(h.videoId);
    return { videoId: h.videoId, clipId: m?.clipId ?? null, fileName: m?.fileName ?? null, similarity: h.similarity, rank: i + 1, startS: h.startS, endS: h.endS };
  });
  return { results, unmapped: results.filter((r) => r.clipId === null).length };
}
