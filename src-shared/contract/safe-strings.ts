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
const isAbsolutePath = (s: string) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || /^\\\\[^\\]+\\[^\\]+/.test(s);
export const absolutePathSchema = safeText(4096).trim().min(1).refine(isAbsolutePath, 'must be an absolute path');

/** `~`, `~/footage` (`~\\footage`): the user's home folder, as an editor types it into a path box. */
export const HOME_PATH = /^~(?:[\\/]|$)/;

/**
 * A path the editor typed: absolute, or from their home folder (`~/footage`, which main expands:
 * only main knows the home folder). Anything else would resolve against the app's working folder.
 */
export const typedPathSchema = safeText(4096)
  .trim()
  .min(1)
  .refine((s) => isAbsolutePath(s) || HOME_PATH.test(s), 'is not a full path: start it with / (or ~/ for your home folder)');
