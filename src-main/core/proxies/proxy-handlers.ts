import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipAbsPath, getClipRow, pathOf, type ClipRow } from '../library/clip-store';
import type { ClipFileCheck } from '../library/clip-file';
import { isTeamShareKey, listVolumes, setVolumeProxyPolicy, URL_VOLUME_KEY } from '../library/volume-store';
import type { Handlers } from '../rpc/handlers';
import { openUnder, type OpenedFile } from '../util/open-verified';
import { nativePlayback } from './native-playback';
import { playbackSource } from './playback-source';
import { isDetachableMount, PROXY_RESERVE_BYTES, roomForProxy, volumeProxyPolicy, wantsProxy, type ProxyPolicy } from './proxy-policy';
import { formatBytes, freeBytes } from '../util/disk-space';
import { proxyBytes, proxyOf, touchProxy } from './proxy-store';
import { pictureTimesOf, recordPictureTimes } from './picture-times-store';
import { readPictureTimes } from '../media/probe';
import type { RangeStreams, StreamSource } from './range-streams';
import { clipFrameCount, countingOf } from '../../../src-shared/timecode';

/** The clip's proxy when it was made from the clip's current content. */
function currentProxy(db: CatalogDb, clipId: number, fingerprint: string | null) {
  const row = proxyOf(db, clipId);
  return row && row.fingerprint === fingerprint ? row : null;
}

/**
 * The proxy file a player may read, opened once (util/open-verified.ts): under the cache folder,
 * made from the clip's current content, of the size it was written at (a file emptied or cut
 * since is refused, so the viewer falls back instead of showing black); marked as played for the
 * storage budget's least-recently-used order.
 */
export function createProxyFileOpen(db: CatalogDb, cacheDir: string): (clipId: number) => Promise<OpenedFile | AppError> {
  return async (clipId) => {
    const clip = pathOf(db, clipId);
    const row = clip ? currentProxy(db, clipId, clip.fingerprint) : null;
    if (!row) return new AppError('not_found', `clip ${clipId} has no viewing proxy`);
    const file = await openUnder(cacheDir, row.file);
    if (file instanceof AppError) return file;
    if (file.identity.size !== row.bytes) {
      await file.handle.close();
      return new AppError('invalid', `the proxy of clip ${clipId} is not the file written (${file.identity.size} bytes of ${row.bytes})`);
    }
    touchProxy(db, clipId, Date.now());
    return file;
  };
}

interface PlaybackFacts {
  db: CatalogDb;
  cacheDir: string;
  proxyPolicy: () => ProxyPolicy;
  /** A volume's choice changed: its clips get their proxies (or stop wanting them) in the background. */
  volumeProxiesChanged?: () => void;
  platform?: NodeJS.Platform;
  /** The chosen ffprobe (Settings), undefined: the bundled one. */
  ffprobe?: () => string | undefined;
}

type PlaybackMethods = 'playback.get' | 'playback.sources' | 'playback.proxySpace' | 'playback.volumeProxies' | 'playback.stopStream' | 'playback.streamToward' | 'playback.pictureTimes';

export function createPlaybackHandlers(
  o: PlaybackFacts & {
    clipFile: ClipFileCheck;
    streams: RangeStreams;
    /** Why main does not read this address under its rules now (remote/remote-url-policy.ts remoteUrlRefusal), or null. */
    addressRefusal: (url: string) => string | null;
  },
): Pick<Handlers, PlaybackMethods> {
  const sourceOf = (row: ClipRow, unreachableWhy: string | null) => playbackOf(o, row, unreachableWhy);
  // A clip added by URL, here or by another seat of the team (whose rules may have read what this one's refuse).
  const addressWhy = (fileName: string, url: string) => {
    const refused = o.addressRefusal(url);
    return refused && `${fileName} lives at ${url}, which this workstation does not read: ${refused}`;
  };
  const proxyVolumes = () => listVolumes(o.db).filter((v) => v.key !== URL_VOLUME_KEY && !isTeamShareKey(v.key));
  const space = () => {
    const free = freeBytes(o.cacheDir);
    const stopped = roomForProxy(free, 60) ? null : `New proxies wait for room: ${formatBytes(free)} free on the disk of ${o.cacheDir}, ${formatBytes(PROXY_RESERVE_BYTES)} and a proxy's size needed. Clips play as before meanwhile.`;
    return { ...proxyBytes(o.db), folder: proxyFolder(o.cacheDir), freeBytes: Number.isFinite(free) ? free : 0, stopped, volumes: proxyVolumes() };
  };
  const handlers: Pick<Handlers, PlaybackMethods> = {
    'playback.stopStream': async ({ clipId }) => {
      await o.streams.stop(clipId);
      return {};
    },
    'playback.streamToward': async ({ clipId, from, to, toward }) => {
      await o.streams.toward(clipId, { from, to }, toward);
      return {};
    },
    'playback.volumeProxies': ({ volumeId, policy }) => {
      if (!proxyVolumes().some((v) => v.id === volumeId) || !setVolumeProxyPolicy(o.db, volumeId, policy)) throw new AppError('not_found', `no drive ${volumeId} whose clips can have proxies`);
      o.volumeProxiesChanged?.();
      return space();
    },
    'playback.proxySpace': () => space(),
    // Read once from the container (the original, or its proxy while the original is away: the
    // proxy keeps a VFR clip's times exactly) and kept in the catalog for that content.
    'playback.pictureTimes': async ({ clipId }) => {
      const row = getClipRow(o.db, clipId);
      return { times: await clipPictureTimes(o, row, () => o.clipFile(clipId).catch(() => null)) };
    },
    'playback.get': async ({ clipId }) => {
      const row = getClipRow(o.db, clipId);
      let unreachableWhy: string | null = null;
      if (row.source_url === null) {
        await o.clipFile(clipId).catch((e: unknown) => {
          unreachableWhy = e instanceof AppError ? e.message : 'the original cannot be read';
        });
      } else unreachableWhy = addressWhy(row.file_name, row.source_url);
      return { ...sourceOf(row, unreachableWhy), teamShare: isTeamShareKey(row.volume_key) ? (row.volume_label ?? row.mount_path) : null };
    },
    // The Library's cards: the catalog's word on each drive and a look for the file (one stat a card
    // in view), not a read of every file; the viewer's own answer checks the file's content.
    'playback.sources': ({ clipIds }) => ({
      sources: clipIds.flatMap((clipId) => {
        const row = getClipRowOrNull(o.db, clipId);
        if (!row) return [];
        const away = row.source_url === null && (row.online !== 1 || row.missing_at !== null || !fs.existsSync(clipAbsPath(row)));
        const why = row.source_url !== null ? addressWhy(row.file_name, row.source_url) : away ? `${row.file_name} is not reachable (its drive or folder is away)` : null;
        const { source, offline, proxy } = sourceOf(row, why);
        return [{ clipId, source, offline, proxy }];
      }),
    }),
  };
  return handlers;
}

