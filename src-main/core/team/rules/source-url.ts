import { z } from 'zod';

/**
 * Where a clip added by URL comes from, as the team stores it (team.clips.source_url, issue 40 item 4):
 * written by the seat that added the address, then catalogued, shown and played (through each seat's
 * own address rules, remote/remote-url-policy.ts) by every other seat. What is not a plain web address
 * is refused when written, here and by the server (team migration 0013, the same rules), and again
 * when a seat reads another's row (`teamSourceUrl`, the zod border of team-clip-store.ts), as the row
 * may come from a seat that skipped this. Pure, tested directly (test/unit/team/team-source-url.test.ts).
 */

/** The longest address kept: far past any review link or signed bucket URL, and no row carries megabytes. */
export const SOURCE_URL_MAX_BYTES = 2048;

export type SourceUrlProblem = 'empty' | 'too_long' | 'control' | 'scheme' | 'credentials' | 'unparsable';

/**
 * C0 and C1 controls, DEL and the space (an address as browsers write it has none: `%20`), the line
 * separators and bidirectional overrides and isolates (an address drawn as another one), and the
 * backslash, which a browser reads as '/' ('https://a.example\@b.example' is a host of b's choosing).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const UNSAFE_CHAR = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/;

/** http or https, a host, then the path, query or fragment: the part before the first '/', '?' or '#' holds no '@' (no user:pass). */
const WEB_ADDRESS = /^https?:\/\/[^/?#@]+(?:[/?#]|$)/i;
const ANY_AUTHORITY = /^https?:\/\/[^/?#]*@/i;

/** Why `url` cannot be stored as where a team clip comes from, or null when it can. */
export function sourceUrlProblem(url: string): SourceUrlProblem | null {
  if (url.length === 0) return 'empty';
  if (Buffer.byteLength(url, 'utf8') > SOURCE_URL_MAX_BYTES) return 'too_long';
  if (UNSAFE_CHAR.test(url)) return 'control';
  if (!/^https?:\/\//i.test(url)) return 'scheme';
  if (ANY_AUTHORITY.test(url)) return 'credentials';
  if (!WEB_ADDRESS.test(url)) return 'unparsable';
  // The server's rules are the lines above; the app reads the address with WHATWG's parser too.
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'scheme';
    if (u.username !== '' || u.password !== '') return 'credentials';
    return u.hostname === '' ? 'unparsable' : null;
  } catch {
    return 'unparsable';
  }
}

/** The address as a seat reads it from the team's rows: refused, the clip is not catalogued here. */
export const teamSourceUrl = z.string().superRefine((url, ctx) => {
  const problem = sourceUrlProblem(url);
  if (problem) ctx.addIssue({ code: 'custom', message: `not a web address the team keeps (${problem})` });
});
