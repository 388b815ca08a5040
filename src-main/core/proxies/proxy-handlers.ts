import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { getClipRow, pathOf } from '../library/clip-store';
import type { ClipFileCheck } from '../library/clip-file';
import type { Handlers } from '../rpc/handlers';
import { openUnder, type OpenedFile } from '../util/open-verified';
import { nativePlayback } from './native-playback';
import { playbackSource } from './playback-source';
import { isDetachableMount, PROXY_RESERVE_BYTES, roomForProxy, wantsProxy, type ProxyPolicy } from './proxy-policy';
import { formatBytes, freeBytes } from '../util/disk-space';
import { proxyBytes, proxyOf, touchProxy } from './proxy-store';

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

export function createPlaybackHandlers(o: { db: CatalogDb; clipFile: ClipFileCheck; cacheDir: string; proxyPolicy: () => ProxyPolicy; platform?: NodeJS.Platform }): Pick<Handlers, 'playback.get' | 'playback.proxySpace'> {
  return {
    'playback.proxySpace': () => {
      const free = freeBytes(o.cacheDir);
      const stopped = roomForProxy(free, 60) ? null : `New proxies wait for room: ${formatBytes(free)} free on the disk of ${o.cacheDir}, ${formatBytes(PROXY_RESERVE_BYTES)} and a proxy's size needed. Clips play as before meanwhile.`;
      return { ...proxyBytes(o.db), folder: proxyFolder(o.cacheDir), freeBytes: Number.isFinite(free) ? free : 0, stopped };
    },
    'playback.get': async ({ clipId }) => {
      const row = getClipRow(o.db, clipId);
      const facts = { container: row.container, videoCodec: row.video_codec, pixFmt: row.pix_fmt, audioCodec: row.audio_codec };
      const remote = row.source_url !== null;
      let unreachableWhy: string | null = null;
      if (!remote) {
        await o.clipFile(clipId).catch((e: unknown) => {
          unreachableWhy = e instanceof AppError ? e.message : 'the original cannot be read';
        });
      }
      const made = currentProxy(o.db, clipId, row.fingerprint);
      // On disk as written: one deleted or cut since does not count (the viewer would show black).
      const proxy = made && fs.statSync(path.join(o.cacheDir, made.file), { throwIfNoEntry: false })?.size === made.bytes ? made : null;
      const detachable = isDetachableMount(row.mount_path, o.platform ?? process.platform);
      return playbackSource({
        native: nativePlayback(facts),
        reachable: unreachableWhy === null,
        unreachableWhy,
        remote,
        proxyFrames: proxy?.frames ?? null,
        proxyPending: !remote && !proxy && row.status !== 'error' && wantsProxy(o.proxyPolicy(), facts, detachable),
      });
    },
  };
}

/** Where proxies are written, for Settings' figure of the space they take. */
export const proxyFolder = (cacheDir: string) => path.join(cacheDir, 'proxies');
