import { describe, expect, it } from 'vitest';
import { clipToBytes, utf8Bytes } from '../../../src-main/core/team/rules/team-bounds';

/** The seat clips a name to the server's bound in bytes before sending (team migration 0009). */
describe('a text clipped to the team server\'s bound in bytes', () => {
  it('leaves a text within the bound as it is', () => {
    expect(clipToBytes('A001.mov', 8)).toBe('A001.mov');
    expect(clipToBytes('', 0)).toBe('');
  });

  it('cuts at a character: never inside a multi-byte character nor a surrogate pair', () => {
    expect(clipToBytes('ééé', 5)).toBe('éé'); // 2 bytes each
    expect(clipToBytes('a😀b', 4)).toBe('a'); // the emoji is 4 bytes (2 UTF-16 units)
    expect(clipToBytes('a😀b', 5)).toBe('a😀');
    const long = '日本'.repeat(1000);
    const cut = clipToBytes(long, 1024);
    expect(utf8Bytes(cut)).toBeLessThanOrEqual(1024);
    expect(utf8Bytes(cut)).toBeGreaterThan(1020);
    expect(long.startsWith(cut)).toBe(true);
  });

  it('brings 50 MB down to the bound', () => {
    expect(utf8Bytes(clipToBytes('x'.repeat(50 * 2 ** 20), 1024))).toBe(1024);
  });
});
