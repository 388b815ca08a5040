import type { AppErrorData } from '../../../src-shared/errors';
import { classifyServiceFailure } from '../../../src-shared/contract/service-wait';

/**
 * What the interactive side of the app believes about the service, as a pure transition
 * (health + event -> health). Offline means no answer at all for a while: several attempts in a
 * row that reached nobody, or none reached for OFFLINE_AFTER_MS. Any answer, even a 504 or a 502,
 * proves the service is there: it is then "slow", never offline, and one transient answer is not
 * an outage.
 */
export type HealthState = 'unknown' | 'online' | 'slow' | 'offline';

export interface ServiceHealth {
  state: HealthState;
  /** The last failure (null after a success). */
  error: AppErrorData | null;
  /** Attempts in a row that got no answer, and when the first of them failed. */
  unanswered: number;
  unansweredSince: number | null;
  checkedAt: number | null;
  /**
   * The last answer came from the project's service emulator (service-identity.ts): kept through
   * attempts that reached nobody, since they say nothing about who answers.
   */
  emulator: boolean;
}

export type HealthEvent =
  /** `emulator`: the answer said it came from the emulator (absent: not known, the last word stands). */
  | { type: 'succeeded'; at: number; emulator?: boolean }
  /** A failed attempt; `answered` when an HTTP status came back, and then `emulator` as above. */
  | { type: 'failed'; at: number; error: AppErrorData; emulator?: boolean };

export const OFFLINE_AFTER_ATTEMPTS = 3;
export const OFFLINE_AFTER_MS = 10_000;

export const INITIAL_HEALTH: ServiceHealth = { state: 'unknown', error: null, unanswered: 0, unansweredSince: null, checkedAt: null, emulator: false };

export function nextHealth(h: ServiceHealth, e: HealthEvent): ServiceHealth {
  const emulator = e.emulator ?? h.emulator;
  if (e.type === 'succeeded') return { state: 'online', error: null, unanswered: 0, unansweredSince: null, checkedAt: e.at, emulator };
  const cls = classifyServiceFailure(e.error);
  if (cls === 'offline') {
    const since = h.unansweredSince ?? e.at;
    const unanswered = h.unanswered + 1;
    const outage = h.state === 'offline' || unanswered >= OFFLINE_AFTER_ATTEMPTS || e.at - since >= OFFLINE_AFTER_MS;
    return { state: outage ? 'offline' : h.state, error: e.error, unanswered, unansweredSince: since, checkedAt: e.at, emulator };
  }
  // The service answered: reachable. A refusal (key, quota, bad request) says nothing about its speed.
  const state: HealthState = cls === 'slow' ? 'slow' : h.state === 'offline' || h.state === 'unknown' ? 'online' : h.state;
  return { state, error: e.error, unanswered: 0, unansweredSince: null, checkedAt: e.at, emulator };
}
