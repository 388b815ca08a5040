import { describe, expect, it } from 'vitest';
import { SHARED_PATH_MAX_BYTES, sharedPathProblem } from '../../../src-main/core/team/rules/shared-path';

/** A place on a share is a plain path going down from its root, or it is not stored (issue 40 item 2). */
describe('a place on a share as the team stores it', () => {
  it('takes the paths seats really have, Unicode names and dotted names included', () => {
    for (const p of ['A001.mov', 'Tide/Day1/A001.mov', 'Jobs/Été 2026/clip (1).mp4', '.hidden/a.mp4', 'a..b/c.mov', 'a/b.', '日本/クリップ.mxf', 'x/😀.mp4', 'Scene 1: take 2/c.mov'])
      expect(sharedPathProblem(p), p).toBeNull();
    expect(sharedPathProblem('a/'.repeat(SHARED_PATH_MAX_BYTES / 2 - 1) + 'bc')).toBeNull();
  });

  it('refuses climbing out, by any spelling', () => {
    for (const p of ['..', '../x', 'a/../../x', 'a/..', './a', 'a/./b', '.', 'a/.. /b', 'a/.../b', 'a/ /b'])
      expect(sharedPathProblem(p), p).toBe('dot_segment');
  });

  it('refuses empty segments', () => {
    for (const p of ['a//b', 'a/', 'a/b/']) expect(sharedPathProblem(p), p).toBe('dot_segment');
    expect(sharedPathProblem('')).toBe('empty');
  });

  it('refuses absolute paths, POSIX and Windows', () => {
    for (const p of ['/etc/passwd', '/', '//server/share/x', 'C:/x', 'c:x', 'Z:']) expect(sharedPathProblem(p), p).toBe('absolute');
  });

  it('refuses backslashes, the Windows separator', () => {
    for (const p of ['C:\\x', '\\\\server\\x', 'a\\..\\..\\x', '\\x', 'a\\b']) expect(['backslash', 'absolute']).toContain(sharedPathProblem(p));
    expect(sharedPathProblem('a\\b')).toBe('backslash');
  });

  it('refuses control characters, separators that break lines and text that reads backwards', () => {
    for (const p of ['a\0b', 'a\nb', 'a\rb', 'a\tb', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\u2028b', 'a\u2029b', 'clip\u202egpj.exe', 'a\u2066b', 'a\ud800b', 'a\udc00b', 'a\ud800'])
      expect(sharedPathProblem(p), JSON.stringify(p)).toBe('control');
  });

  it('refuses what is over the bound in bytes, not characters', () => {
    expect(sharedPathProblem('a'.repeat(SHARED_PATH_MAX_BYTES + 1))).toBe('too_long');
    // 342 three-byte characters are 1026 bytes: over, though only 342 characters.
    expect(sharedPathProblem('あ'.repeat(342))).toBe('too_long');
    expect(sharedPathProblem('a'.repeat(10 * 1024 * 1024))).toBe('too_long');
  });
});
