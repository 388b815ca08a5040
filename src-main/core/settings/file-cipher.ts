import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../../src-shared/errors';
import type { SecretCipher } from '../util/persisted-stores';

const KEY_BYTES = 32;

/**
 * Where the file cipher (web mode, and Electron on a Linux desktop without a keyring) keeps the
 * master key of a data folder: in the user's own configuration folder
 * (XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on macOS, %APPDATA% on
 * Windows), never inside the data folder, named after the data folder's path. REELSCOUT_KEY_DIR
 * overrides the folder.
 */
export function masterKeyFile(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = os.homedir();
  const base =
    env.REELSCOUT_KEY_DIR ??
    (process.platform === 'win32'
      ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Reelscout', 'keys')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'Reelscout', 'keys')
        : path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'reelscout', 'keys'));
  const id = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 24);
  return path.join(base, `${id}.key`);
}

/**
 * For when there is no OS keychain. The AES-256-GCM master key is derived from
 * REELSCOUT_SECRET_PASSPHRASE, or lives in a 0600 file outside the data folder (masterKeyFile), so a
 * copy of the data folder alone (secrets.json included) does not reveal the API key.
 */
export function createFileCipher(keyFile: string, passphrase = process.env.REELSCOUT_SECRET_PASSPHRASE): SecretCipher {
  const key = passphrase ? crypto.scryptSync(passphrase, 'reelscout-secrets-v1', KEY_BYTES) : loadOrCreateKey(keyFile);
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

/**
 * An existing key is kept and its mode tightened to 0600; one of the wrong length is an error, not
 * replaced: replacing it would silently make every stored secret unreadable.
 */
function loadOrCreateKey(file: string): Buffer {
  let k: Buffer | null = null;
  try {
    k = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new AppError('io', `cannot read the master key ${file}: ${(e as Error).message}`);
  }
  if (k) {
    if (k.length !== KEY_BYTES) {
      throw new AppError('invalid', `the master key ${file} is damaged (${k.length} bytes instead of ${KEY_BYTES}): restore it from a backup, or delete it and enter the API key again`);
    }
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return k;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = crypto.randomBytes(KEY_BYTES);
  // wx: two first starts racing must not write two keys.
  try {
    fs.writeFileSync(file, created, { mode: 0o600, flag: 'wx' });
    return created;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKey(file);
    throw e;
  }
}

/**
 * Earlier versions kept web mode's master key beside secrets.json; it moves out of the data folder
 * on first start (the stored secrets stay readable).
 */
export function moveLegacyKey(dataDir: string, keyFile: string): void {
  const legacy = path.join(dataDir, 'master.key');
  if (!fs.existsSync(legacy) || fs.existsSync(keyFile)) return;
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  fs.copyFileSync(legacy, keyFile, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(keyFile, 0o600);
  fs.rmSync(legacy);
}
