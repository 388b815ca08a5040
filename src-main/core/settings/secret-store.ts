import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';
import type { SecretCipher, SecretStore } from '../util/persisted-stores';


const fileSchema = z.record(z.string(), z.string());

/** A small JSON file of name -> base64(ciphertext); plaintext never touches the disk. */
export function createSecretStore(file: string, cipher: SecretCipher): SecretStore {
  const read = (): Record<string, string> => {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  };
  const write = (data: Record<string, string>) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    fs.renameSync(tmp, file);
  };
  return {
    kind: cipher.kind,
    get(name) {
      const entry = read()[name];
      if (!entry) return null;
      try {
        return cipher.decrypt(Buffer.from(entry, 'base64'));
      } catch (e) {
        // A keychain reset or a copied profile: the secret is unreadable, ask for it again.
        throw new AppError('auth', `stored ${name} cannot be decrypted on this machine; enter it again`, { cause: e });
      }
    },
    set(name, value) {
      const data = read();
      data[name] = cipher.encrypt(value).toString('base64');
      write(data);
    },
    delete(name) {
      const data = read();
      delete data[name];
      write(data);
    },
  };
}
