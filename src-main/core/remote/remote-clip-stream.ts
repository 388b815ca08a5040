import type { CatalogDb } from '../catalog/open-catalog';
import { pathOf } from '../library/clip-store';
import { openRemote, type RemoteResponse } from './remote-fetch';
import type { RemoteAccess } from './remote-input';

/**
 * Longest answer to one of the viewer's range requests. The player asks for `bytes=N-` (the rest
 * of the file) and drops the connection when it seeks; whatever main had read ahead is then
 * wasted. A shorter answer (206 with the real total) is valid HTTP, and the player asks for the
 * next part when it needs it.
 */
export const VIEWER_CHUNK_BYTES = 2 * 1024 * 1024;

/** `bytes=N-` or `bytes=N-M` held to VIEWER_CHUNK_BYTES; anything else (a suffix range, none) as it is. */
export function boundedRange(range: string | undefined, chunk = VIEWER_CHUNK_BYTES): string | undefined {
  const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
  if (!m) return range;
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), start + chunk - 1) : start + chunk - 1;
  return `bytes=${start}-${end}`;
}

/** A type the player can use when the server says something generic (a bucket's application/octet-stream). */
function mediaType(served: string | undefined, container: string | null): string {
  if (served && /^(video|audio)\//i.test(served)) return served;
  if (container?.includes('mp4') || container?.includes('mov')) return 'video/mp4';
  if (container?.includes('webm') || container?.includes('matroska')) return 'video/webm';
  return served ?? 'application/octet-stream';
}

export type RemoteClipStream = (clipId: number, range: string | undefined, signal: AbortSignal) => Promise<RemoteResponse | null>;

/**
 * The viewer's playback of a clip that lives at an address, streamed through main (the web
 * transport's /media/clip/N, Electron's rs-media://clip/N): the renderer never talks to the
 * address (its CSP stays 'self', Electron's "no remote content" holds), and main reads it with
 * the same rules as every other read (address policy, redirects by hand, timeouts). Null for a
 * clip that does not live at an address.
 */
export function createRemoteClipStream(db: CatalogDb, access: () => RemoteAccess): RemoteClipStream {
  return async (clipId, range, signal) => {
    const clip = pathOf(db, clipId);
    if (!clip?.sourceUrl) return null;
    const a = access();
    const r = await openRemote(clip.sourceUrl, { policy: a.policy, timeouts: a.timeouts, range: boundedRange(range), signal });
    return { ...r, headers: { ...r.headers, 'content-type': mediaType(r.headers['content-type'], clip.container) } };
  };
}
