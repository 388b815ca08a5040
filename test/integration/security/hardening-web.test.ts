import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import { createLogger } from '../../../src-main/core/util/logger';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startWebServer } from '../../../src-main/web/web-server';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * Holes 7 and 8 of the hardening audit, over real HTTP: symlinks in served folders, malformed
 * method names, oversized bodies, the token in query strings, slow and piling-up connections.
 */
describe('web transport hardening', () => {
  let app: WebApp;
  let tmp: { dir: string; cleanup: () => void };
  let renderer: string;
  let origin: string;
  const token = () => ({ 'x-reelscout-token': app.server.token });

  beforeAll(async () => {
    tmp = tempDir('rs-hardening-web-');
    // A copy of the built renderer, so a symlink can be planted in it.
    renderer = path.join(tmp.dir, 'renderer');
    fs.cpSync(path.join(REPO_ROOT, 'out', 'renderer'), renderer, { recursive: true });
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    origin = app.server.url;
  });
  afterAll(async () => {
    await app?.close();
    tmp.cleanup();
  });

  it('refuses a symlink placed in the renderer folder or the thumbnail cache', async () => {
    fs.symlinkSync('/etc/passwd', path.join(renderer, 'passwd.txt'));
    const viaRenderer = await fetch(`${origin}/passwd.txt`, { headers: token() });
    expect(viaRenderer.status).toBe(404);
    expect(await viaRenderer.text()).not.toMatch(/root:/);
    const thumbs = app.core.paths.thumbsDir;
    fs.mkdirSync(thumbs, { recursive: true });
    fs.symlinkSync('/etc', path.join(thumbs, 'etc'));
    const viaThumbs = await fetch(`${origin}/media/thumb/etc/passwd`, { headers: token() });
    expect(viaThumbs.status).toBe(404);
    // A real file in the same folders is still served.
    fs.writeFileSync(path.join(thumbs, 'ok.jpg'), 'jpeg');
    expect((await fetch(`${origin}/media/thumb/ok.jpg`, { headers: token() })).status).toBe(200);
    expect((await fetch(`${origin}/`, { headers: token() })).status).toBe(200);
  });

  it('answers a malformed method name with 400 and a JSON error, not 500 and nothing', async () => {
    const r = await fetch(`${origin}/rpc/%E0%A4%A`, { method: 'POST', headers: token(), body: '{}' });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ ok: false, error: { kind: 'invalid', message: 'malformed method name' } });
  });

  it('answers a 5 MiB body with 413, not a reset connection', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024) });
    const r = await fetch(`${origin}/rpc/settings.get`, { method: 'POST', headers: { ...token(), 'content-type': 'application/json' }, body });
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ ok: false, error: { kind: 'too_large' } });
    // Streamed without a length: read to the end, then refused the same way.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${origin}/rpc/settings.get`, { method: 'POST', headers: { ...token(), 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1024 * 1024, 32));
      req.end();
    });
    expect(chunked).toBe(413);
  });

  it('takes the token in a query string only on the printed URL, never on RPC or the event socket', async () => {
    const t = app.server.token;
    expect((await fetch(`${origin}/rpc/settings.get?token=${t}`, { method: 'POST', body: '{}' })).status).toBe(401);
    const ws = await new Promise<number | 'open'>((resolve) => {
      const s = new WebSocket(`${origin.replace('http', 'ws')}/events?token=${t}`);
      s.on('open', () => (s.close(), resolve('open')));
      s.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      s.on('error', () => resolve(0));
    });
    expect(ws).toBe(401);
    const page = await fetch(`${origin}/?token=${t}`, { redirect: 'manual' });
    expect(page.status).toBe(302);
  });

  it('rejects NUL, lone surrogates and over-long strings in settings, and relative import paths', async () => {
    const call = (m: string, a: unknown) => app.core.dispatch(m, a, { transport: 'test' });
    for (const bad of ['x\u0000y', 'abc\ud800', 'a'.repeat(1_000_000)]) {
      const r = await call('settings.update', { base64VideoField: bad });
      expect(r.ok, JSON.stringify(bad).slice(0, 20)).toBe(false);
      const k = await call('settings.setApiKey', { key: `k${bad}k-long-enough` });
      expect(k.ok).toBe(false);
    }
    const rel = await call('library.import', { paths: ['footage/day1'] });
    expect(rel).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect((rel as { error: { message: string } }).error.message).toMatch(/is not a full path: start it with \/ \(or ~\/ for your home folder\)/);
  });
});

describe('web server limits', () => {
  it('closes a client that never finishes its headers, and caps open connections', async () => {
    const logger = createLogger({ file: path.join(tempDir('rs-limits-').dir, 'log') });
    const server = await startWebServer({
      dispatch: async () => ({ ok: true, value: {} }),
      events: new EventBus(),
      resolveMedia: async () => null,
      rendererDir: path.join(REPO_ROOT, 'out', 'renderer'),
      logger,
      limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000, maxConnections: 3 },
    });
    try {
      const slow = net.connect(server.port, '127.0.0.1');
      slow.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const closed = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), 5000);
        slow.on('close', () => (clearTimeout(t), resolve(true)));
        slow.on('data', () => undefined);
        slow.on('error', () => undefined);
      });
      expect(closed).toBe(true);

      const open = await Promise.all(
        Array.from({ length: 3 }, () => new Promise<net.Socket>((resolve) => {
          const s = net.connect(server.port, '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
        })),
      );
      const extra = net.connect(server.port, '127.0.0.1');
      extra.on('error', () => undefined);
      const dropped = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), 3000);
        extra.on('close', () => (clearTimeout(t), resolve(true)));
      });
      expect(dropped).toBe(true);
      for (const s of open) s.destroy();
    } finally {
      await server.close();
    }
  });
});
