import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { AppError } from '../../../../src-shared/errors';

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  /** 0..1 of the whole request body. */
  fraction: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.mpg': 'video/mpeg',
  '.mpeg': 'video/mpeg',
};

export function videoContentType(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** filename="..." must stay ASCII without quotes; the real name goes in filename* (RFC 6266). */
export function contentDisposition(field: string, filePath: string): string {
  const name = path.basename(filePath);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const star = /^[\x20-\x7e]*$/.test(name) && !/["\\]/.test(name) ? '' : `; filename*=UTF-8''${encodeURIComponent(name)}`;
  return `form-data; name="${field}"; filename="${ascii}"${star}`;
}

export interface MultipartExchangeOptions {
  url: URL;
  headers: Record<string, string>;
  field: string;
  filePath: string;
  signal: AbortSignal;
  /** Longest silence on the socket before the upload counts as timed out. */
  idleTimeoutMs: number;
  onProgress?: (p: UploadProgress) => void;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
}

/**
 * Streams one file as multipart/form-data from disk (never whole in memory), with an exact
 * Content-Length so servers that refuse chunked uploads take it, and progress from bytes the
 * socket accepted. A response that arrives before the body is done (413 while streaming) wins.
 */
export async function multipartExchange(o: MultipartExchangeOptions): Promise<RawResponse> {
  const stat = await fs.promises.stat(o.filePath).catch((e: unknown) => {
    throw new AppError('io', `cannot read ${o.filePath}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  });
  if (!stat.isFile()) throw new AppError('io', `not a file: ${o.filePath}`);
  const boundary = `----reelscout${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: ${contentDisposition(o.field, o.filePath)}\r\nContent-Type: ${videoContentType(o.filePath)}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const total = head.length + stat.size + tail.length;
  const lib = o.url.protocol === 'https:' ? https : http;

  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    let sent = 0;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    const req = lib.request(o.url, {
      method: 'POST',
      headers: {
        ...o.headers,
        Accept: 'application/json',
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(total),
      },
      signal: o.signal,
    });
    req.setTimeout(o.idleTimeoutMs, () => req.destroy(Object.assign(new Error('upload stalled'), { code: 'ETIMEDOUT' })));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, bodyText: Buffer.concat(chunks).toString('utf8') })),
      );
      res.on('error', (e) => finish(() => reject(e)));
    });
    req.on('error', (e) => finish(() => reject(e)));

    const report = (n: number) => {
      sent += n;
      o.onProgress?.({ sentBytes: sent, totalBytes: total, fraction: total ? sent / total : 1 });
    };
    async function* body(): AsyncGenerator<Buffer> {
      yield head;
      report(head.length);
      for await (const chunk of fs.createReadStream(o.filePath, { highWaterMark: 256 * 1024 })) {
        yield chunk as Buffer;
        report((chunk as Buffer).length);
      }
      yield tail;
      report(tail.length);
    }
    pipeline(Readable.from(body()), req).catch((e: unknown) => {
      // An early response (413) makes the server stop reading: the write error is not the answer.
      setTimeout(() => finish(() => reject(e)), 200);
    });
  });
}
