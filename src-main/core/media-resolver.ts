import type { MediaRef } from '../../src-shared/media-ref';
import { AppError } from '../../src-shared/errors';
import type { StreamWindow } from '../../src-shared/stream-window';
import type { ClipFileOpen } from './library/clip-file';
import { contentType } from './util/content-type';
import { openUnder, type OpenedFile } from './util/open-verified';

/** A media file open for serving: stream from `handle` (the verified descriptor) and close it. */
export interface ServedFile extends OpenedFile {
  contentType: string;
}

/** Null: nothing to serve from a file (refused, missing, or a clip that lives at a URL). */
export type MediaResolver = (ref: MediaRef) => Promise<ServedFile | null>;

type Openers = { [K in MediaRef['kind']]: (ref: Extract<MediaRef, { kind: K }>) => Promise<OpenedFile | AppError> };

/**
 * Only four kinds of file are ever served to the renderer: files in the thumbnail cache, viewing
 * proxies in the proxy cache (proxies/proxy-handlers.ts), preview streams of a clip still without
 * its proxy, written under the cache folder (proxies/range-streams.ts), and catalogued clips on a
 * drive, each opened once and checked on the open descriptor to still be
 * the file meant (util/open-verified.ts); a clip that lives at a URL is not a file: main streams
 * it, see remote/remote-clip-stream.ts. Anything else (a crafted path, a replaced file, a link
 * swapped in) resolves to null. Another kind of file is one more opener below.
 */
export function createMediaResolver(
  clipFile: ClipFileOpen,
  thumbsDir: string,
  proxyFile: (clipId: number) => Promise<OpenedFile | AppError>,
  streamFile: (clipId: number, window: StreamWindow) => Promise<OpenedFile | AppError>,
): MediaResolver {
  const openers: Openers = {
    thumb: (ref) => openUnder(thumbsDir, ref.path),
    clip: (ref) => clipFile(ref.clipId),
    proxy: (ref) => proxyFile(ref.clipId),
    stream: (ref) => streamFile(ref.clipId, { from: ref.from, to: ref.to }),
  };
  return async (ref) => {
    const file = await (openers[ref.kind] as (r: MediaRef) => Promise<OpenedFile | AppError>)(ref);
    return file instanceof AppError ? null : { ...file, contentType: contentType(file.real) };
  };
}
