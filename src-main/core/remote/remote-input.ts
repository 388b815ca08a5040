import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { ADD_BY_URL_LIMIT_MS } from '../../../src-shared/contract/service-actions';
import { AppError, toAppError } from '../../../src-shared/errors';
import { RemoteBlocks } from './remote-blocks';
import { openRemote, type RemoteTimeouts } from './remote-fetch';
import { spoolRemote, type Spooled, type SpoolOptions } from './remote-spool';
import type { RemoteUrlPolicy } from './remote-url-policy';

/** What ffmpeg or ffprobe opens: a path (or URL) and the input options that go before its -i. */
export interface MediaInput {
  path: string;
  args: readonly string[];
}

/**
 * Demuxers a remote clip may be read with: video files. Playlists (hls, dash), concat lists and
 * image sequences are left out, so ffmpeg never opens an address a playlist names.
 */
export const REMOTE_FORMATS = ['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'mxf', 'flv', 'asf', 'ogg', 'dv', 'yuv4mpegpipe'];

/**
 * Input options for a read through the relay: ffmpeg may speak http (and tcp under it) and
 * nothing else, so no file://, no other protocol, and with the demuxer list no playlist. The
 * relay answers an open-ended range with a part of it (see serveBlocks); ffmpeg 5 reads a short
 * 206 as a broken stream unless told to reconnect, which it then does at once, at its offset
 * (a delay of 0: the relay is on this machine, and a second failure in a row is final).
 */
export const RELAY_INPUT_ARGS: readonly string[] = [
  '-reconnect', '1', '-reconnect_delay_max', '0',
  '-protocol_whitelist', 'http,tcp',
  '-format_whitelist', REMOTE_FORMATS.join(','),
];

/** Deadlines of the bounded jobs on a remote clip, whole jobs (connection and idle timeouts apply inside them). */
export interface RemoteDeadlines {
  probeMs: number;
  stillsMs: number;
  rangeMs: number;
  /** The whole of one Add by URL: its reads and its wait on the service. */
  addMs: number;
}

export const DEFAULT_REMOTE_DEADLINES: RemoteDeadlines = { probeMs: 60_000, stillsMs: 120_000, rangeMs: 300_000, addMs: ADD_BY_URL_LIMIT_MS };

/** Everything main needs to read a remote address: the policy, and the timeouts (tests shorten them). */
export interface RemoteAccess {
  policy: RemoteUrlPolicy;
  /** Where the file of a server without range requests is copied to be read (remote-spool.ts). */
  spool: SpoolOptions;
  timeouts?: Partial<RemoteTimeouts>;
  deadlines?: Partial<RemoteDeadlines>;
}

export interface RemoteRun<V> {
  value: V;
  /** Bytes received from the address. */
  bytesRead: number;
}

const PLAYLIST_START = /^\s*(#EXTM3U|<\?xml[^>]*>\s*<MPD|<MPD)/;

/** The tool took what was written, or went away. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Whatever a tool asks for, the relay answers with these: a range, or the whole file. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!m || (!m[1] && !m[2])) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/**
 * Runs ffmpeg or ffprobe on a remote clip without letting it near the network: main's reader
 * (openRemote: the address policy, redirects by hand, timeouts) fetches the bytes, and a relay on
 * 127.0.0.1 with an unguessable path serves them to the tool, which gets RELAY_INPUT_ARGS. A server
 * that takes range requests is read in blocks (remote-blocks.ts), so seeks read only what they
 * need; one that does not is passed through as it sends, or, for a tool that seeks, copied whole
 * into the spool folder first and served from there (ffmpeg cannot seek in a stream). The relay serves that one address and
 * closes with the run, after `deadlineMs` at the latest. When the run fails, the reader's own
 * reason wins over the tool's (it knows "refused", "timed out" or "not found"; ffprobe sees a 502).
 */
export async function withRemoteInput<V>(
  url: string,
  access: RemoteAccess,
  o: {
    signal?: AbortSignal;
    deadlineMs: number;
    /** The tool seeks (stills, a range cut): a server without range requests is copied whole first (access.spool), not passed through. */
    seeks?: boolean;
  },
  run: (input: MediaInput, signal: AbortSignal) => Promise<V>,
): Promise<RemoteRun<V>> {
  let deadlineHit = false;
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    deadlineHit = true;
    deadline.abort();
  }, o.deadlineMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline.signal]) : deadline.signal;
  // Every block and pass-through request of the run listens to it.
  setMaxListeners(0, signal);
  const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 8 }), https: new https.Agent({ keepAlive: true, maxSockets: 8 }) };
  const read = { policy: access.policy, timeouts: access.timeouts, signal, agents };
  let readerError: AppError | null = null;
  const refuse = (e: AppError) => {
    readerError ??= e;
    deadline.abort();
  };
  const checkHead = (head: Buffer) => {
    if (PLAYLIST_START.test(head.subarray(0, 256).toString('latin1'))) {
      refuse(new AppError('invalid', 'this address is a streaming playlist (HLS or DASH), not a video file: give the address of the file itself'));
    }
  };
  const blocks = new RemoteBlocks(url, read, { onFirstBytes: checkHead });
  let passedBytes = 0;

  const serveBlocks = async (req: http.IncomingMessage, res: http.ServerResponse, size: number) => {
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    // At most the rest of this block and the next: the tool drops its connection to seek, and what
    // sat in socket buffers for it would have been read for nothing. It asks again for more.
    const B = blocks.blockSize;
    const start = range ? range.start : 0;
    const end = range ? Math.min(range.end, (Math.floor(start / B) + 2) * B - 1) : size - 1;
    const head = { 'content-type': blocks.contentType ?? 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': String(end - start + 1) };
    res.writeHead(range ? 206 : 200, range ? { ...head, 'content-range': `bytes ${start}-${end}/${size}` } : head);
    if (req.method === 'HEAD') return void res.end();
    for (let i = Math.floor(start / B); i <= Math.floor(end / B) && !res.destroyed; i++) {
      const data = await blocks.block(i);
      const from = Math.max(start - i * B, 0);
      const to = Math.min(end - i * B + 1, data.length);
      if (from >= to) break;
      // Backpressure: the next block is fetched only once the tool has taken this one.
      if (!res.write(data.subarray(from, to))) await drained(res);
    }
    res.end();
  };

  const passThrough = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    // A connection of its own: a streamed body holds it as long as the tool reads, and must not keep a block fetch waiting for a kept-alive one.
    const r = await openRemote(url, { ...read, agents: undefined, method: req.method as 'GET' | 'HEAD', range: req.headers.range });
    res.writeHead(r.status, r.headers);
    let first = passedBytes === 0;
    r.body.on('data', (c: Buffer) => {
      if (first) checkHead(c);
      first = false;
      passedBytes += c.length;
    });
    await pipeline(r.body, res).catch(() => undefined);
  };

  // A server without ranges, for a tool that seeks: its file once into the spool folder, served from there with ranges.
  const spool: { copy: Promise<Spooled> | null } = { copy: null };
  let spooledBytes = 0;
  const serveSpooled = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    spool.copy ??= spoolRemote(url, { policy: read.policy, timeouts: read.timeouts, signal }, {
      ...access.spool,
      onBytes: (c) => {
        if (spooledBytes === 0) checkHead(c);
        spooledBytes += c.length;
      },
    });
    const s = await spool.copy;
    const range = parseRange(req.headers.range, s.size);
    if (range === 'unsatisfiable') return void res.writeHead(416, { 'content-range': `bytes */${s.size}` }).end();
    const start = range?.start ?? 0;
    const end = range?.end ?? s.size - 1;
    const head = { 'content-type': s.contentType ?? 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': String(end - start + 1) };
    res.writeHead(range ? 206 : 200, range ? { ...head, 'content-range': `bytes ${start}-${end}/${s.size}` } : head);
    if (req.method === 'HEAD' || s.size === 0) return void res.end();
    await pipeline(fs.createReadStream(s.file, { start, end }), res).catch(() => undefined);
  };

  /** The first block: whether the server takes ranges, and the playlist check. */
  const firstBlock = async (): Promise<void> => {
    if (blocks.rangeable === false) return;
    try {
      await blocks.block(0);
    } catch (e) {
      if (!(e instanceof AppError && e.status === 200)) throw e;
    }
    if (readerError) throw readerError;
  };

  const token = randomBytes(16).toString('hex');
  const name = path.posix.basename(new URL(url).pathname).replace(/[^A-Za-z0-9._-]/g, '_') || 'media';
  const route = `/${token}/${name}`;
  const server = http.createServer((req, res) => {
    if (req.url !== route || (req.method !== 'GET' && req.method !== 'HEAD')) return void res.writeHead(404).end();
    void (async () => {
      try {
        await firstBlock();
        if (blocks.rangeable && blocks.size !== null) await serveBlocks(req, res, blocks.size);
        else if (o.seeks) await serveSpooled(req, res);
        else await passThrough(req, res);
      } catch (e) {
        const err = toAppError(e, 'offline');
        if (err.kind !== 'cancelled') readerError ??= err;
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const input: MediaInput = { path: `http://127.0.0.1:${(server.address() as AddressInfo).port}${route}`, args: RELAY_INPUT_ARGS };
  try {
    const value = await run(input, signal);
    return { value, bytesRead: blocks.bytesRead + passedBytes + spooledBytes };
  } catch (e) {
    if (readerError) throw readerError;
    if (deadlineHit) throw new AppError('timeout', `${new URL(url).host} did not deliver within ${Math.round(o.deadlineMs / 1000)} s`, { cause: e });
    if (o.signal?.aborted) throw new AppError('cancelled', 'cancelled', { cause: e });
    throw e;
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    agents.http.destroy();
    agents.https.destroy();
    // The copy of a server without ranges lives as long as the run (an interrupted one deletes itself).
    await spool.copy?.then((sp) => fs.rmSync(sp.file, { force: true })).catch(() => undefined);
  }
}
