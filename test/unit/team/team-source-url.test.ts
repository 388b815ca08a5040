import { describe, expect, it } from 'vitest';
import { SOURCE_URL_MAX_BYTES, sourceUrlProblem, teamSourceUrl } from '../../../src-main/core/team/rules/source-url';

/** Where a URL clip comes from is a plain web address, or it is not stored (issue 40 item 4; team migration 0013 is the same rule). */
describe('where a URL clip comes from, as the team stores it', () => {
  it('takes the addresses Add by URL reads: http and https, ports, queries, signed links, encoded names', () => {
    for (const u of [
      'https://cdn.example/reviews/A001%20v2.mp4?sig=abc&exp=1',
      'http://127.0.0.1:8080/flower.mp4',
      'HTTPS://Example.com/a.mov',
      'https://[2001:db8::1]/x.mp4',
      'https://bucket.example/a.mp4#t=10',
      'https://example.com',
      'https://example.com/user@host/a.mp4',
      'https://example.com/a.mp4?from=me@example.com',
    ])
      expect(sourceUrlProblem(u), u).toBeNull();
    const long = 'https://example.com/' + 'a'.repeat(SOURCE_URL_MAX_BYTES - 'https://example.com/'.length);
    expect(sourceUrlProblem(long)).toBeNull();
    expect(sourceUrlProblem(long + 'a')).toBe('too_long');
    expect(sourceUrlProblem('https://example.com/' + 'é'.repeat(SOURCE_URL_MAX_BYTES / 2))).toBe('too_long');
  });

  it('refuses every other scheme', () => {
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/a.mp4', 'data:video/mp4;base64,AAAA', 'example.com/a.mp4', '//example.com/a.mp4', 'https:/example.com', 'httpx://a'])
      expect(['scheme', 'unparsable']).toContain(sourceUrlProblem(u));
    expect(sourceUrlProblem('javascript:alert(1)')).toBe('scheme');
    expect(sourceUrlProblem('file:///etc/passwd')).toBe('scheme');
  });

  it('refuses credentials in the address', () => {
    for (const u of ['https://user:pass@example.com/a.mp4', 'https://user@example.com/a.mp4', 'http://:@example.com/', 'https://a@b@example.com/x'])
      expect(sourceUrlProblem(u), u).toBe('credentials');
  });

  it('refuses control characters, spaces, separators, bidirectional overrides and backslashes', () => {
    for (const c of ['\u0000', '\n', '\r', '\t', ' ', '\u007f', '\u0085', '\u2028', '\u202e', '\u2066', '\\'])
      expect(sourceUrlProblem(`https://example.com/a${c}b.mp4`), JSON.stringify(c)).toBe('control');
    // A backslash is a '/' to a browser: the host would be b's.
    expect(sourceUrlProblem('https://a.example\\@b.example/x')).toBe('control');
  });

  it('refuses an empty address and one with no host', () => {
    expect(sourceUrlProblem('')).toBe('empty');
    expect(sourceUrlProblem('https://')).toBe('unparsable');
    expect(sourceUrlProblem('https:///a.mp4')).toBe('unparsable');
  });

  it('is the border of a row read from the team: a bad address does not parse', () => {
    expect(teamSourceUrl.safeParse('https://example.com/a.mp4').success).toBe(true);
    const bad = teamSourceUrl.safeParse('javascript:alert(1)');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/scheme/);
  });
});
