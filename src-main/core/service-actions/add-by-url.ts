import type { SegmentTag } from '../../../src-shared/contract/search';
import { AppError, toAppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { catalogueRemoteClip, nameFromUrl, URL_PROFILE_ID } from '../library/remote-clips';
import { applyClipEvent } from '../library/clips-repository';
import { createSegmentStore } from '../pipeline/service-cache/segment-store';
import { makeRemoteStills, probeRemote } from '../remote/remote-clip-media';
import { DEFAULT_REMOTE_DEADLINES, type RemoteAccess } from '../remote/remote-input';
import { checkRemoteUrl } from '../remote/remote-url-policy';
import type { ServiceClient } from '../service/client';
import { encodeVideoWithFallback, tagVideoWithFallback } from '../service/fallback';
import { serviceTagsForDisplay } from './tag-range-now';
import { createUrlTaskStore } from './url-task-store';

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
  const limitMs = addUrlLimitMs(access);
  const limit = AbortSignal.timeout(limitMs);
  try {
    return await addWithin(d, access, url, name, signal ? AbortSignal.any([signal, limit]) : limit, limit);
  } catch (e) {
    if (!limit.aborted || signal?.aborted) throw e;
    throw new AppError('timeout', overLimit(url, limitMs), { cause: e });
  }
}

/** The whole of one Add by URL ends within this (what the UI counts down). */
export function addUrlLimitMs(access: RemoteAccess): number {
  return access.deadlines?.addMs ?? DEFAULT_REMOTE_DEADLINES.addMs;
}

/** "10 min", "8 s": the limit as the UI shows it. */
export function formatLimit(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

/** Why an add that ran out of time added nothing, and what the editor can do. */
export function overLimit(url: string, limitMs: number): string {
  const host = new URL(url).host;
  return `Stopped after ${formatLimit(limitMs)}, the limit for adding an address: the service had not finished reading ${host}. Nothing was added. A server that answers Reelscout but stalls other downloads (a link that needs a login or a cookie, a throttled share) does this: give the file's direct address, or download the file and import it.`;
}

async function addWithin(d: AddByUrlDeps, access: RemoteAccess, url: string, name: string | undefined, signal: AbortSignal, limit: AbortSignal): Promise<AddByUrlResult> {
  const { probe, bytesRead: probeBytes } = await probeRemote(url, access, { ffprobe: d.ffprobe(), signal });
  const client = d.client();
  // The async tasks' ids are kept until the clip is catalogued: an add cut off before (the app quit,
  // the limit ran out) asks the service about them when the address is added again, never resends.
  const tasks = createUrlTaskStore(d.db);
  const { region } = d.identity();
  const onFallback = (f: { requestId: string }) => d.logger?.info('library.addUrl.async', { requestId: f.requestId });
  const emb = await encodeVideoWithFallback(client, url, { signal, onFallback, journal: tasks.journal(url, 'embedding', region) });
  const tagged = await tagVideoWithFallback(client, { videoUrl: url }, { signal, onFallback, journal: tasks.journal(url, 'tagging', region) });
  const { clipId, shotId, durationS: duration } = catalogueRemoteClip(d.db, url, name ?? nameFromUrl(url), probe);
  // The spec does not say which part of the video each vector describes: K vectors are taken as
  // K equal, consecutive parts (one vector: the whole clip).
  const k = emb.embeddings.length;
  const spans = emb.embeddings.map((vector, i) => ({ startS: (duration * i) / k, endS: (duration * (i + 1)) / k, vector }));
  const t = tagged.tags;
  const id = (v: typeof t.shotSize) => (v ? { id: v.canonical, confidence: v.confidence ?? null } : null);
  const segments = createSegmentStore(d.db);
  const ids = segments.insertFetchedSegments(
    clipId,
    shotId,
    spans,
    { shotSize: id(t.shotSize), cameraMovement: id(t.cameraMovement), shootingAngle: id(t.shootingAngle) },
    JSON.stringify(tagged.tagsRaw ?? null),
    { ...d.identity(), profileId: URL_PROFILE_ID },
  );
  segments.markIndexed(clipId, URL_PROFILE_ID);
  tasks.clearUrl(url, region);
  let stillsError: string | null = null;
  let bytesRead = probeBytes;
  try {
    bytesRead += (await makeRemoteStills(d.db, clipId, access, { cacheDir: d.cacheDir, ffmpeg: d.ffmpeg(), signal })).bytesRead;
  } catch (e) {
    // The clip is searchable already; a poster that failed is said on the card, and adding the address again retries it.
    const err = toAppError(e, 'media');
    stillsError = err.kind !== 'cancelled' ? err.message : limit.aborted ? 'the time limit for adding ran out before its poster was made' : 'cancelled before its poster was made';
    applyClipEvent(d.db, clipId, { type: 'probed', verdict: 'probed' }, { status_reason: `no poster: ${stillsError}` });
    d.logger?.warn('library.addUrl.stills', { clipId, kind: err.kind, message: err.message });
  }
  const via = emb.via === 'async' || tagged.via === 'async' ? 'async' : 'sync';
  return { clipId, via, segments: ids.length, tags: serviceTagsForDisplay(t), stillsError, bytesRead };
}
