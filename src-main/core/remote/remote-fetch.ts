import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AppError } from '../../../src-shared/errors';
import { addressRefusal, checkRemoteUrl, type RemoteUrlPolicy } from './remote-url-policy';

/**
 * How long main waits on a remote address. Every read has the first three; a bounded job (a
 * probe, the stills, a range cut) adds its own total deadline on top (remote-input.ts).
 */
export interface RemoteTimeouts {
  /** TCP (and TLS) connection established. */
  connectMs: number;
  /** Longest silence on an open connection, waiting for headers or for the next bytes. */
  idleMs: number;
  /** From the first request to the final response's headers, redirects included. */
  headersMs: number;
}

export const DEFAULT_REMOTE_TIMEOUTS: RemoteTimeouts = { connectMs: 10_000, idleMs: 20_000, headersMs: 30_000 };

export const MAX_REMOTE_REDIRECTS = 5;

export interface OpenRemoteOptions {
  policy: RemoteUrlPolicy;
  timeouts?: Partial<RemoteTimeouts>;
  method?: 'GET' | 'HEAD';
  /** Passed on as is (the viewer's and ffmpeg's seeks). */
  range?: string;
  signal?: AbortSignal;
  /** Keep-alive agents of one reader (remote-blocks.ts); by default every request has a connection of its own. */
  agents?: { http: http.Agent; https: https.Agent };
}

export interface RemoteResponse {
  /** 200, 206 or 416. */
  status: number;
  /** The address that answered, after redirects. */
  url: string;
  /** The headers a reader of bytes needs (type, length, ranges, validators), lower-case. */
  headers: Record<string, string>;
  body: http.IncomingMessage;
}

const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Name resolution with every address checked against the policy: a name cannot lead to this machine or a private network. */
function checkedLookup(protocol: string, policy: RemoteUrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const allowed = list.filter((a) => addressRefusal(a.address, protocol, policy) === null);
      if (allowed.length === 0) {
        const why = list.length ? addressRefusal(list[0]!.address, protocol, policy) : 'no address';
        return callback(Object.assign(new AppError('invalid', `${hostname}: ${why}`), { code: 'EREFUSED_POLICY' }), '', 0);
      }
      if (options.all) return callback(null, allowed as never);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function statusError(status: number, url: URL): AppError {
  const where = `${url.host} answered ${status}`;
  if (status === 404 || status === 410) return new AppError('not_found', `${where}: nothing at this address`, { status });
  if (status === 401 || status === 403) return new AppError('invalid', `${where}: the address needs a login (use a link that opens without one)`, { status });
  if (status >= 500) return new AppError('upstream', `${where}: the server failed`, { status });
  return new AppError('invalid', `${where}`, { status });
}

/** One request, no redirect followed: the connection and idle timeouts, the caller's abort. */
function requestOnce(u: URL, o: OpenRemoteOptions, t: RemoteTimeouts, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = u.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { 'user-agent': 'Reelscout', accept: '*/*' };
    if (o.range) headers.range = o.range;
    // A connection of its own unless the reader brought keep-alive agents (they die with it):
    // no socket outlives its reader or is shared with another.
    const agent = o.agents ? (u.protocol === 'https:' ? o.agents.https : o.agents.http) : false;
    const req = lib.request(u, { method: o.method ?? 'GET', headers, agent, lookup: checkedLookup(u.protocol, o.policy), signal });
    let connectTimer: NodeJS.Timeout | null = null;
    const fail = (e: AppError) => req.destroy(e);
    req.on('socket', (socket) => {
      if (!socket.connecting) return; // a kept-alive connection
      connectTimer = setTimeout(() => fail(new AppError('timeout', `${u.host} did not accept a connection within ${Math.round(t.connectMs / 1000)} s`)), t.connectMs);
      socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', () => connectTimer && clearTimeout(connectTimer));
    });
    req.setTimeout(t.idleMs, () => fail(new AppError('timeout', `${u.host} sent nothing for ${Math.round(t.idleMs / 1000)} s`)));
    req.on('response', (res) => {
      if (connectTimer) clearTimeout(connectTimer);
      resolve(res);
    });
    req.on('error', (e) => {
      if (connectTimer) clearTimeout(connectTimer);
      reject(e);
    });
    req.end();
  });
}

