import { protocol } from 'electron';
import { Readable } from 'node:stream';
import { AppError, toAppError } from '../../src-shared/errors';
import type { RemoteClipStream } from '../core/remote/remote-clip-stream';
import { parseMediaPath } from '../../src-shared/media-ref';
import type { MediaResolver } from '../core/media-resolver';
import { answerFile } from '../core/util/file-answer';
import { APP_ORIGIN } from './app-origin';
import { APP_SCHEME_PRIVILEGES } from './app-protocol';

export const MEDIA_SCHEME = 'rs-media';

/** Must run before app 'ready', and once: the app's own scheme is registered in the same call. */
export function registerSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    APP_SCHEME_PRIVILEGES,
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

/**
 * rs-media://thumb/<path> and rs-media://clip/<id>: only cache files and catalogued clips, checked at
 * each request and streamed from the descriptor that was checked (not net.fetch of a file: URL,
 * which would open the path again); a clip added by URL is read by main (core/remote: the address
 * rules, redirects by hand, timeouts) with the player's range, so the renderer never loads remote
 * content.
 */
export function handleMediaProtocol(resolveMedia: MediaResolver, openRemoteClip: RemoteClipStream): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    const u = new URL(request.url);
    const ref = parseMediaPath(`${u.hostname}${u.pathname}`);
    const file = ref ? await resolveMedia(ref) : null;
    let res: Response;
    if (file) {
      // The body's stream closes the descriptor when read to its end or cancelled (the player left).
      const answer = await answerFile(file, file.contentType, request.headers.get('range'), request.method);
      res = new Response(answer.body ? (Readable.toWeb(answer.body) as ReadableStream) : null, { status: answer.status, headers: answer.headers });
    } else {
      const remote = ref?.kind === 'clip' ? await openRemoteClip(ref.clipId, request.headers.get('range') ?? undefined, request.signal).catch((e: unknown) => toAppError(e, 'offline')) : null;
      if (!remote) return new Response('not found', { status: 404 });
      if (remote instanceof AppError) return new Response(remote.message, { status: remote.kind === 'not_found' ? 404 : 502 });
      res = new Response(Readable.toWeb(remote.body) as ReadableStream, { status: remote.status, headers: remote.headers });
    }
    // The viewer's level meter reads the sound through Web Audio, which hears silence from a
    // cross-origin element unless the media allows the app's origin (and only that origin).
    const headers = new Headers(res.headers);
    headers.set('Access-Control-Allow-Origin', APP_ORIGIN);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  });
}
