import { AppError, type ErrorKind } from '../../../../src-shared/errors';

/** The spec's error table, plus neighbours a gateway in front of the service may send. */
const STATUS_KINDS: Record<number, { kind: ErrorKind; meaning: string }> = {
  400: { kind: 'invalid', meaning: 'bad request parameters' },
  401: { kind: 'auth', meaning: 'invalid API key' },
  402: { kind: 'quota', meaning: 'quota exceeded' },
  403: { kind: 'auth', meaning: 'forbidden' },
  404: { kind: 'not_found', meaning: 'resource not found' },
  408: { kind: 'timeout', meaning: 'request timeout' },
  410: { kind: 'not_found', meaning: 'resource gone' },
  413: { kind: 'too_large', meaning: 'payload too large' },
  422: { kind: 'invalid', meaning: 'validation error' },
  429: { kind: 'rate_limit', meaning: 'rate limit exceeded' },
  500: { kind: 'server', meaning: 'internal server error' },
  502: { kind: 'upstream', meaning: 'error of an external service' },
  503: { kind: 'upstream', meaning: 'service unavailable' },
  504: { kind: 'timeout', meaning: 'request timeout' },
};

export function kindForStatus(status: number): { kind: ErrorKind; meaning: string } {
  const known = STATUS_KINDS[status];
  if (known) return known;
  if (status >= 500) return { kind: 'server', meaning: `server error ${status}` };
  return { kind: 'invalid', meaning: `request rejected with ${status}` };
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const MAX_MESSAGE = 500;

function truncate(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_MESSAGE ? `${t.slice(0, MAX_MESSAGE)}…` : t;
}

function fastApiItem(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const msg = typeof o.msg === 'string' ? o.msg : typeof o.message === 'string' ? o.message : undefined;
  if (!msg) return undefined;
  const loc = Array.isArray(o.loc) ? o.loc.filter((p) => p !== 'body').join('.') : undefined;
  return loc ? `${loc}: ${msg}` : msg;
}

/** Finds a human message in the shapes error bodies take: detail (string or FastAPI list), message, error, errors. */
export function messageFromJson(body: unknown, depth = 0): string | undefined {
  if (depth > 3 || body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (Array.isArray(body)) {
    const parts = body.map(fastApiItem).filter((s): s is string => !!s);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (typeof body !== 'object') return String(body);
  const o = body as Record<string, unknown>;
  for (const key of ['detail', 'message', 'error_message', 'error', 'errors', 'msg', 'title']) {
    if (!(key in o)) continue;
    const found = messageFromJson(o[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

export interface ParsedErrorBody {
  message?: string;
  json?: unknown;
  text: string;
}

export function parseErrorBody(text: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    try {
      const json: unknown = JSON.parse(trimmed);
      const m = messageFromJson(json);
      return { message: m ? truncate(m) : truncate(trimmed), json, text };
    } catch {
      // falls through to text: a body that looks like JSON but is not is still a message
    }
  }
  if (/^<(!doctype|html)/i.test(trimmed)) {
    const stripped = trimmed.replace(/<[^>]*>/g, ' ');
    return { message: stripped.trim() ? truncate(stripped) : undefined, text };
  }
  return { message: trimmed ? truncate(trimmed) : undefined, text };
}

export function errorFromResponse(status: number, bodyText: string, retryAfterHeader: string | null, what: string): AppError {
  const { kind, meaning } = kindForStatus(status);
  const parsed = parseErrorBody(bodyText);
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfterHeader) : undefined;
  const detail = parsed.message ? `: ${parsed.message}` : '';
  return new AppError(kind, `${what}: ${status} ${meaning}${detail}`, { status, retryAfterMs });
}

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A fetch/http failure without a response: the network, a cancel, or our own deadline. */
export function errorFromNetwork(e: unknown, what: string, ctx: { userSignal?: AbortSignal; deadlineHit?: boolean }): AppError {
  if (e instanceof AppError) return e;
  if (ctx.userSignal?.aborted) return new AppError('cancelled', `${what}: cancelled`, { cause: e });
  if (ctx.deadlineHit) return new AppError('timeout', `${what}: no answer within the local deadline`, { cause: e });
  const code = errorCode(e);
  const msg = e instanceof Error ? e.message : String(e);
  return new AppError('offline', `${what}: service unreachable${code ? ` (${code})` : ''}: ${msg}`, { cause: e });
}
