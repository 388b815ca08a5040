import { AppError } from '../../../../src-shared/errors';
import { resolveConfig, type ResolvedServiceConfig, type ServiceConfig } from '../config';
import { errorFromNetwork, errorFromResponse } from './http-errors';
import { sharedKeyState, type KeyState } from '../key-state';
import { resolveBaseUrl } from '../regions';
import { EMULATOR_HEADER, saysEmulator } from '../service-identity';
import { withRetry, type RetryInfo, type RetryOptions } from './retry';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Each failed attempt that will be tried again (the UI shows a slow service). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RequestPolicy {
  /** Overrides of the client's retry policy for this call (a call that is not idempotent sends once). */
  retry?: Partial<RetryOptions>;
}

export interface RequestSpec extends CallOptions, RequestPolicy {
  method: 'GET' | 'POST';
  /** Relative to the base URL (already encoded), or an absolute URL on the same origin. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** Short name for messages: "encode_text". */
  what: string;
  /** Billable calls stop while the key is over quota; status reads go on. */
  billable: boolean;
  /** False for sync calls with an async counterpart: their 504 goes back to the caller. */
  retryTimeout: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/**
 * One service endpoint set for one key: auth header, shared limiter and stop states, deadlines,
 * status-to-kind mapping and retries. Endpoint functions build on request().
 */
export class ServiceTransport {
  readonly config: ResolvedServiceConfig;
  readonly baseUrl: string;
  readonly keyState: KeyState;

  constructor(config: ServiceConfig) {
    this.config = resolveConfig(config);
    this.baseUrl = resolveBaseUrl(this.config.region, this.config.baseUrls);
    this.keyState = sharedKeyState(this.baseUrl, this.config.apiKey, {
      qps: this.config.qps,
      concurrency: this.config.concurrency,
      adaptive: this.config.adaptive,
    });
  }

  /** Exactly one auth header, never both. */
  authHeaders(): Record<string, string> {
    return this.config.authHeader === 'bearer' ? { Authorization: `Bearer ${this.config.apiKey}` } : { 'X-API-Key': this.config.apiKey };
  }

  url(pathOrUrl: string, query?: Record<string, string>): URL {
    const base = new URL(`${this.baseUrl}/`);
    const u = /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl) : new URL(pathOrUrl.replace(/^\/+/, ''), base);
    if (u.origin !== base.origin) throw new AppError('invalid', `refusing to send the API key to another origin: ${u.origin}`);
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u;
  }

  private checkGates(billable: boolean, what: string): void {
    if (this.keyState.authRejected) throw new AppError('auth', `${what}: the API key was rejected; enter a valid key`, { status: 401 });
    if (billable && this.keyState.quotaBlocked) throw new AppError('quota', `${what}: quota exceeded; submissions are paused until resumed`, { status: 402 });
  }

  /** Applies what a failed status means for every caller of this key. */
  noteFailure(e: AppError): void {
    if (e.kind === 'auth' && e.status === 401) this.keyState.authRejected = true;
    if (e.kind === 'quota') this.keyState.quotaBlocked = true;
    if (e.kind === 'rate_limit') this.keyState.rateLimited(e.retryAfterMs);
  }

