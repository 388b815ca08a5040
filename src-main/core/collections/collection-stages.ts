import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, toAppError, type ErrorKind } from '../../../src-shared/errors';
import type { ServiceClient } from '../service';
import type { CollectionShare, UploadClaim } from '../team-port';
import type { Logger } from '../util/logger';
import type { ClipFile, ClipFiles } from './clip-files';
import { type CollectionStore } from './collection-store';
import { POLL_STATES, UPLOAD_STATES, type VideoKey, type VideoRow } from './collection-video-row';
import { transcodeProxy } from './proxy-transcode';
import { DIRECT_UPLOAD_MAX_BYTES, planUpload, type UploadPlan } from './upload-rule';

export interface CollectionStageDeps {
  store: CollectionStore;
  clips: ClipFiles;
  /** The region whose rows are worked on (the one in Settings). */
  region: () => string;
  /** The configured client; throws AppError (auth/invalid) when the service is not set up. */
  client: () => ServiceClient;
  ffmpeg: () => string;
  /** Proxies live here (the app cache), one per clip, removed once the service has the video. */
  proxyDir: string;
  /** Files this big or bigger go as a proxy. Tests lower it. */
  proxyThresholdBytes?: number;
  /** A row changed: push it to the renderer. */
  notify: (key: VideoKey) => void;
  logger?: Logger;
  /** Least time between two progress writes of one row (status changes are never delayed). */
  progressIntervalMs?: number;
  /** While joined to a team library: the upload's claim; null when solo. */
  share?: () => CollectionShare | null;
}

export type StageProgress = (fraction: number, note?: string) => void;

/** Failures that the same request will meet again: the row fails with the reason. */
const PERMANENT = new Set<ErrorKind>(['invalid', 'too_large', 'not_found', 'media', 'io', 'internal']);

function keyOf(r: VideoKey): VideoKey {
  return { collectionId: r.collectionId, region: r.region, clipId: r.clipId };
}

function proxyPathFor(d: CollectionStageDeps, file: ClipFile): string {
  // Keyed by the file's identity, so an edited or replaced original never reuses a stale proxy.
  const id = createHash('sha1').update(`${file.fingerprint ?? ''}|${file.sizeBytes}|${Math.round(file.mtimeMs)}`).digest('hex').slice(0, 12);
  return path.join(d.proxyDir, `${file.clipId}-${id}.mp4`);
}

function progressWriter(d: CollectionStageDeps, key: VideoKey) {
  const interval = d.progressIntervalMs ?? 250;
  let last = 0;
  return (fraction: number) => {
    const t = Date.now();
    if (fraction < 1 && t - last < interval) return;
    last = t;
    d.store.update(key, { progress: Math.min(1, Math.max(0, fraction)) });
    d.notify(key);
  };
}

function setRow(d: CollectionStageDeps, key: VideoKey, patch: Parameters<CollectionStore['update']>[1]): void {
  d.store.update(key, patch);
  d.notify(key);
}

/** The client, or the reason there is none (no key, no URL) written on every row that waits for it. */
function clientFor(d: CollectionStageDeps, rows: readonly VideoRow[]): ServiceClient {
  try {
    return d.client();
  } catch (e) {
    const err = toAppError(e);
    for (const r of rows) setRow(d, keyOf(r), { errorKind: err.kind, errorMessage: err.message });
    throw err;
  }
}

async function ensureProxy(d: CollectionStageDeps, key: VideoKey, file: ClipFile, signal: AbortSignal, onFraction: (f: number) => void): Promise<string> {
  const out = proxyPathFor(d, file);
  if (fs.existsSync(out)) {
    // Written under a temporary name and renamed: an existing proxy is complete (e.g. made before a crash).
    d.store.update(key, { proxyPath: out });
    return out;
  }
  setRow(d, key, { status: 'transcoding', progress: 0, proxyPath: out, source: 'proxy', errorKind: null, errorMessage: null });
  const write = progressWriter(d, key);
  await transcodeProxy({
    ffmpeg: d.ffmpeg(),
    input: file.path,
    output: out,
    durationS: file.durationS,
    signal,
    onProgress: (f) => {
      write(f);
      onFraction(f);
    },
  });
  return out;
}

