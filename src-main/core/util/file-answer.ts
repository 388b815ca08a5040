import type { Readable } from 'node:stream';
import type { OpenedFile } from './open-verified';

export interface FileAnswer {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  /** The bytes to send, read from the open descriptor (it closes the descriptor when done or destroyed); null: none, and the descriptor is closed already. */
  body: Readable | null;
}

/**
 * The answer to a GET or HEAD for an opened file, honouring a single byte Range so <video> can
 * seek; one for both transports (web server, Electron's protocol). The bytes come from the
 * descriptor that was verified, never from the path again.
 */
export async function answerFile(file: OpenedFile, type: string, range: string | null | undefined, method: string): Promise<FileAnswer> {
  const size = file.identity.size;
  const base = { 'content-type': type, 'accept-ranges': 'bytes', 'cache-control': 'no-cache' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(range ?? '');
  let status: 200 | 206 = 200;
  let start = 0;
  let end = size - 1;
  if (m && (m[1] || m[2])) {
    start = Math.max(0, m[1] ? Number(m[1]) : size - Number(m[2]));
    end = Math.min(m[1] && m[2] ? Number(m[2]) : size - 1, size - 1);
    if (start > end) {
      await file.handle.close();
      return { status: 416, headers: { 'content-range': `bytes */${size}` }, body: null };
    }
    status = 206;
  }
  const headers: Record<string, string> = { ...base, 'content-length': String(status === 206 ? end - start + 1 : size) };
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  if (method === 'HEAD' || size === 0) {
    await file.handle.close();
    return { status, headers, body: null };
  }
  return { status, headers, body: file.handle.createReadStream({ start, end, autoClose: true }) };
}
