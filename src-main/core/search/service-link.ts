import { toAppError } from '../../../src-shared/errors';
import type { SearchFilters, SearchResponse } from '../../../src-shared/contract/search';
import { resolveBaseUrl, resolveConfig, ServiceClient, type ServiceConfig } from '../service';
import { findKeyState, type KeyState } from '../service/key-state';
import { syncCallConfig } from '../service/interactive-client';
import type { RetryOptions } from '../service/http/retry';
import { searchableCollections, searchCollections, type CollectionHit, type CollectionSearchDeps } from './results/collection-hits';
import { createSearchHealth } from './search-health';

export interface ServiceLinkDeps {
  /** The service settings with the key; throws an AppError when the service cannot be used. */
  serviceConfig: () => ServiceConfig;
  /** Retry policy of the interactive calls (tests shorten the deadline). */
  retry?: Partial<RetryOptions>;
  now: () => number;
  /** Service reachability changed. */
  onStatusChange?: () => void;
  /** Once the service is offline (no answer at all), collection searches are skipped for this long. */
  offlineBackoffMs: number;
}

/**
 * Search's calls to the service, someone waiting on each: the interactive client of the current
 * settings, the health they move (search-health.ts), and the two calls a query makes (encode_text,
 * the collection searches), each within the key's budget and with its wait made visible.
 */
export function createServiceLink(d: ServiceLinkDeps) {
  let client: { key: string; client: ServiceClient } | null = null;
  let watched: { state: KeyState; off: () => void } | null = null;
  /**
   * The configured key's shared state, whoever used it (the pipeline's calls move its health as much
   * as search's); its changes are pushed as search.status.
   */
  const keyState = (): KeyState | null => {
    let state: KeyState | undefined;
    try {
      const cfg = resolveConfig(d.serviceConfig());
      state = findKeyState(resolveBaseUrl(cfg.region, cfg.baseUrls), cfg.apiKey);
    } catch {
      state = undefined;
    }
    if (state && watched?.state !== state) {
      watched?.off();
      watched = { state, off: state.onHealth(() => d.onStatusChange?.()) };
    }
    return state ?? null;
  };
  const health = createSearchHealth({ serviceConfig: d.serviceConfig, keyState, now: d.now, onChange: d.onStatusChange });

  /** The interactive client for the current settings (its calls take the key's next token); a settings change gives a new one. */
  function serviceClient(): ServiceClient {
    try {
      const cfg = d.serviceConfig();
      const key = JSON.stringify(cfg);
      if (client?.key === key) return client.client;
      const c = new ServiceClient(syncCallConfig(cfg, d.retry));
      client = { key, client: c };
      keyState();
      health.noteConfigured();
      return c;
    } catch (e) {
      const err = toAppError(e);
      health.noteUnconfigured(err);
      throw err;
    }
  }

  return {
    health,

    /** A text's embedding from the service; throws the AppError the call ended with. */
    async encodeText(text: string): Promise<number[]> {
      const c = serviceClient();
      return (await health.patiently((onRetry) => c.encodeText(text, { onRetry }))).embedding;
    },

    /** The collection searches of a query (each its own call within the key's budget); never throws. */
    async searchCollections(deps: CollectionSearchDeps, text: string, topK: number, filters: SearchFilters): Promise<{ hits: CollectionHit[]; info: SearchResponse['collections'] }> {
      const ids = searchableCollections(deps);
      if (ids.length === 0) return { hits: [], info: null };
      if (health.recentlyUnreachable(d.offlineBackoffMs)) {
        return { hits: [], info: { searched: [], hits: 0, unmapped: 0, error: health.health().error ?? { kind: 'offline', message: 'the service cannot be reached' } } };
      }
      let c: ServiceClient;
      try {
        c = serviceClient();
      } catch (e) {
        return { hits: [], info: { searched: [], hits: 0, unmapped: 0, error: toAppError(e).toJSON() } };
      }
      return health.patiently((onRetry) => searchCollections(deps, ids, c, text, topK, filters, onRetry));
    },
  };
}

export type ServiceLink = ReturnType<typeof createServiceLink>;
