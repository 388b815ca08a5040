import { createHash } from 'node:crypto';
import { AdaptiveRateLimiter, type LimiterOptions } from './http/rate-limiter';
import type { LearnedLimits } from './learned-limits';
import { INITIAL_HEALTH, nextHealth, type HealthEvent, type ServiceHealth } from './service-health';

/**
 * What every caller of one API key on one service must share: the limiter (the service limits per
 * key, not per client object) and the stop states that 401 and 402 put the key into.
 */
export interface KeyState {
  limiter: AdaptiveRateLimiter;
  /** Set by a 401: network work for this key stops until the key is replaced or cleared. */
  authRejected: boolean;
  /** Set by a 402: billable submissions stop until resumed or a probe succeeds. */
  quotaBlocked: boolean;
  /** Bounds the spec leaves open, learned from this service's answers (learned-limits.ts). */
  learned: LearnedLimits;
  /**
   * Reachability as every call of this key saw it (service-health.ts): the pipeline's uploads and
   * polls tell search that the service is slow or gone as much as search's own calls do.
   */
  health: ServiceHealth;
  /** Applies one call's outcome to `health`; listeners hear only changes of state, error or who answers. */
  noteHealth(e: HealthEvent): void;
  onHealth(listener: (h: ServiceHealth) => void): () => void;
  /** A call of this key was answered 429: the limiter slows and pauses, and the listeners hear it. */
  rateLimited(retryAfterMs: number | undefined): void;
  /** Told of each 429 (with its Retry-After): a joined seat tells the team (team/seat/team-pace.ts). */
  onRateLimited(listener: (retryAfterMs: number | undefined) => void): () => void;
  /** Every call of this key waits `ms` from now (the team's hold); nothing is told. */
  holdFor(ms: number): void;
}

function createKeyState(opts: LimiterOptions): KeyState {
  const listeners = new Set<(h: ServiceHealth) => void>();
  const rateListeners = new Set<(retryAfterMs: number | undefined) => void>();
  const state: KeyState = {
    limiter: new AdaptiveRateLimiter(opts),
    authRejected: false,
    quotaBlocked: false,
    learned: {},
    health: INITIAL_HEALTH,
    noteHealth(e) {
      const before = state.health;
      state.health = nextHealth(before, e);
      const changed = state.health.state !== before.state || state.health.emulator !== before.emulator || JSON.stringify(state.health.error) !== JSON.stringify(before.error);
      if (changed) {
        for (const l of listeners) l(state.health);
      }
    },
    onHealth(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rateLimited(retryAfterMs) {
      state.limiter.onRateLimited(retryAfterMs);
      for (const l of rateListeners) l(retryAfterMs);
    },
    onRateLimited(listener) {
      rateListeners.add(listener);
      return () => rateListeners.delete(listener);
    },
    holdFor(ms) {
      state.limiter.holdFor(ms);
    },
  };
  return state;
}

const registry = new Map<string, KeyState>();

function registryKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl}\n${createHash('sha256').update(apiKey).digest('hex')}`;
}

export function sharedKeyState(baseUrl: string, apiKey: string, opts: LimiterOptions): KeyState {
  const k = registryKey(baseUrl, apiKey);
  const existing = registry.get(k);
  if (existing) {
    existing.limiter.configure(opts);
    return existing;
  }
  const created = createKeyState(opts);
  registry.set(k, created);
  return created;
}

/** The state of a key on a service if any client has used it yet (a lookup that creates nothing). */
export function findKeyState(baseUrl: string, apiKey: string): KeyState | undefined {
  return registry.get(registryKey(baseUrl, apiKey));
}

/** Tests and a settings change that swaps services start from a clean slate. */
export function resetSharedKeyStates(): void {
  registry.clear();
}
