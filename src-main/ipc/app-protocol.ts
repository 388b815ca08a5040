import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { resolveUnder } from '../core/util/resolve-under';
import { APP_SCHEME, appRequestPath } from './app-origin';

/** Must run before app 'ready' (with the media scheme: one call registers both). */
export const APP_SCHEME_PRIVILEGES = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } };

/** Serves the built renderer at app://reelscout/: only files under rendererDir, real paths checked. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    const rel = appRequestPath(request.url);
    const file = rel === null ? null : resolveUnder(rendererDir, rel);
    if (!file) return new Response('not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}

export function rendererDirOf(mainDir: string): string {
  return path.join(mainDir, '..', 'renderer');
}
