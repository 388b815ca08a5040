/**
 * A place on a share as the team stores it (team.clip_locations.rel_path, issue 40 item 2): written by
 * one seat, joined onto a share root by every other. Whatever is not a plain '/'-separated path going
 * down from the root is refused when written, here and by the server (team migration 0007, the same
 * rules); the seat that resolves a place checks again where it really leads (team/syncs/clip-arrivals.ts),
 * as the row may come from a seat that skipped this. Pure, tested directly (test/unit/team/team-shared-path.test.ts).
 */

/** The longest place kept: macOS's PATH_MAX, so any real path of a seat fits, and no row carries megabytes. */
export const SHARED_PATH_MAX_BYTES = 1024;

export type SharedPathProblem = 'empty' | 'too_long' | 'absolute' | 'backslash' | 'control' | 'dot_segment';

/**
 * C0 and C1 controls and DEL (a NUL cuts a path short in C, a newline forges a log line); the line
 * and paragraph separators and the bidirectional overrides and isolates, which show a name other
 * than the one opened (`gpj.exe` drawn as `exe.jpg`); lone surrogates, which no filesystem encodes.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A segment of dots and spaces only: '.' and '..', and the Windows spellings of them ('.. ', '...'),
 * since Win32 drops trailing dots and spaces from a name. Empty segments ('a//b', a trailing '/')
 * are refused with them: they are how a path is made to look like another one.
 */
const DOT_SEGMENT = /^[. ]*$/;

/** A drive ('C:'), which makes a Windows path absolute whatever follows. */
const DRIVE = /^[A-Za-z]:/;

/** Why `p` cannot be stored as a place under a share, or null when it can. */
export function sharedPathProblem(p: string): SharedPathProblem | null {
  if (p.length === 0) return 'empty';
  if (Buffer.byteLength(p, 'utf8') > SHARED_PATH_MAX_BYTES) return 'too_long';
  if (UNSAFE_CHAR.test(p)) return 'control';
  // Backslashes are a separator on Windows ('a\..\..\x', '\\server\share'): no seat writes one.
  if (p.includes('\\')) return 'backslash';
  if (p.startsWith('/') || DRIVE.test(p)) return 'absolute';
  if (p.split('/').some((s) => DOT_SEGMENT.test(s))) return 'dot_segment';
  return null;
}
