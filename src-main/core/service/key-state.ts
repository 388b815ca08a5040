import { createHash } from 'node:crypto';
import { AdaptiveRateLimiter, type LimiterOptions } from './rate-limiter';
import type { LearnedLimits } from './learned-limits';

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
  const created: KeyState = { limiter: new AdaptiveRateLimiter(opts), authRejected: false, quotaBlocked: false, learned: {} };
  registry.set(k, created);
  return created;
}

/** Tests and a settings change that swaps services start from a clean slate. */
export function resetSharedKeyStates(): void {
  registry.clear();
}
