import { describe, expect, it } from 'vitest';
import { nextLease, type LeaseState } from '../../../src-main/core/team/rules/lease';

const queued: LeaseState = { state: 'queued', token: 0, recoveries: 0 };
const LEASE = 30_000;

describe('nextLease', () => {
  it('a claim leases a queued job to the seat and raises the token; a second claim is refused', () => {
    const a = nextLease(queued, { type: 'claim', seat: 'A', now: 1000, leaseMs: LEASE });
    expect(a).toEqual({ state: { state: 'running', owner: 'A', token: 1, expiresAt: 31_000, recoveries: 0 } });
    expect(nextLease(a.state, { type: 'claim', seat: 'B', now: 1001, leaseMs: LEASE })).toEqual({ state: a.state, refused: 'not-queued' });
  });

  it('the holder renews and completes while its lease runs', () => {
    const a = nextLease(queued, { type: 'claim', seat: 'A', now: 0, leaseMs: LEASE }).state;
    const renewed = nextLease(a, { type: 'renew', seat: 'A', token: 1, now: 20_000, leaseMs: LEASE });
    expect(renewed.state).toMatchObject({ state: 'running', expiresAt: 50_000 });
    expect(nextLease(renewed.state, { type: 'complete', seat: 'A', token: 1, now: 45_000 })).toEqual({ state: { state: 'done', token: 1, recoveries: 0 } });
  });

  it('an expired lease goes back to the queue; the next claim fences the old holder off', () => {
    const a = nextLease(queued, { type: 'claim', seat: 'A', now: 0, leaseMs: LEASE }).state;
    expect(nextLease(a, { type: 'expire', now: 29_999, maxRecoveries: 20 }).refused).toBe('not-expired');
    expect(nextLease(a, { type: 'complete', seat: 'A', token: 1, now: 30_000 }).refused).toBe('lease-expired');
    expect(nextLease(a, { type: 'renew', seat: 'A', token: 1, now: 30_000, leaseMs: LEASE }).refused).toBe('lease-expired');
    const back = nextLease(a, { type: 'expire', now: 30_000, maxRecoveries: 20 }).state;
    expect(back).toEqual({ state: 'queued', token: 1, recoveries: 1 });
    const b = nextLease(back, { type: 'claim', seat: 'B', now: 30_100, leaseMs: LEASE }).state;
    expect(b).toMatchObject({ owner: 'B', token: 2 });
    // A wakes up: its late writes name the old token and are refused, whatever its clock says.
    expect(nextLease(b, { type: 'complete', seat: 'A', token: 1, now: 30_200 })).toEqual({ state: b, refused: 'lease-lost' });
    expect(nextLease(b, { type: 'fail', seat: 'A', token: 1, now: 30_200, retry: true }).refused).toBe('lease-lost');
    // The same seat with an older claim's token is fenced off too.
    expect(nextLease(b, { type: 'complete', seat: 'B', token: 1, now: 30_200 }).refused).toBe('lease-lost');
    expect(nextLease(b, { type: 'complete', seat: 'B', token: 2, now: 30_200 }).state.state).toBe('done');
  });

  it('a job that loses more leases than allowed fails instead of looping', () => {
    let s: LeaseState = queued;
    for (let i = 0; i < 3; i++) {
      s = nextLease(s, { type: 'claim', seat: 'A', now: i * 100, leaseMs: 10 }).state;
      s = nextLease(s, { type: 'expire', now: i * 100 + 50, maxRecoveries: 2 }).state;
    }
    expect(s).toEqual({ state: 'failed', token: 3, recoveries: 3 });
  });

  it('a failed attempt goes back to the queue or fails for good; writes on a job nobody holds are refused', () => {
    const a = nextLease(queued, { type: 'claim', seat: 'A', now: 0, leaseMs: LEASE }).state;
    expect(nextLease(a, { type: 'fail', seat: 'A', token: 1, now: 1, retry: true }).state).toEqual({ state: 'queued', token: 1, recoveries: 0 });
    expect(nextLease(a, { type: 'fail', seat: 'A', token: 1, now: 1, retry: false }).state).toEqual({ state: 'failed', token: 1, recoveries: 0 });
    for (const s of [queued, { state: 'done', token: 1, recoveries: 0 } as const, { state: 'paused', token: 0, recoveries: 0 } as const]) {
      expect(nextLease(s, { type: 'complete', seat: 'A', token: 1, now: 1 }).refused).toBe('not-running');
      expect(nextLease(s, { type: 'renew', seat: 'A', token: 1, now: 1, leaseMs: LEASE }).refused).toBe('not-running');
    }
    expect(nextLease({ state: 'paused', token: 0, recoveries: 0 }, { type: 'claim', seat: 'A', now: 0, leaseMs: LEASE }).refused).toBe('not-queued');
  });
});
