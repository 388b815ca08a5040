/**
 * What persistence the settings hand to the modules that keep something of their own (the team
 * library's opt-in, the preferences, the API key), declared here so a module below settings can take
 * it without importing upwards.
 */

/** What conf and electron-store have in common: a JSON object persisted atomically. */
export interface JsonStore {
  store: Record<string, unknown>;
  readonly path: string;
}

/** Encrypts secrets at rest: Electron's safeStorage (OS keychain) in the app, AES-GCM in web mode. */
export interface SecretCipher {
  readonly kind: 'keychain' | 'encrypted-file';
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

/** Named secrets, encrypted at rest by a SecretCipher. */
export interface SecretStore {
  readonly kind: SecretCipher['kind'];
  get(name: string): string | null;
  set(name: string, value: string): void;
  delete(name: string): void;
}
