import { describe, expect, it } from 'vitest';
import { indexedDetail, waitText } from '../../../src-renderer/src/components/jobs/format';

describe("an indexed clip's line in Jobs", () => {
  it('says the segment count once, with what else the last stage said', () => {
    expect(indexedDetail(1, '1 segment indexed')).toBe('1 segment indexed');
    expect(indexedDetail(3, '3 segments indexed, 1 shot(s) without frames')).toBe('3 segments indexed, 1 shot(s) without frames');
    expect(indexedDetail(3, null)).toBe('3 segments indexed');
    expect(indexedDetail(1, 'indexed by the service from its address')).toBe('1 segment indexed · indexed by the service from its address');
  });
});

describe("a waiting job's line in Jobs", () => {
  it('says retry after a failed attempt, and next look when nothing failed (a poll, a clip another seat indexes)', () => {
    const now = 1_000_000;
    expect(waitText(now + 12_000, 0, now)).toBe('next look in 12 s');
    expect(waitText(now + 12_000, 2, now)).toBe('retry in 12 s');
    expect(waitText(now + 150_000, 1, now)).toBe('retry in 3 min');
    expect(waitText(now - 1, 1, now)).toBeNull();
    expect(waitText(null, 0, now)).toBeNull();
  });
});
