import type { SegmentTag } from '../../../src-shared/contract/search';
import { toAppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { catalogueRemoteClip, nameFromUrl, URL_PROFILE_ID } from '../library/remote-clips';
import { applyClipEvent } from '../library/clips-repository';
import { SegmentStore } from '../pipeline/service-cache/segment-store';
import { makeRemoteStills, probeRemote } from '../remote/remote-clip-media';
import type { RemoteAccess } from '../remote/remote-input';
import { checkRemoteUrl } from '../remote/remote-url-policy';
import type { ServiceClient } from '../service/client';
import { encodeVideoWithFallback, tagVideoWithFallback } from '../service/fallback';
import { serviceTagsForDisplay } from './tag-range-now';

export interface AddByUrlDeps {
  db: CatalogDb;
  client: () => ServiceClient;
  identity: () => { region: string; model: string };
  ffprobe: () => string | undefined;
  ffmpeg: () => string;
  cacheDir: string;
  /** The address rules and timeouts of every read main makes of an address. */
  remote: () => RemoteAccess;
  logger?: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

export interface AddByUrlResult {
  clipId: number;
  via: 'sync' | 'async';
  segments: number;
  tags: SegmentTag[];
  /** Why the clip has no poster, when the stills could not be made (the clip is added all the same). */
  stillsError: string | null;
  /** Bytes main read from the address (its header, then the poster's and filmstrip's parts). */
  bytesRead: number;
}

/**
 * "Add by URL": main reads the address's header first (ffprobe through the relay: the address
 * rules, timeouts, no playlists), so an address that is not a video file Reelscout can read is
 * refused before the service is billed. The service then embeds the video at `url` (synchronous
 * encode_video, its async counterpart when that answers 504) and tags it (video_tagging by URL,
 * same fallback); the clip is catalogued with those results and joins the search index like any
 * indexed clip; its poster and filmstrip are made from range requests.
 */
export async function addByUrl(d: AddByUrlDeps, url: string, name: string | undefined, signal?: AbortSignal): Promise<AddByUrlResult> {
  const access = d.remote();
  checkRemoteUrl(url, access.policy);
  const { probe, bytesRead: probeBytes } = await probeRemote(url, access, { ffprobe: d.ffprobe(), signal });
  const client = d.client();
  const emb = await encodeVideoWithFallback(client, url, { signal, onFallback: (f) => d.logger?.info('library.addUrl.async', { requestId: f.requestId }) });
  const tagged = await tagVideoWithFallback(client, { videoUrl: url }, { signal });
  const { clipId, shotId, durationS: duration } = catalogueRemoteClip(d.db, url, name ?? nameFromUrl(url), probe);
  // The spec does not say which part of the video each vector describes: K vectors are taken as
  // K equal, consecutive parts (one vector: the whole clip).
  const k = emb.embeddings.length;
  const spans = emb.embeddings.map((vector, i) => ({ startS: (duration * i) / k, endS: (duration * (i + 1)) / k, vector }));
  const t = tagged.tags;
  const id = (v: typeof t.shotSize) => (v ? { id: v.canonical, confidence: v.confidence ?? null } : null);
  const segments = new SegmentStore(d.db);
  const ids = segments.insertFetchedSegments(
    clipId,
    shotId,
    spans,
    { shotSize: id(t.shotSize), cameraMovement: id(t.cameraMovement), shootingAngle: id(t.shootingAngle) },
    JSON.stringify(tagged.tagsRaw ?? null),
    { ...d.identity(), profileId: URL_PROFILE_ID },
  );
  segments.markIndexed(clipId, URL_PROFILE_ID);
  let stillsError: string | null = null;
  let bytesRead = probeBytes;
  try {
    bytesRead += (await makeRemoteStills(d.db, clipId, access, { cacheDir: d.cacheDir, ffmpeg: d.ffmpeg(), signal })).bytesRead;
  } catch (e) {
    // The clip is searchable already; a poster that failed is said on the card, and adding the address again retries it.
    const err = toAppError(e, 'media');
    stillsError = err.kind === 'cancelled' ? 'cancelled before its poster was made' : err.message;
    applyClipEvent(d.db, clipId, { type: 'probed', verdict: 'probed' }, { status_reason: `no poster: ${stillsError}` });
    d.logger?.warn('library.addUrl.stills', { clipId, kind: err.kind, message: err.message });
  }
  const via = emb.via === 'async' || tagged.via === 'async' ? 'async' : 'sync';
  return { clipId, via, segments: ids.length, tags: serviceTagsForDisplay(t), stillsError, bytesRead };
}
