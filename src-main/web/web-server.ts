import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Dispatch } from '../core/rpc/dispatcher';
import type { EventBus } from '../core/rpc/event-bus';
import type { Logger } from '../core/util/logger';
import { parseMediaPath } from '../../src-shared/media-ref';
import type { MediaResolver } from '../core/media-resolver';
import { checkRequest, newToken, tokenCookie } from './web-auth';
import { sendOpened, sendUnder } from './static-files';
import { pipeline } from 'node:stream/promises';
import type { RemoteClipStream } from '../core/remote/remote-clip-stream';
import { toAppError } from '../../src-shared/errors';

export interface WebServerOptions {
  dispatch: Dispatch;
  events: EventBus;
  resolveMedia: MediaResolver;
  /** A clip added by URL, streamed through main with the player's range (null: not such a clip). */
  openRemoteClip?: RemoteClipStream;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  logger: Logger;
  port?: number;
  token?: string;
  /** Connection limits (tests shorten them). */
  limits?: Partial<typeof DEFAULT_LIMITS>;
}

/**
 * A local server still gets slow or stuck clients (a hung tab, a port scanner): headers must come
 * within 10 s and a whole request within 60 s, idle keep-alive sockets close after 5 s, and no more
 * than 64 connections are open at once.
 */
export const DEFAULT_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 64 };

export interface WebServer {
  url: string;
  /** The URL to open: carries the token once, then a cookie does. */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_RPC_BODY = 4 * 1024 * 1024;

/** Same CSP as the Electron window, plus our own origin for the event socket. */
export function webCsp(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Past this much a body is not even drained: the connection is dropped. */
const MAX_DRAIN = 64 * 1024 * 1024;

/**
 * The body, or null when it is over MAX_RPC_BODY. An oversized body is read to its end and thrown
 * away, so the client gets its 413 instead of a reset connection.
 */
function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_RPC_BODY) chunks.push(c);
      else if (size > MAX_DRAIN) req.destroy();
    });
    req.on('end', () => resolve(size > MAX_RPC_BODY ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendRpcError(res: http.ServerResponse, status: number, kind: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify({ ok: false, error: { kind, message } }));
}

/** A clip added by URL: main's read of the address with the player's range, passed on as it comes; the player's leaving ends it. */
async function streamRemoteClip(req: http.IncomingMessage, res: http.ServerResponse, open: RemoteClipStream, clipId: number, headers: Record<string, string>): Promise<void> {
  const ac = new AbortController();
  res.on('close', () => ac.abort());
  let r: Awaited<ReturnType<RemoteClipStream>>;
  try {
    r = await open(clipId, req.headers.range, ac.signal);
  } catch (e) {
    const err = toAppError(e, 'offline');
    res.writeHead(err.kind === 'not_found' ? 404 : 502, { 'content-type': 'text/plain', ...headers }).end(err.message);
    return;
  }
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(r.status, { ...r.headers, 'cache-control': 'no-cache', ...headers });
  if (req.method === 'HEAD') {
    r.body.destroy();
    res.end();
    return;
  }
  await pipeline(r.body, res).catch(() => undefined);
}

/**
 * The contract over localhost HTTP (POST /rpc/<method>) and a WebSocket (/events), serving the
 * built renderer. Binds 127.0.0.1 only: this is a test and headless transport, not a public server.
 */
export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const token = o.token ?? newToken();
  let port = 0;
  const sockets = new Set<WebSocket>();

  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often Node looks for connections past those timeouts (30 s by default).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
    },
    (req, res) => {
      void handle(req, res).catch((e: unknown) => {
        o.logger.error('web.request.failed', { message: (e as Error).message });
        if (!res.headersSent) res.writeHead(500).end();
      });
    },
  );
  server.maxConnections = limits.maxConnections;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const failure = checkRequest(req, token, port, { acceptQueryToken: req.method === 'GET' && (req.url ?? '').split('?')[0] === '/' });
    if (failure) {
      o.logger.warn('web.refused', { reason: failure, path: (req.url ?? '').split('?')[0] });
      res.writeHead(failure === 'token' ? 401 : 403, { 'content-type': 'text/plain' }).end(`refused: ${failure}`);
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const security = {
      'content-security-policy': webCsp(port),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
    };
    if (url.searchParams.has('token') && req.method === 'GET' && url.pathname === '/') {
      // Trade the token in the URL for this instance's cookie (replacing one a run before a restart
      // left), and drop it from the address bar and history.
      res.writeHead(302, {
        'set-cookie': `${tokenCookie(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        location: url.pathname,
        ...security,
      });
      res.end();
      return;
    }
    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice(5));
      } catch {
        req.resume();
        sendRpcError(res, 400, 'invalid', 'malformed method name', security);
        return;
      }
      if (Number(req.headers['content-length'] ?? 0) > MAX_RPC_BODY) {
        res.setHeader('connection', 'close');
        req.resume();
        sendRpcError(res, 413, 'too_large', `request body over ${MAX_RPC_BODY} bytes`, security);
        return;
      }
      let args: unknown = {};
      try {
        const body = await readBody(req);
        if (body === null) {
          sendRpcError(res, 413, 'too_large', `request body over ${MAX_RPC_BODY} bytes`, security);
          return;
        }
        args = body.length ? JSON.parse(body.toString('utf8')) : {};
      } catch {
        sendRpcError(res, 400, 'invalid', 'malformed request body', security);
        return;
      }
      const envelope = await o.dispatch(name, args, { transport: 'web' });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', ...security });
      res.end(JSON.stringify(envelope));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname.startsWith('/media/')) {
      const ref = parseMediaPath(url.pathname.slice('/media'.length));
      const file = ref ? await o.resolveMedia(ref) : null;
      if (file) return sendOpened(req, res, file, file.contentType, security);
      if (ref?.kind === 'clip' && o.openRemoteClip) return streamRemoteClip(req, res, o.openRemoteClip, ref.clipId, security);
      res.writeHead(404).end();
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    await sendUnder(req, res, o.rendererDir, rel === '/' ? 'index.html' : rel, security);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const failure = checkRequest(req, token, port);
    if (failure || new URL(req.url ?? '/', 'http://x').pathname !== '/events') {
      o.logger.warn('web.ws.refused', { reason: failure ?? 'path' });
      socket.end(`HTTP/1.1 ${failure === 'token' ? 401 : 403} Refused\r\nConnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => sockets.delete(ws));
    });
  });
  const unsubscribe = o.events.subscribe((event, payload) => {
    const msg = JSON.stringify({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(msg);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openUrl: `${url}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
