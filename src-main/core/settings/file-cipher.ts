import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretCipher } from './secret-store';

/**
 * Web mode has no OS keychain. The master key lives in its own 0600 file (or is derived from
 * REELSCOUT_SECRET_PASSPHRASE), apart from the ciphertext, so a copied settings folder or a
 * leaked secrets file alone does not reveal the API key.
 */
export function createFileCipher(keyFile: string, passphrase = process.env.REELSCOUT_SECRET_PASSPHRASE): SecretCipher {
  const key = passphrase ? crypto.scryptSync(passphrase, 'reelscout-secrets-v1', 32) : loadOrCreateKey(keyFile);
  return {
    kind: 'encrypted-file',
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([Buffer.from([1]), iv, c.getAuthTag(), body]);
    },
    decrypt(data) {
      if (data[0] !== 1 || data.length < 29) throw new Error('unknown secret format');
      const d = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(1, 13));
      d.setAuthTag(data.subarray(13, 29));
      return Buffer.concat([d.update(data.subarray(29)), d.final()]).toString('utf8');
    },
  };
}

function loadOrCreateKey(file: string): Buffer {
  try {
    const k = fs.readFileSync(file);
    if (k.length === 32) return k;
  } catch {
    /* first run */
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const k = crypto.randomBytes(32);
  fs.writeFileSync(file, k, { mode: 0o600 });
  return k;
}