function removeProxyIfUnused(d: CollectionStageDeps, row: VideoRow, proxyPath: string): void {
  const stillNeeded = d.store
    .rowsOfClip(row.region, row.clipId)
    .some((r) => r.collectionId !== row.collectionId && r.videoId === null && UPLOAD_STATES.includes(r.status));
  if (stillNeeded) return;
  fs.rmSync(proxyPath, { force: true });
  for (const r of d.store.rowsOfClip(row.region, row.clipId)) if (r.proxyPath === proxyPath) d.store.update(keyOf(r), { proxyPath: null });
}

/**
 * `stopping` ends local work (the transcode) at once and keeps the upload from starting; `signal`
 * ends a request in flight (the queue aborts it only after a grace period, so an answer the
 * service is about to give is not lost).
 */
async function uploadOne(d: CollectionStageDeps, client: ServiceClient, row: VideoRow, signal: AbortSignal, stopping: AbortSignal, onFraction: (f: number) => void): Promise<void> {
  const key = keyOf(row);
  const file = d.clips.resolve(row.clipId);
  const threshold = d.proxyThresholdBytes ?? DIRECT_UPLOAD_MAX_BYTES;
  let plan: UploadPlan = planUpload(file, threshold);
  for (let attempt = 0; ; attempt++) {
    let sendPath = file.path;
    // Transcoding is about half the work of a proxied file, the upload the other half.
    const share = plan.source === 'proxy' ? 0.5 : 0;
    if (plan.source === 'proxy') sendPath = await ensureProxy(d, key, file, AbortSignal.any([signal, stopping]), (f) => onFraction(f * share));
    if (stopping.aborted) throw new AppError('cancelled', 'stopped before the upload');
    if (!d.store.startUpload(key)) return; // the row got its video_id meanwhile, or vanished
    d.store.update(key, { source: plan.source });
    d.notify(key);
    d.logger?.info('collections.upload.start', { clipId: row.clipId, collectionId: row.collectionId, source: plan.source, reason: plan.reason });
    const write = progressWriter(d, key);
    try {
      const { videoId } = await client.uploadVideoToCollection(row.collectionId, sendPath, {
        signal,
        onProgress: (p) => {
          write(p.fraction);
          onFraction(share + p.fraction * (1 - share));
        },
      });
      if (d.store.row(key)?.status === 'cancelled') {
        // Cancelled while the answer was on its way: the service has the video, so keep its id;
        // re-attaching polls it instead of uploading again.
        d.store.update(key, { videoId, source: plan.source, progress: null });
      } else {
        d.store.recordVideoId(key, videoId, plan.source);
      }
      d.notify(key);
      d.logger?.info('collections.upload.done', { clipId: row.clipId, collectionId: row.collectionId, videoId });
      if (plan.source === 'proxy') removeProxyIfUnused(d, row, sendPath);
      return;
    } catch (e) {
      const err = toAppError(e);
      // The service refused the original's size: a proxy is much smaller, so try that once.
      if (err.kind === 'too_large' && plan.source === 'original' && attempt === 0) {
        plan = { source: 'proxy', reason: `the service answered 413 to the original (${err.message})` };
        continue;
      }
      throw err;
    }
  }
}

/**
 * Stage 'collection-upload' for one clip: every row of the clip (one per collection) without a
 * video_id is transcoded when the rule says so and uploaded. Idempotent: a row that has its
 * video_id is never uploaded again; a row cut off before the answer ('uploading') is uploaded again.
 * Returns whether rows wait for the poll stage.
 */
