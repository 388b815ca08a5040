import { app, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import type { JsonStore, SecretCipher } from '../core/util/persisted-stores';
import { createFileCipher, masterKeyFile, moveLegacyKey } from '../core/settings/file-cipher';
import type { Logger } from '../core/util/logger';

export function createElectronJsonStore(): JsonStore {
  const store = new ElectronStore<Record<string, unknown>>({ name: 'preferences' });
  return {
    get store() {
      return store.store;
    },
    set store(v) {
      store.store = v;
    },
    path: store.path,
  };
}

/**
 * safeStorage puts the key in the OS keychain (Keychain, DPAPI, libsecret/kwallet). On a Linux
 * desktop without a keyring it would only obfuscate, so we fall back to our own AES-GCM file
 * cipher rather than pretend.
 */
export function createKeychainCipher(logger: Logger): SecretCipher {
  const weakLinux = process.platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (!safeStorage.isEncryptionAvailable() || weakLinux) {
    logger.warn('secrets.keychain.unavailable', { fallback: 'encrypted-file' });
    // The key file lives outside the data folder, as in web mode (file-cipher.ts).
    const dataDir = app.getPath('userData');
    const keyFile = masterKeyFile(dataDir);
    moveLegacyKey(dataDir, keyFile);
    return createFileCipher(keyFile);
  }
  return {
    kind: 'keychain',
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}
