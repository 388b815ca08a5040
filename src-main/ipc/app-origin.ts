/**
 * Which URLs are the app's own renderer. Kept free of Electron so it is tested in plain Node.
 * The packaged renderer is served from a custom protocol, app://reelscout/, so trust is an exact
 * origin match: no file:// page (any file on disk is one) and no look-alike host is ever the app.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'reelscout';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    // Custom schemes have an opaque origin ("null") in WHATWG URL: compose it ourselves.
    return u.protocol === `${APP_SCHEME}:` ? `${APP_SCHEME}://${u.host}` : u.origin;
  } catch {
    return null;
  }
}

/** devServer: electron-vite's renderer URL in development (ELECTRON_RENDERER_URL), never packaged. */
export function isAppUrl(url: string, devServer?: string): boolean {
  const o = originOf(url);
  if (o === null) return false;
  if (o === APP_ORIGIN) return true;
  if (!devServer) return false;
  const dev = originOf(devServer);
  // The dev server's own origin, and its HMR socket on the same host and port.
  return dev !== null && (o === dev || o === dev.replace(/^http/, 'ws'));
}

/** The renderer file a request for app://reelscout/<path> asks for ("/" is index.html). */
export function appRequestPath(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
    const p = decodeURIComponent(u.pathname);
    return p === '/' || p === '' ? 'index.html' : p.replace(/^\/+/, '');
  } catch {
    return null;
  }
}
