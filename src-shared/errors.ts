import { z } from 'zod';

/**
 * Every failure that crosses a module border carries one of these kinds, so the UI and the job
 * queue can react (ask for the key, pause on quota, back off, split a chunk...) without parsing text.
 */
export const ERROR_KINDS = [
  'auth', // 401: the key is missing or wrong: stop network work, ask for the key
  'quota', // 402: pause submissions until the user resumes or a probe succeeds
  'rate_limit', // 429: back off (Retry-After when sent)
  'too_large', // 413: the caller splits the payload
  'invalid', // 400/422 or bad input: no retry, message surfaced
  'not_found', // 404
  'server', // 500: limited retry
  'upstream', // 502: retry later with backoff
  'timeout', // 504 or a local deadline: switch to the async counterpart
  'offline', // the service cannot be reached at all
  'cancelled', // the user or a shutdown aborted the work
  'io', // a local file or process failed
  'unplugged', // a clip's drive or folder is not there now (unplugged, renamed): its work waits for it
  'disk_full', // no room to write in the app's data folder: work pauses until there is
  'damaged', // the catalog file cannot be read as a database: restore a backup
  'media', // ffmpeg/ffprobe could not read the input
  'internal', // a bug: never expected
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export const appErrorSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  status: z.number().int().optional(),
  retryAfterMs: z.number().nonnegative().optional(),
});

export type AppErrorData = z.infer<typeof appErrorSchema>;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(kind: ErrorKind, message: string, opts: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.kind = kind;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }

  toJSON(): AppErrorData {
    const out: AppErrorData = { kind: this.kind, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    return out;
  }

  static from(data: AppErrorData): AppError {
    return new AppError(data.kind, data.message, { status: data.status, retryAfterMs: data.retryAfterMs });
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Codes of a write refused for want of room: SQLite's, and the system's (no space, over quota). */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * Wraps anything thrown into an AppError; unknown throwables are bugs, so they become 'internal'.
 * A full disk is an expected condition wherever it is met, so its codes become 'disk_full'.
 */
export function toAppError(e: unknown, fallback: ErrorKind = 'internal'): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof Error && e.name === 'AbortError') return new AppError('cancelled', 'cancelled', { cause: e });
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return new AppError('disk_full', message, { cause: e });
  return new AppError(fallback, message, { cause: e });
}
