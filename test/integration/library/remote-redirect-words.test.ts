import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRemote } from '../../../src-main/core/remote/remote-fetch';
import { AppError } from '../../../src-shared/errors';

/**
 * Issue 41 item 6a: a redirect Add by URL refuses is named in plain words. A URL's origin is "null"
 * for every scheme but http(s), so a redirect to file:///etc/passwd was reported as "redirected to
 * null". A real HTTP server on loopback answers each path with a redirect.
 */
describe('a refused redirect', () => {
  let server: http.Server;
  let base = '';
  const targets: Record<string, string> = {
    '/passwd': 'file:///etc/passwd',
    '/data': `data:text/plain,${'x'.repeat(500)}`,
    '/ftp': 'ftp://example.com/clip.mp4',
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => res.writeHead(302, { location: targets[req.url ?? ''] ?? '/' }).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const refusal = async (p: string): Promise<AppError> => {
    const e = await openRemote(`${base}${p}`, { policy: { allowLoopback: true } }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('invalid');
    return e as AppError;
  };

  it('to a file says a file on this machine, and which', async () => {
    const e = await refusal('/passwd');
    expect(e.message).not.toMatch(/null/);
    expect(e.message).toMatch(/redirected to a file on this machine \(file:\/\/\/etc\/passwd\), which is refused/);
  });

  it('to another scheme names the address, a long one cut short', async () => {
    expect((await refusal('/ftp')).message).toMatch(/redirected to ftp:\/\/example\.com\/clip\.mp4, which is refused: ftp: addresses are not read/);
    const data = (await refusal('/data')).message;
    expect(data).toMatch(/redirected to data:text\/plain,x+…, which is refused/);
    expect(data.length).toBeLessThan(300);
  });
});
