import { originOf } from '../../../src-shared/contract/settings';
import { AppError } from '../../../src-shared/errors';
import type { SecretStore } from '../util/persisted-stores';

export const API_KEY_SECRET = 'service.apiKey';
/** The origin (scheme, host, port) the key was saved for: it is sent nowhere else. */
export const API_KEY_ORIGIN_SECRET = 'service.apiKey.origin';

export interface StoredKey {
  key: string;
  /** null for a key saved before keys were bound (bound at the next start, see bindLegacyKey). */
  origin: string | null;
}

function readSecret(secrets: SecretStore, name: string): string | null {
  try {
    return secrets.get(name);
  } catch {
    return null;
  }
}

export function readStoredKey(secrets: SecretStore): StoredKey | null {
  const key = readSecret(secrets, API_KEY_SECRET);
  return key ? { key, origin: readSecret(secrets, API_KEY_ORIGIN_SECRET) } : null;
}

export function storeKey(secrets: SecretStore, key: string, baseUrl: string): void {
  const origin = originOf(baseUrl);
  if (!origin) throw new AppError('invalid', 'set the service address before the API key: the key is saved for that address only');
  secrets.set(API_KEY_SECRET, key);
  secrets.set(API_KEY_ORIGIN_SECRET, origin);
}

export function clearKey(secrets: SecretStore): void {
  secrets.delete(API_KEY_SECRET);
  secrets.delete(API_KEY_ORIGIN_SECRET);
}

/**
 * The key to send to baseUrl: only to the origin it was saved for. A renderer that points the
 * address elsewhere (another host, plain http) gets an 'auth' refusal, not the key.
 */
export function keyFor(secrets: SecretStore, baseUrl: string): string {
  const stored = readStoredKey(secrets);
  if (!stored) throw new AppError('auth', 'no API key is set (Settings)');
  const target = originOf(baseUrl);
  if (stored.origin !== target) {
    throw new AppError('auth', `the API key was saved for ${stored.origin ?? 'another address'}, not ${target || 'this address'}: enter it again for this address (Settings)`);
  }
  return stored.key;
}

/** A key saved by an older version has no origin: it belongs to the address it was used with. */
export function bindLegacyKey(secrets: SecretStore, baseUrl: string): void {
  const stored = readStoredKey(secrets);
  if (stored && stored.origin === null && originOf(baseUrl)) secrets.set(API_KEY_ORIGIN_SECRET, originOf(baseUrl));
}
