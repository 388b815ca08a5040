import { AppError } from '../../src-shared/errors';
import { createServiceClient, type ServiceClient } from './service/client';
import type { PreferencesService } from './settings/preferences';
import type { SecretStore } from './util/persisted-stores';
import { keyFor, readStoredKey } from './settings/api-key';
import { originOf } from '../../src-shared/contract/settings';

export interface ServiceProvider {
  /** A client for the current settings; throws 'auth' without a key and 'invalid' without a base URL. */
  client(): ServiceClient;
  /** Whether the settings allow any network work at all (a URL and a key). */
  configured(): boolean;
  /** The region and a model label recorded beside cached embeddings. */
  identity(): { region: string; model: string };
}

/**
 * One client per distinct configuration: the rate limiter and the auth/quota state live with the
 * key, so every caller (pipeline, collections, search, Test connection) must share it.
 */
export function createServiceProvider(preferences: PreferencesService, secrets: SecretStore): ServiceProvider {
  let cached: { sig: string; client: ServiceClient } | null = null;
  const current = () => {
    const p = preferences.get();
    return { p, baseUrl: p.baseUrls[p.region] };
  };
  return {
    client() {
      const { p, baseUrl } = current();
      if (!baseUrl) throw new AppError('invalid', 'no service base URL is set for this region (Settings)');
      // Bound to the origin it was saved for: never sent to an address the renderer changed.
      const key = keyFor(secrets, baseUrl);
      const sig = JSON.stringify([p.region, baseUrl, p.authHeader, p.qps, p.concurrency, p.base64VideoField, key]);
      if (cached?.sig !== sig) {
        cached = {
          sig,
          client: createServiceClient({
            region: p.region,
            baseUrls: p.baseUrls,
            apiKey: key,
            authHeader: p.authHeader,
            qps: p.qps,
            concurrency: p.concurrency,
            base64VideoField: p.base64VideoField,
          }),
        };
      }
      return cached.client;
    },
    configured() {
      const { baseUrl } = current();
      const stored = readStoredKey(secrets);
      return !!baseUrl && !!stored && stored.origin === originOf(baseUrl);
    },
    identity() {
      // The spec names no model or version: the region's base URL is the best identity we have.
      const { p, baseUrl } = current();
      return { region: p.region, model: `service@${baseUrl ?? ''}` };
    },
  };
}
