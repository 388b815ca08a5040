import { z } from 'zod';

/** A UTF-16 surrogate without its partner: not text, and it turns into U+FFFD or worse downstream. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text that crosses the contract into files, URLs, SQL or child processes: bounded, and without
 * NUL, other C0 control characters (tab excepted, and line feeds in multiline text such as notes) or
 * lone surrogates.
 */
export function safeText(max: number, opts: { multiline?: boolean } = {}) {
  const allowed = opts.multiline ? '\t\n' : '\t';
  return z
    .string()
    .max(max)
    .refine((s) => ![...s].some((c) => (c < ' ' && !allowed.includes(c)) || c === '\u007f'), 'must not contain control characters')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be valid Unicode');
}

/**
 * An absolute path as the user's system writes it (POSIX `/...`, Windows `C:\\...` or `\\\\server\\share`):
 * relative paths would resolve against whatever directory the app process happens to run in.
 */
export const absolutePathSchema = safeText(4096)
  .trim()
  .min(1)
  .refine((s) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || /^\\\\[^\\]+\\[^\\]+/.test(s), 'must be an absolute path');
