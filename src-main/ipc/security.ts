import { app, session, shell, type WebContents } from 'electron';
import type { Logger } from '../core/util/logger';
import { isAppUrl } from './app-origin';

export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: rs-media:",
  "media-src 'self' blob: rs-media:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

const isApp = (url: string) => isAppUrl(url, process.env.ELECTRON_RENDERER_URL);

/** Applied once: deny everything the app does not need, for every window that will ever exist. */
export function hardenApp(logger: Logger): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => {
    logger.warn('security.permission.denied', { permission });
    callback(false);
  });
  session.defaultSession.setPermissionCheckHandler(() => false);
  // No remote content: only our files, the dev server and our media protocol.
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => {
    const u = details.url;
    const allowed = isApp(u) || u.startsWith('rs-media:') || u.startsWith('devtools:') || u.startsWith('data:') || u.startsWith('blob:');
    if (!allowed) logger.warn('security.request.blocked', { url: u.slice(0, 200) });
    callback({ cancel: !allowed });
  });
  app.on('web-contents-created', (_e, contents: WebContents) => {
    contents.setWindowOpenHandler(({ url }) => {
      logger.warn('security.window-open.denied', { url: url.slice(0, 200) });
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isApp(url)) {
        event.preventDefault();
        logger.warn('security.navigation.denied', { url: url.slice(0, 200) });
      }
    });
    contents.on('will-redirect', (event, url) => {
      if (!isApp(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  void shell; // external links are never opened implicitly
}