export async function runCollectionUpload(
  d: CollectionStageDeps,
  clipId: number,
  signal: AbortSignal,
  stopping: AbortSignal,
  onProgress: StageProgress = () => {},
): Promise<{ uploaded: number; failed: number; pollNeeded: boolean; wait: { delayMs: number; note: string } | null }> {
  const region = d.region();
  const rows = d.store.rowsOfClip(region, clipId).filter((r) => r.videoId === null && UPLOAD_STATES.includes(r.status));
  let uploaded = 0;
  let failed = 0;
  let firstPermanent: AppError | undefined;
  let wait: { delayMs: number; note: string } | null = null;
  if (rows.length > 0) {
    const client = clientFor(d, rows);
    for (const [i, row] of rows.entries()) {
      if (signal.aborted || stopping.aborted) throw new AppError('cancelled', 'cancelled');
      const key = keyOf(row);
      const claim: UploadClaim = (await d.share?.()?.claim(row)) ?? { kind: 'upload', hold: null };
      if (claim.kind === 'adopt') {
        d.store.adoptVideo(key, claim.videoId, claim.state);
        d.notify(key);
        d.logger?.info('collections.upload.adopted', { clipId, collectionId: row.collectionId, videoId: claim.videoId });
        continue;
      }
      if (claim.kind === 'wait') {
        setRow(d, key, { errorKind: null, errorMessage: claim.note });
        if (!wait || claim.retryMs < wait.delayMs) wait = { delayMs: claim.retryMs, note: claim.note };
        continue;
      }
      let gotVideo = false;
      try {
        await uploadOne(d, client, row, signal, stopping, (f) => onProgress((i + f) / rows.length, row.fileName));
        gotVideo = d.store.row(key)?.videoId != null;
        uploaded++;
      } catch (e) {
        const err = toAppError(e);
        if (err.kind === 'cancelled' || signal.aborted || stopping.aborted) {
          // A user cancel already marked the row; a pause or shutdown leaves it to be picked up again.
          if (d.store.row(key)?.status !== 'cancelled') setRow(d, key, { status: 'queued', progress: null });
          throw new AppError('cancelled', 'cancelled', { cause: err });
        }
        if (PERMANENT.has(err.kind)) {
          setRow(d, key, { status: 'failed', progress: null, errorKind: err.kind, errorMessage: err.message });
          d.logger?.warn('collections.upload.failed', { clipId, collectionId: row.collectionId, kind: err.kind, message: err.message });
          failed++;
          firstPermanent ??= err;
          continue;
        }
        // Offline, quota, auth, rate limits, an unplugged drive: the row waits, and the caller retries or pauses.
        setRow(d, key, { status: 'queued', progress: null, errorKind: err.kind, errorMessage: err.message });
        throw err;
      } finally {
        claim.hold?.end(gotVideo);
      }
    }
  }
  const pollNeeded = d.store.rowsOfClip(region, clipId).some((r) => r.videoId !== null && POLL_STATES.includes(r.status));
  if (firstPermanent && uploaded === 0 && !pollNeeded && !wait) throw firstPermanent;
  return { uploaded, failed, pollNeeded, wait };
}

/**
 * One round of status checks for the clip's uploaded rows, for a queue that re-runs the stage
 * later instead of holding a slot while the service works. Returns how many rows are still open.
 */
export async function checkCollectionVideos(d: CollectionStageDeps, clipId: number, signal: AbortSignal): Promise<{ open: number; progress: number; failed: string[] }> {
  const region = d.region();
  const rows = d.store.rowsOfClip(region, clipId).filter((r) => r.videoId !== null && POLL_STATES.includes(r.status));
  if (rows.length === 0) return { open: 0, progress: 1, failed: [] };
  const client = clientFor(d, rows);
  const failed: string[] = [];
  let open = 0;
  let sum = 0;
  let firstError: AppError | undefined;
  for (const row of rows) {
    if (signal.aborted) throw new AppError('cancelled', 'cancelled');
    const key = keyOf(row);
    try {
      const s = await client.getVideoStatus(row.videoId!, { signal });
      if (s.status === 'processed') {
        setRow(d, key, { status: 'processed', progress: 1, errorKind: null, errorMessage: null });
        sum += 1;
      } else if (s.status === 'failed') {
        const reason = s.errorMessage ?? `the service reported ${s.rawStatus ?? 'failed'} without a reason`;
        setRow(d, key, { status: 'failed', progress: null, errorKind: 'media', errorMessage: reason });
        failed.push(reason);
        sum += 1;
      } else {
        const fraction = s.progress === undefined ? null : s.progress / 100;
        setRow(d, key, { status: s.status === 'uploaded' ? 'uploaded' : 'processing', progress: fraction, errorKind: null, errorMessage: null });
        sum += fraction ?? 0;
        open++;
      }
    } catch (e) {
      const err = toAppError(e);
      if (err.kind === 'cancelled' || signal.aborted) throw new AppError('cancelled', 'cancelled', { cause: err });
      if (err.kind === 'not_found' || err.kind === 'invalid') {
        setRow(d, key, { status: 'failed', progress: null, errorKind: err.kind, errorMessage: err.message });
        failed.push(err.message);
        continue;
      }
      setRow(d, key, { errorKind: err.kind, errorMessage: `waiting for the service: ${err.message}` });
      firstError ??= err;
      open++;
    }
  }
  if (firstError) throw firstError;
  return { open, progress: sum / rows.length, failed };
}
