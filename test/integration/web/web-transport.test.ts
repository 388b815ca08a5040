import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

function wsOutcome(url: string, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

describe('web transport security', () => {
  let app: WebApp;
  let tmp: { dir: string; cleanup: () => void };
  let origin: string;
  beforeAll(async () => {
    tmp = tempDir();
    app = await startWebApp({ dataDir: tmp.dir, rendererDir: path.join(REPO_ROOT, 'out', 'renderer') });
    origin = app.server.url;
  });
  afterAll(async () => {
    await app.close();
    tmp.cleanup();
  });

  const rpc = (headers: Record<string, string>, body = '{}') =>
    fetch(`${origin}/rpc/settings.get`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('binds to 127.0.0.1 only', () => {
    expect(app.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('accepts a request with the token', async () => {
    const res = await rpc({ 'x-reelscout-token': app.server.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean };
    expect(body.ok).toBe(true);
  });

  it('refuses a request without the token', async () => {
    expect((await rpc({})).status).toBe(401);
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/media/thumb/x.jpg`)).status).toBe(401);
  });

  it('refuses a wrong token, in the header, the cookie or the query', async () => {
    const wrong = app.server.token.slice(0, -2) + 'xx';
    expect((await rpc({ 'x-reelscout-token': wrong })).status).toBe(401);
    expect((await rpc({ cookie: `rs_token_${new URL(origin).port}=${wrong}` })).status).toBe(401);
    expect((await fetch(`${origin}/?token=${wrong}`)).status).toBe(401);
  });

  it("takes this instance's cookie only, and a fresh ?token= over a stale cookie", async () => {
    const port = new URL(origin).port;
    expect((await rpc({ cookie: `rs_token_${port}=${app.server.token}` })).status).toBe(200);
    // Another instance's cookie (the browser sends every port's cookies to every port) is not ours.
    expect((await rpc({ cookie: `rs_token_1=${app.server.token}` })).status).toBe(401);
    const stale = app.server.token.slice(0, -2) + 'xx';
    const res = await fetch(`${origin}/?token=${app.server.token}`, { headers: { cookie: `rs_token_${port}=${stale}` }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^rs_token_${port}=${app.server.token};`));
  });

  it('refuses a foreign Origin even with the right token', async () => {
    const res = await rpc({ 'x-reelscout-token': app.server.token, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    const local = await rpc({ 'x-reelscout-token': app.server.token, origin: 'http://127.0.0.1:1' });
    expect(local.status).toBe(403);
  });

  it('refuses a foreign Host (DNS rebinding)', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      const req = http.request(`${origin}/rpc/settings.get`, { method: 'POST', headers: { host: 'rebind.example:80', 'x-reelscout-token': app.server.token } }, (res) => resolve(res.statusCode ?? 0));
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('trades the token in the URL for an HttpOnly SameSite cookie', async () => {
    const res = await fetch(app.server.openUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(res.headers.get('location')).toBe('/');
    const page = await fetch(`${origin}/`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('refuses event sockets without the token, with a wrong one, or from a foreign Origin', async () => {
    const ws = origin.replace('http', 'ws') + '/events';
    expect(await wsOutcome(ws, { 'x-reelscout-token': app.server.token, origin })).toBe('open');
    expect(await wsOutcome(ws, { origin })).toBe(401);
    expect(await wsOutcome(ws, { 'x-reelscout-token': 'nope', origin })).toBe(401);
    expect(await wsOutcome(ws, { 'x-reelscout-token': app.server.token, origin: 'http://evil.example' })).toBe(403);
  });

  it('validates arguments and returns errors as values with a kind', async () => {
    const bad = await rpc({ 'x-reelscout-token': app.server.token }, '{"unexpected": 1}');
    expect(await bad.json()).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    const res = await fetch(`${origin}/rpc/settings.setApiKey`, {
      method: 'POST',
      headers: { 'x-reelscout-token': app.server.token },
      body: JSON.stringify({ key: 'short' }),
    });
    expect(await res.json()).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    const unknown = await fetch(`${origin}/rpc/no.such.method`, { method: 'POST', headers: { 'x-reelscout-token': app.server.token }, body: '{}' });
    expect(await unknown.json()).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    const malformed = await rpc({ 'x-reelscout-token': app.server.token }, '{not json');
    expect(malformed.status).toBe(400);
  });

  it('pushes events to an authorised socket', async () => {
    const ws = new WebSocket(origin.replace('http', 'ws') + '/events', { headers: { 'x-reelscout-token': app.server.token, origin } });
    await new Promise((r) => ws.on('open', r));
    const got = new Promise<{ event: string }>((r) => ws.on('message', (d) => r(JSON.parse(String(d)))));
    await fetch(`${origin}/rpc/settings.update`, { method: 'POST', headers: { 'x-reelscout-token': app.server.token }, body: JSON.stringify({ qps: 7 }) });
    expect((await got).event).toBe('settings.changed');
    ws.close();
  });

  it('serves no file outside the renderer folder', async () => {
    const res = await fetch(`${origin}/..%2f..%2fpackage.json`, { headers: { 'x-reelscout-token': app.server.token } });
    expect(res.status).toBe(404);
  });
});
