import { describe, expect, it } from 'vitest';
import { addUrlLimitWords } from '../../../src-renderer/src/components/library/add-url-limit';

describe("Add by URL's limit, as the editor reads it", () => {
  const endsAt = new Date(2026, 11, 6, 9, 5, 0).getTime();

  it('says the time of day it gives up at and what is left, in minutes and seconds', () => {
    expect(addUrlLimitWords(endsAt, endsAt - 10 * 60_000)).toBe('Gives up at 09:05 unless finished (10:00 left)');
    expect(addUrlLimitWords(endsAt, endsAt - 65_500)).toBe('Gives up at 09:05 unless finished (1:06 left)');
  });

  it('reads 0:00 only once the time is out, never less', () => {
    expect(addUrlLimitWords(endsAt, endsAt - 200)).toBe('Gives up at 09:05 unless finished (0:01 left)');
    expect(addUrlLimitWords(endsAt, endsAt)).toBe('Gives up at 09:05 unless finished (0:00 left)');
    expect(addUrlLimitWords(endsAt, endsAt + 5000)).toBe('Gives up at 09:05 unless finished (0:00 left)');
  });
});