/**
 * A conformed (VFR) clip's presentation times (null for a clip counted at its own rate, or one
 * whose times cannot be read now): read once from the container (the original, or its proxy while
 * the original is away: the proxy keeps them exactly) and kept in the catalog for that content.
 */
async function clipPictureTimes(o: PlaybackFacts, row: ClipRow, original: () => Promise<string | null>): Promise<number[] | null> {
  if (row.source_url !== null || !countingOf(row.fps, row.vfr === 1).conformed) return null;
  const kept = pictureTimesOf(o.db, row.id, row.fingerprint);
  if (kept) return kept;
  const proxy = currentProxy(o.db, row.id, row.fingerprint);
  const file = (await original()) ?? (proxy && path.join(o.cacheDir, proxy.file));
  const times = file ? await readPictureTimes(file, { ffprobe: o.ffprobe?.() }) : null;
  if (times) recordPictureTimes(o.db, row.id, row.fingerprint, times);
  return times;
}

/**
 * What a preview stream is made from (proxies/range-streams.ts): the checked original of a clip
 * whose playback is a stream now (its proxy still to come); any other clip is refused, so the
 * media route never transcodes a clip that plays otherwise.
 */
export function createStreamSource(o: PlaybackFacts & { clipFile: ClipFileCheck }): (clipId: number) => Promise<StreamSource | AppError> {
  return async (clipId) => {
    const row = getClipRowOrNull(o.db, clipId);
    if (!row) return new AppError('not_found', `clip ${clipId} is not in the catalog`);
    let real: string;
    try {
      real = await o.clipFile(clipId);
    } catch (e) {
      return e instanceof AppError ? e : new AppError('io', 'the original cannot be read', { cause: e });
    }
    if (playbackOf(o, row, null).source !== 'stream') return new AppError('invalid', `clip ${clipId} does not play from a preview stream`);
    const { rate, conformed } = countingOf(row.fps, row.vfr === 1);
    const pictureTimes = await clipPictureTimes(o, row, async () => real);
    return { path: real, rate, frames: clipFrameCount({ frameCount: row.frame_count, durationS: row.duration_s, conformed }, rate), audio: row.audio_codec !== null, pictureTimes };
  };
}

/** Which file plays for a clip, given whether its original is reachable (null: it is) and why not. */
function playbackOf(o: PlaybackFacts, row: ClipRow, unreachableWhy: string | null) {
  const facts = { container: row.container, videoCodec: row.video_codec, pixFmt: row.pix_fmt, audioCodec: row.audio_codec };
  const remote = row.source_url !== null;
  const made = currentProxy(o.db, row.id, row.fingerprint);
  // On disk as written: one deleted or cut since does not count (the viewer would show black).
  const proxy = made && fs.statSync(path.join(o.cacheDir, made.file), { throwIfNoEntry: false })?.size === made.bytes ? made : null;
  const detachable = isDetachableMount(row.mount_path, o.platform ?? process.platform);
  return playbackSource({
    native: nativePlayback(facts),
    reachable: unreachableWhy === null,
    unreachableWhy,
    remote,
    probed: row.probed_at !== null,
    proxyFrames: proxy?.frames ?? null,
    // A team clip listed offline has no file here to make one from until it is relinked.
    proxyPending: !remote && !proxy && row.status !== 'error' && !isTeamShareKey(row.volume_key) && wantsProxy(volumeProxyPolicy(o.proxyPolicy(), row.volume_proxy_policy), facts, detachable),
  });
}

function getClipRowOrNull(db: CatalogDb, clipId: number): ClipRow | null {
  try {
    return getClipRow(db, clipId);
  } catch {
    return null;
  }
}

/** Where proxies are written, for Settings' figure of the space they take. */
export const proxyFolder = (cacheDir: string) => path.join(cacheDir, 'proxies');
