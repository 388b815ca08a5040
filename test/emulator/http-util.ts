import type http from 'node:http';
import type { EmulatorConfig } from './config';

/** Thrown by handlers; rendered in the configured error-body variant. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly opts: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'quota_exceeded',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  504: 'gateway_timeout',
};

/** The spec does not show the error body: three plausible shapes, chosen by config.errorBody. */
export function renderError(variant: EmulatorConfig['errorBody'], e: HttpError): { contentType: string; text: string } {
  switch (variant) {
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', text: e.message };
    case 'fastapi':
      if (e.status === 422) {
        const loc = ['body', ...(e.opts.field ? e.opts.field.split('.') : [])];
        return { contentType: 'application/json', text: JSON.stringify({ detail: [{ loc, msg: e.message, type: 'value_error' }] }) };
      }
      return { contentType: 'application/json', text: JSON.stringify({ detail: e.message }) };
    case 'json':
      return { contentType: 'application/json', text: JSON.stringify({ error: CODES[e.status] ?? 'error', message: e.message, status: e.status }) };
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, contentType: string, text: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Reads the body, counting bytes as they stream in: past the limit it answers 413 at once
 * (by throwing) and lets Node drain the rest, so the client still reads the answer.
 */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new HttpError(413, `request body of ${declared} bytes exceeds the limit of ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(new HttpError(413, `request body exceeds the limit of ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!over) reject(e);
    });
  });
}

export async function readJsonObject(req: http.IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const buf = await readBody(req, limit);
  let parsed: unknown;
  try {
    parsed = JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new HttpError(400, `malformed JSON body: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'the JSON body must be an object');
  return parsed as Record<string, unknown>;
}

export function requireString(body: Record<string, unknown>, field: string, opts: { maxLength?: number } = {}): string {
  const v = body[field];
  if (v === undefined || v === null) throw new HttpError(422, 'field required', { field });
  if (typeof v !== 'string') throw new HttpError(422, 'must be a string', { field });
  if (v.trim() === '') throw new HttpError(422, 'must not be empty', { field });
  if (opts.maxLength !== undefined && v.length > opts.maxLength) throw new HttpError(422, `must be at most ${opts.maxLength} characters`, { field });
  return v;
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
