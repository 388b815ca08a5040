import { toAppError, type AppError, type AppErrorData } from '../../../src-shared/errors';
import type { SearchStatus } from '../../../src-shared/contract/search';
import { resolveBaseUrl, resolveConfig, type ServiceConfig } from '../service';
import type { KeyState } from '../service/key-state';
import type { RetryInfo } from '../service/http/retry';
import { INITIAL_HEALTH } from '../service/service-health';

/**
 * What search tells the editor about the service: the health of the key's every call (the pipeline's
 * too: service/key-state.ts keeps one health per key and service, fed by the transport), whether the
 * settings allow a call at all, and the wait of a call someone is waiting for. No call is made to
 * find out.
 */
export interface SearchHealthDeps {
  serviceConfig: () => ServiceConfig;
  /** The shared state of the configured key, once a client exists for it. */
  keyState: () => KeyState | null;
  now: () => number;
  onChange?: () => void;
}

export function createSearchHealth(d: SearchHealthDeps) {
  let waiting: SearchStatus['service']['waiting'] = null;
  /** Set while the configuration itself is missing (no key, no address). */
  let unconfigured: AppErrorData | null = null;

  const health = () => d.keyState()?.health ?? INITIAL_HEALTH;

  return {
    health,

    /** No key or address: recorded as such, and never counted as the service failing. */
    noteUnconfigured(err: AppError): void {
      if (JSON.stringify(unconfigured) !== JSON.stringify(err.toJSON())) {
        unconfigured = err.toJSON();
        d.onChange?.();
      }
    },

    noteConfigured(): void {
      if (unconfigured) {
        unconfigured = null;
        d.onChange?.();
      }
    },

    /** Runs a call with its wait made visible (attempts, deadline); the wait ends with the call. */
    async patiently<T>(call: (onRetry: (info: RetryInfo) => void) => Promise<T>): Promise<T> {
      const onRetry = (info: RetryInfo) => {
        if (info.deadlineAt === undefined) return;
        waiting = { since: waiting?.since ?? d.now(), attempts: (waiting?.attempts ?? 0) + 1, deadlineAt: info.deadlineAt, error: info.error.toJSON() };
        d.onChange?.();
      };
      try {
        return await call(onRetry);
      } finally {
        if (waiting) {
          waiting = null;
          d.onChange?.();
        }
      }
    },

    /** Offline (no answer at all) within the last `backoffMs`: collection searches are not tried. */
    recentlyUnreachable(backoffMs: number): boolean {
      const h = health();
      return h.state === 'offline' && h.checkedAt !== null && d.now() - h.checkedAt < backoffMs;
    },

    status(): SearchStatus['service'] {
      const h = health();
      let state: SearchStatus['service']['state'] = h.state;
      let error = h.error;
      if (unconfigured || state === 'unknown') {
        // Cheap local check, no network: is there a key and an address at all?
        try {
          const cfg = resolveConfig(d.serviceConfig());
          resolveBaseUrl(cfg.region, cfg.baseUrls);
        } catch (e) {
          state = 'unconfigured';
          error = unconfigured ?? toAppError(e).toJSON();
        }
      }
      // Without a usable configuration nothing answers: no emulator to speak of either.
      return { state, error, checkedAt: h.checkedAt, waiting, emulator: state !== 'unconfigured' && h.emulator };
    },
  };
}

export type SearchHealth = ReturnType<typeof createSearchHealth>;
