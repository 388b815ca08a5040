import { createServiceClient, type ServiceClient } from '../service';

/**
 * The user is waiting on a list refresh or a search: two attempts and a short deadline, so an
 * unreachable service falls back to the cache in about a second instead of after the background
 * retry schedule (six attempts with growing pauses). Same key, so the rate limiter and the
 * auth/quota state are shared with every other caller.
 */
const cache = new WeakMap<ServiceClient, ServiceClient>();

export const INTERACTIVE_RETRY = { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000 };
export const INTERACTIVE_TIMEOUT_MS = 15_000;

export function interactiveClient(base: ServiceClient): ServiceClient {
  let c = cache.get(base);
  if (!c) {
    const cfg = base.transport.config;
    c = createServiceClient({ ...cfg, timeoutMs: Math.min(cfg.timeoutMs, INTERACTIVE_TIMEOUT_MS), retry: { ...cfg.retry, ...INTERACTIVE_RETRY } });
    cache.set(base, c);
  }
  return c;
}
