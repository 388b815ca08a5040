import type { SegmentTag } from '../../../src-shared/contract/search';
import type { CatalogDb } from '../catalog/open-catalog';
import { catalogueRemoteClip, nameFromUrl } from '../library/remote-clips';
import { probeFile, type ProbeOutcome } from '../media/probe';
import { SegmentStore } from '../pipeline/segment-store';
import type { ServiceClient } from '../service/client';
import { encodeVideoWithFallback, tagVideoWithFallback } from '../service/fallback';
import { serviceTagsForDisplay } from './tag-range-now';

export interface AddByUrlDeps {
  db: CatalogDb;
  client: () => ServiceClient;
  identity: () => { region: string; model: string };
  ffprobe: () => string | undefined;
  logger?: { info(msg: string, data?: Record<string, unknown>): void };
}

/** Segments of clips added by URL carry this profile: they were never built from local tensors. */
export const URL_PROFILE_ID = 'url';

/**
 * "Add by URL": the service embeds the video at `url` (synchronous encode_video, its async
 * counterpart when that answers 504) and tags it (video_tagging by URL, same fallback); the clip
 * is catalogued with those results and joins the search index like any indexed clip. ffprobe
 * reads the URL's header for duration and picture when it can (a review page may not be a video
 * to ffprobe, the service may still read it); nothing is downloaded.
 */
export async function addByUrl(d: AddByUrlDeps, url: string, name: string | undefined, signal?: AbortSignal): Promise<{ clipId: number; via: 'sync' | 'async'; segments: number; tags: SegmentTag[] }> {
  const client = d.client();
  const probe: ProbeOutcome | null = await probeFile(url, { ffprobe: d.ffprobe(), signal }).catch(() => null);
  const emb = await encodeVideoWithFallback(client, url, { signal, onFallback: (f) => d.logger?.info('library.addUrl.async', { requestId: f.requestId }) });
  const tagged = await tagVideoWithFallback(client, { videoUrl: url }, { signal });
  const { clipId, shotId } = catalogueRemoteClip(d.db, url, name ?? nameFromUrl(url), probe && probe.info.hasVideo ? probe : null);
  const duration = (d.db.prepare('SELECT duration_s FROM clips WHERE id = ?').get(clipId) as { duration_s: number | null }).duration_s ?? 0;
  // The spec does not say which part of the video each vector describes: K vectors are taken as
  // K equal, consecutive parts (one vector: the whole clip).
  const k = emb.embeddings.length;
  const spans = emb.embeddings.map((vector, i) => ({ startS: (duration * i) / k, endS: (duration * (i + 1)) / k, vector }));
  const t = tagged.tags;
  const id = (v: typeof t.shotSize) => (v ? { id: v.canonical, confidence: v.confidence ?? null } : null);
  const ids = new SegmentStore(d.db).insertFetchedSegments(
    clipId,
    shotId,
    spans,
    { shotSize: id(t.shotSize), cameraMovement: id(t.cameraMovement), shootingAngle: id(t.shootingAngle) },
    JSON.stringify(tagged.tagsRaw ?? null),
    { ...d.identity(), profileId: URL_PROFILE_ID },
  );
  new SegmentStore(d.db).markIndexed(clipId, URL_PROFILE_ID);
  const via = emb.via === 'async' || tagged.via === 'async' ? 'async' : 'sync';
  return { clipId, via, segments: ids.length, tags: serviceTagsForDisplay(t) };
}