function asAppError(e: unknown, u: URL, signal: AbortSignal, deadlineHit: boolean): AppError {
  if (deadlineHit) return new AppError('timeout', `${u.host} did not answer within the deadline`, { cause: e });
  if (signal.aborted) return new AppError('cancelled', 'cancelled', { cause: e });
  if (e instanceof AppError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  return new AppError('offline', `${u.host} could not be reached${code ? ` (${code})` : ''}`, { cause: e });
}

/**
 * Where a refused redirect pointed, in words: a web address by its origin, a file as one on this
 * machine, anything else whole. A
 * URL's origin is "null" for every scheme but http(s), which made a redirect to file:///etc/passwd
 * read "redirected to null".
 */
function redirectTarget(next: URL): string {
  if (next.protocol === 'http:' || next.protocol === 'https:') return next.origin;
  // A data: address can be as long as the server's headers: enough of it to recognise.
  const href = next.href.length > 120 ? `${next.href.slice(0, 120)}…` : next.href;
  if (next.protocol === 'file:') return `a file on this machine (${href})`;
  return href;
}

/**
 * Opens a remote address the way everything in main reads one: the address and every redirect
 * checked by the policy before a byte goes there (redirects followed by hand, at most five; the
 * loopback allowance covers the address's own origin only, never one a redirect names), every
 * resolved address checked at connection time (no DNS rebinding around the check), a connection
 * timeout, an idle timeout for as long as the body is read, and a deadline for the headers.
 * Resolves with the final response (200, 206, or 416 for a range past the end); any other status
 * is an AppError. The caller reads or destroys `body`.
 */
export async function openRemote(raw: string, o: OpenRemoteOptions): Promise<RemoteResponse> {
  const t = { ...DEFAULT_REMOTE_TIMEOUTS, ...o.timeouts };
  const first = checkRemoteUrl(raw, o.policy);
  // This computer is allowed for the address the user gave, never for one a server names.
  const policyFor = (x: URL) => (x.origin === first.origin ? o.policy : { ...o.policy, allowLoopback: false });
  let u = first;
  const ac = new AbortController();
  let deadlineHit = false;
  const deadline = setTimeout(() => {
    deadlineHit = true;
    ac.abort();
  }, t.headersMs);
  const onAbort = () => ac.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) ac.abort();
  try {
    for (let hop = 0; ; hop++) {
      let res: http.IncomingMessage;
      try {
        res = await requestOnce(u, { ...o, policy: policyFor(u) }, t, ac.signal);
      } catch (e) {
        throw asAppError(e, u, ac.signal, deadlineHit);
      }
      const status = res.statusCode ?? 0;
      const location = REDIRECTS.has(status) ? res.headers.location : undefined;
      if (location !== undefined) {
        res.destroy();
        if (hop >= MAX_REMOTE_REDIRECTS) throw new AppError('invalid', `more than ${MAX_REMOTE_REDIRECTS} redirects from ${u.host}`);
        let next: URL;
        try {
          next = new URL(location, u);
        } catch {
          throw new AppError('invalid', `${u.host} redirected to an unreadable address`);
        }
        try {
          u = checkRemoteUrl(next, policyFor(next));
        } catch (e) {
          throw new AppError('invalid', `${u.host} redirected to ${redirectTarget(next)}, which is refused: ${(e as AppError).message}`);
        }
        continue;
      }
      if (status !== 200 && status !== 206 && status !== 416) {
        res.destroy();
        throw statusError(status, u);
      }
      // The body's reader now owns the connection: the idle timeout stays, the headers deadline goes,
      // and the caller's abort still ends it.
      clearTimeout(deadline);
      res.once('close', () => o.signal?.removeEventListener('abort', onAbort));
      const headers: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const v = res.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      return { status, url: u.toString(), headers, body: res };
    }
  } catch (e) {
    clearTimeout(deadline);
    o.signal?.removeEventListener('abort', onAbort);
    throw e;
  }
}
