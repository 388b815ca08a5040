import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_HEADER = 'x-reelscout-token';

/**
 * The session cookie of the instance on `port`. Browsers keep cookies per host, not per port, so
 * one name for every instance let the cookie of one (or of a run before a restart) stand in for
 * another's and be refused there: the port in the name keeps each instance's cookie its own.
 */
export function tokenCookie(port: number): string {
  return `rs_token_${port}`;
}

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export type AuthFailure = 'host' | 'origin' | 'token';

/**
 * Every request and socket must carry the per-run token (header, or this instance's cookie set on first load),
 * come to our own host name (no DNS rebinding) and, when a browser says where it comes from, from
 * our own origin (no cross-site requests from other local pages). The token in a query string is
 * taken only where the printed URL carries it (`GET /?token=`, traded at once for the cookie): query
 * strings end up in logs and histories.
 */
export function checkRequest(req: IncomingMessage, token: string, port: number, opts: { acceptQueryToken?: boolean } = {}): AuthFailure | null {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(req.headers.host ?? '')) return 'host';
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`)) return 'origin';
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  // A token in the printed URL is the one to check when it is there: a cookie the browser kept
  // from a run before a restart must not stand in front of the fresh one.
  const fromQuery = opts.acceptQueryToken ? url.searchParams.get('token') : null;
  const presented = fromQuery ?? (req.headers[TOKEN_HEADER] as string | undefined) ?? cookieValue(req.headers.cookie, tokenCookie(port)) ?? '';
  return safeEqual(presented, token) ? null : 'token';
}
