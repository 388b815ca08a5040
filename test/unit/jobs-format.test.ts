import { describe, expect, it } from 'vitest';
import { indexedDetail } from '../../src-renderer/src/components/jobs/format';

describe("an indexed clip's line in Jobs", () => {
  it('says the segment count once, with what else the last stage said', () => {
    expect(indexedDetail(1, '1 segment indexed')).toBe('1 segment indexed');
    expect(indexedDetail(3, '3 segments indexed, 1 shot(s) without frames')).toBe('3 segments indexed, 1 shot(s) without frames');
    expect(indexedDetail(3, null)).toBe('3 segments indexed');
    expect(indexedDetail(1, 'indexed by the service from its address')).toBe('1 segment indexed · indexed by the service from its address');
  });
});
