import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * "A review link" for Add by URL tests: files served over HTTP on loopback, with byte ranges
 * (as CDNs and buckets answer) unless `ranges` is off, counting what it sent. Extra routes answer
 * with whatever a test needs (redirects, playlists, a server that never answers).
 */
export interface ReviewServer {
  url: string;
  port: number;
  /** Bytes of file bodies sent, per served path. */
  bytesSent: Map<string, number>;
  /** Every request seen: path and Range header. */
  requests: Array<{ path: string; range: string | undefined }>;
  close(): Promise<void>;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export async function startReviewServer(files: Record<string, string>, o: { ranges?: boolean; routes?: Route[] } = {}): Promise<ReviewServer> {
  const bytesSent = new Map<string, number>();
  const requests: ReviewServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    requests.push({ path: p, range: req.headers.range });
    for (const route of o.routes ?? []) if (route(req, res)) return;
    const file = files[p];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    const type = file.endsWith('.webm') ? 'video/webm' : 'video/mp4';
    const m = o.ranges === false ? null : /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
    if (m && (m[1] || m[2])) {
      start = m[1] ? Number(m[1]) : size - Number(m[2]);
      end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      if (start > end || start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { 'content-type': type, 'accept-ranges': 'bytes', 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` });
    } else {
      res.writeHead(200, { 'content-type': type, 'content-length': size, ...(o.ranges === false ? {} : { 'accept-ranges': 'bytes' }) });
    }
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file, { start, end });
    stream.on('data', (c) => bytesSent.set(p, (bytesSent.get(p) ?? 0) + c.length));
    stream.pipe(res);
    res.on('close', () => stream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    bytesSent,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
