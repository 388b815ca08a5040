import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from '../../../src-main/core/team/seat/change-listener';

describe('team change listener reconnects', () => {
  it('back off from the first wait, doubling, to the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => reconnectDelayMs(n, 1000, 30_000))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});
