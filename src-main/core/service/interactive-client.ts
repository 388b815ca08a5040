import { createServiceClient, type ServiceClient } from './client';
import type { ServiceConfig } from './config';
import { SYNC_CALL_RETRY, type RetryOptions } from './retry';

/**
 * Clients for calls someone is waiting on, derived from the configured one (same key, so the rate
 * limiter and the auth/quota state are shared with every other caller). Their requests take the
 * key's next token before any background call (rate-limiter.ts, CallPriority):
 * - interactiveClient: a list refresh. Two attempts and a short deadline, so an unreachable service
 *   falls back to the cached list in about a second.
 * - syncCallConfig / syncCallClient: encode_text and collection search. They have no asynchronous
 *   counterpart, so a busy service is tried again within the deadline the UI shows (SYNC_CALL_RETRY).
 */
const INTERACTIVE_RETRY = { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000 };
const INTERACTIVE_TIMEOUT_MS = 15_000;

function interactiveConfig(cfg: ServiceConfig, retry: Partial<RetryOptions>): ServiceConfig {
  return { ...cfg, priority: 'interactive', timeoutMs: Math.min(cfg.timeoutMs ?? INTERACTIVE_TIMEOUT_MS, INTERACTIVE_TIMEOUT_MS), retry: { ...cfg.retry, ...retry } };
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
  return derived(quick, base, (cfg) => interactiveConfig(cfg, INTERACTIVE_RETRY));
}

export function syncCallClient(base: ServiceClient): ServiceClient {
  return derived(patient, base, (cfg) => syncCallConfig(cfg));
}