  /**
   * Runs an exchange under the limiter with retries. `exchange` does the I/O and returns the raw
   * status and body; everything else is shared with the JSON path and the multipart upload.
   */
  async run<T>(
    what: string,
    opts: { billable: boolean; retryTimeout: boolean; signal?: AbortSignal; timeoutMs?: number; bypassQuotaGate?: boolean; onRetry?: (info: RetryInfo) => void } & RequestPolicy,
    exchange: (signal: AbortSignal) => Promise<{ status: number; headers: Headers | Record<string, string | string[] | undefined>; bodyText: string }>,
    onOk: (bodyText: string) => T,
  ): Promise<T> {
    return withRetry(
      async (_attempt, remainingMs) => {
        this.checkGates(opts.billable && !opts.bypassQuotaGate, what);
        const release = await this.keyState.limiter.acquire(opts.signal, this.config.priority);
        // One controller for the caller's signal and our deadline; listeners are removed after
        // each exchange, so a long-lived caller signal does not collect one per request.
        const ac = new AbortController();
        let deadlineHit = false;
        // Within a retry deadline, no attempt runs past it.
        const timeoutMs = Math.min(opts.timeoutMs ?? this.config.timeoutMs, remainingMs ?? Infinity);
        const timer = setTimeout(() => {
          deadlineHit = true;
          ac.abort();
        }, timeoutMs);
        const onUserAbort = () => ac.abort();
        opts.signal?.addEventListener('abort', onUserAbort, { once: true });
        if (opts.signal?.aborted) ac.abort();
        let res: Awaited<ReturnType<typeof exchange>>;
        try {
          res = await exchange(ac.signal);
        } catch (e) {
          const err = errorFromNetwork(e, what, { userSignal: opts.signal, deadlineHit });
          if (err.kind !== 'cancelled') this.keyState.noteHealth({ type: 'failed', at: Date.now(), error: err.toJSON() });
          throw err;
        } finally {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onUserAbort);
          release();
        }
        // Every answer, a refusal too, says who gave it (the emulator names itself; a service does not).
        const emulator = saysEmulator(header(res.headers, EMULATOR_HEADER));
        if (res.status < 200 || res.status >= 300) {
          const err = errorFromResponse(res.status, res.bodyText, header(res.headers, 'retry-after'), what);
          this.noteFailure(err);
          this.keyState.noteHealth({ type: 'failed', at: Date.now(), error: err.toJSON(), emulator });
          throw err;
        }
        this.keyState.noteHealth({ type: 'succeeded', at: Date.now(), emulator });
        if (opts.bypassQuotaGate) this.keyState.quotaBlocked = false;
        return onOk(res.bodyText);
      },
      opts.retry ? { ...this.config.retry, ...opts.retry } : this.config.retry,
      { signal: opts.signal, retryTimeout: opts.retryTimeout, onRetry: opts.onRetry },
    );
  }

  /**
   * fetch with redirects followed by hand: fetch's own following drops Authorization on a
   * cross-origin hop but keeps X-API-Key, so a 307 to another origin would hand it the key. A
   * redirect is followed only within the base URL's origin, and only where it keeps the request
   * as sent (307/308, or any redirect of a GET); anything else is refused before a byte goes there.
   */
  private async fetchSameOrigin(url: URL, init: RequestInit & { method: string }, what: string): Promise<Response> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const r = await fetch(current, { ...init, redirect: 'manual' });
      const location = REDIRECTS.has(r.status) ? r.headers.get('location') : null;
      if (location === null) return r;
      await r.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new AppError('invalid', `${what}: the service redirected to an unreadable address`, { status: r.status });
      }
      if (next.origin !== current.origin) {
        throw new AppError('invalid', `${what}: the service redirected to another origin (${next.origin}); the API key is sent only to ${current.origin}`, { status: r.status });
      }
      if (init.method !== 'GET' && r.status !== 307 && r.status !== 308) {
        throw new AppError('invalid', `${what}: the service answered ${r.status} (a redirect that would turn this ${init.method} into a GET)`, { status: r.status });
      }
      if (hop >= MAX_REDIRECTS) throw new AppError('invalid', `${what}: more than ${MAX_REDIRECTS} redirects`, { status: r.status });
      current = next;
    }
  }

  /** A JSON request; resolves to the parsed body (an empty body reads as {}). */
  request(spec: RequestSpec & { bypassQuotaGate?: boolean }): Promise<unknown> {
    const url = this.url(spec.path, spec.query);
    const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.authHeaders() };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // A GET changes nothing on the service, so it may be asked again under the client's read policy.
    const retry = spec.method === 'GET' ? { ...this.config.readRetry, ...spec.retry } : spec.retry;
    return this.run(
      spec.what,
      { ...spec, retry },
      async (signal) => {
        const r = await this.fetchSameOrigin(url, { method: spec.method, headers, body, signal }, spec.what);
        const bodyText = await r.text();
        return { status: r.status, headers: r.headers, bodyText };
      },
      (text) => parseJsonBody(text, spec.what),
    );
  }
}

export function parseJsonBody(text: string, what: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid', `${what}: service answered with something that is not JSON: ${text.slice(0, 200)}`);
  }
}
