import type { MediaRef } from '../../src-shared/media-ref';
import type { ClipFileCheck } from './library/clip-file';
import { resolveUnder } from './util/resolve-under';

/**
 * Only three kinds of file are ever served to the renderer: files in the thumbnail cache, viewing
 * proxies in the proxy cache (proxies/proxy-handlers.ts) and catalogued clips on a drive, each checked at open time to still be the file catalogued (a clip
 * that lives at a URL is not a file: main streams it, see remote/remote-clip-stream.ts). Anything
 * else (a crafted path, a replaced file) resolves to null.
 */
export function createMediaResolver(clipFile: ClipFileCheck, thumbsDir: string, proxyFile: (clipId: number) => Promise<string | null>): (ref: MediaRef) => Promise<string | null> {
  return async (ref) => {
    if (ref.kind === 'thumb') return resolveUnder(thumbsDir, ref.path);
    if (ref.kind === 'proxy') return proxyFile(ref.clipId).catch(() => null);
    return clipFile(ref.clipId).catch(() => null);
  };
}
