import { createServiceClient, type ServiceClient } from './client';
import type { ServiceConfig } from './config';
import { SYNC_CALL_RETRY, type RetryOptions } from './http/retry';

/**
 * Clients for calls someone is waiting on, derived from the configured one (same key, so the rate
 * limiter and the auth/quota state are shared with every other caller). Their requests take the
 * key's next token before any background call (rate-limiter.ts, CallPriority):
 * - interactiveClient: a list refresh and any other read someone waits for (INTERACTIVE_READ_RETRY);
 *   anything else it sends keeps two quick attempts (INTERACTIVE_RETRY).
 * - syncCallConfig / syncCallClient: encode_text and collection search. They have no asynchronous
 *   counterpart, so a busy service is tried again within the deadline the UI shows (SYNC_CALL_RETRY).
 */
const INTERACTIVE_RETRY = { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000 };
const INTERACTIVE_TIMEOUT_MS = 15_000;

/**
 * A GET someone waits for (the collections list, a status). Reading again changes nothing, and a
 * 502/503/504 is the service answering that it is busy, not gone: a few attempts over several
 * seconds (jittered backoff 0.4 s doubling to 3 s, up to six attempts, none past 12 s; a 503's
 * Retry-After is waited out, or the read gives up at once when it ends past the 12 s) before the
 * cache answers, as the background reads do with their longer policy. A 500 still gets three
 * attempts (the service is broken), and no answer at all still falls back after two (about a
 * second): more patience would not bring the network back.
 */
const INTERACTIVE_READ_RETRY: Partial<RetryOptions> = {
  maxAttempts: 6,
  serverAttempts: 3,
  timeoutAttempts: 6,
  offlineAttempts: 2,
  baseDelayMs: 400,
  maxDelayMs: 3_000,
  deadlineMs: 12_000,
};

function interactiveConfig(cfg: ServiceConfig, retry: Partial<RetryOptions>, readRetry?: Partial<RetryOptions>): ServiceConfig {
  return { ...cfg, priority: 'interactive', timeoutMs: Math.min(cfg.timeoutMs ?? INTERACTIVE_TIMEOUT_MS, INTERACTIVE_TIMEOUT_MS), retry: { ...cfg.retry, ...retry }, readRetry };
}

/** The settings of a sync call someone waits for; `retry` overrides the policy (tests shorten the deadline). */
export function syncCallConfig(cfg: ServiceConfig, retry: Partial<RetryOptions> = {}): ServiceConfig {
  return interactiveConfig(cfg, { ...SYNC_CALL_RETRY, ...retry });
}

const quick = new WeakMap<ServiceClient, ServiceClient>();
const patient = new WeakMap<ServiceClient, ServiceClient>();

function derived(cache: WeakMap<ServiceClient, ServiceClient>, base: ServiceClient, make: (cfg: ServiceConfig) => ServiceConfig): ServiceClient {
  let c = cache.get(base);
  if (!c) {
    c = createServiceClient(make(base.transport.config));
    cache.set(base, c);
  }
  return c;
}

export function interactiveClient(base: ServiceClient): ServiceClient {
  return derived(quick, base, (cfg) => interactiveConfig(cfg, INTERACTIVE_RETRY, INTERACTIVE_READ_RETRY));
}

export function syncCallClient(base: ServiceClient): ServiceClient {
  return derived(patient, base, (cfg) => syncCallConfig(cfg));
}
