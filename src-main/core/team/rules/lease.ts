/**
 * A team job's lease as a pure transition: state + event -> state, or a refusal saying why. The SQL
 * of `team-job-store.ts` is this function compiled into guarded single statements (one round trip
 * each, and atomic where seats race); `team-leases.test.ts` drives both with the same random events
 * and checks they agree. Times are the server's clock in ms: a lease is held while now < expiresAt.
 */
export type LeaseState =
  | { state: 'queued'; token: number; recoveries: number }
  | { state: 'running'; owner: string; token: number; expiresAt: number; recoveries: number }
  | { state: 'done' | 'failed' | 'paused' | 'cancelled'; token: number; recoveries: number };

export const TEAM_JOB_STATES = ['queued', 'running', 'done', 'failed', 'paused', 'cancelled'] as const satisfies ReadonlyArray<LeaseState['state']>;

export type LeaseEvent =
  /** A seat takes a queued job; the token goes up by one, so earlier holders are fenced off. */
  | { type: 'claim'; seat: string; now: number; leaseMs: number }
  | { type: 'renew'; seat: string; token: number; now: number; leaseMs: number }
  | { type: 'complete'; seat: string; token: number; now: number }
  /** retry: back to the queue (the error policy's choice), else failed for good. */
  | { type: 'fail'; seat: string; token: number; now: number; retry: boolean }
  /** Any seat's reaper: an expired lease goes back to the queue, or fails after too many. */
  | { type: 'expire'; now: number; maxRecoveries: number };

export type LeaseRefusal =
  | 'not-queued' // claim of a job that is not waiting
  | 'not-running' // renew/complete/fail of a job nobody holds
  | 'lease-lost' // another seat holds it now, or the token is an older claim's
  | 'lease-expired' // the holder's time ran out: it must stop, the reaper or another seat takes over
  | 'not-expired'; // the reaper met a lease still held

export type LeaseStep = { state: LeaseState; refused?: undefined } | { state: LeaseState; refused: LeaseRefusal };

/** Why a holder's write (renew, complete, fail) is refused, or null when its lease is valid. */
function holderRefusal(s: LeaseState, seat: string, token: number, now: number): LeaseRefusal | null {
  if (s.state !== 'running') return 'not-running';
  if (s.owner !== seat || s.token !== token) return 'lease-lost';
  if (now >= s.expiresAt) return 'lease-expired';
  return null;
}

export function nextLease(s: LeaseState, e: LeaseEvent): LeaseStep {
  switch (e.type) {
    case 'claim':
      if (s.state !== 'queued') return { state: s, refused: 'not-queued' };
      return { state: { state: 'running', owner: e.seat, token: s.token + 1, expiresAt: e.now + e.leaseMs, recoveries: s.recoveries } };
    case 'renew': {
      const refused = holderRefusal(s, e.seat, e.token, e.now);
      if (refused || s.state !== 'running') return { state: s, refused: refused ?? 'not-running' };
      return { state: { ...s, expiresAt: e.now + e.leaseMs } };
    }
    case 'complete': {
      const refused = holderRefusal(s, e.seat, e.token, e.now);
      if (refused) return { state: s, refused };
      return { state: { state: 'done', token: s.token, recoveries: s.recoveries } };
    }
    case 'fail': {
      const refused = holderRefusal(s, e.seat, e.token, e.now);
      if (refused) return { state: s, refused };
      return { state: { state: e.retry ? 'queued' : 'failed', token: s.token, recoveries: s.recoveries } };
    }
    case 'expire': {
      if (s.state !== 'running' || e.now < s.expiresAt) return { state: s, refused: 'not-expired' };
      const recoveries = s.recoveries + 1;
      return { state: { state: recoveries > e.maxRecoveries ? 'failed' : 'queued', token: s.token, recoveries } };
    }
  }
}
