import { createServiceClient, type ServiceClient } from '../service';
import { SYNC_CALL_RETRY, type RetryOptions } from '../service/retry';

/**
 * Clients for calls someone is waiting on, derived from the configured one (same key, so the rate
 * limiter and the auth/quota state are shared with every other caller):
 * - interactiveClient: a list refresh. Two attempts and a short deadline, so an unreachable service
 *   falls back to the cached list in about a second.
 * - syncCallClient: a collection search. It has no asynchronous counterpart and no cache, so a busy
 *   service is tried again within the deadline the UI shows (SYNC_CALL_RETRY).
 */
const INTERACTIVE_RETRY = { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000 };
export const INTERACTIVE_TIMEOUT_MS = 15_000;

const quick = new WeakMap<ServiceClient, ServiceClient>();
const patient = new WeakMap<ServiceClient, ServiceClient>();

function derived(cache: WeakMap<ServiceClient, ServiceClient>, base: ServiceClient, retry: Partial<RetryOptions>, timeoutMs: number): ServiceClient {
  let c = cache.get(base);
  if (!c) {
    const cfg = base.transport.config;
    c = createServiceClient({ ...cfg, timeoutMs: Math.min(cfg.timeoutMs, timeoutMs), retry: { ...cfg.retry, ...retry } });
    cache.set(base, c);
  }
  return c;
}

export function interactiveClient(base: ServiceClient): ServiceClient {
  return derived(quick, base, INTERACTIVE_RETRY, INTERACTIVE_TIMEOUT_MS);
}

export function syncCallClient(base: ServiceClient): ServiceClient {
  return derived(patient, base, SYNC_CALL_RETRY, INTERACTIVE_TIMEOUT_MS);
}
