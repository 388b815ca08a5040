import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfJsonStore } from '../../../src-main/core/settings/conf-store';
import { createFileCipher } from '../../../src-main/core/settings/file-cipher';
import { createPreferences, maskKey } from '../../../src-main/core/settings/preferences';
import { createSecretStore } from '../../../src-main/core/settings/secret-store';
import { createLogger, redact } from '../../../src-main/core/util/logger';
import { AppError } from '../../../src-shared/errors';
import { tempDir } from '../../helpers/paths';

const KEY = 'sk-test-9b8c7d6e5f4a3b2c1d';
let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('preferences', () => {
  it('defaults, updates, persists and validates', () => {
    const dir = tmp();
    const prefs = createPreferences(createConfJsonStore(dir));
    expect(prefs.get()).toMatchObject({ region: 'asia', authHeader: 'x-api-key', qps: 5, concurrency: 4 });
    prefs.update({ baseUrls: { asia: 'https://api.example.com' }, qps: 12 });
    const again = createPreferences(createConfJsonStore(dir)).get();
    expect(again.baseUrls.asia).toBe('https://api.example.com');
    expect(again.qps).toBe(12);
    expect(() => prefs.update({ region: 'usa' })).toThrow(AppError);
    expect(() => prefs.update({ baseUrls: { asia: 'ftp://x' } })).toThrow(/http/);
  });

  it('keeps valid fields of a hand-damaged file and defaults the rest', () => {
    const dir = tmp();
    const store = createConfJsonStore(dir);
    store.store = { qps: 'fast', concurrency: 3, authHeader: 'bearer' };
    const p = createPreferences(store).get();
    expect(p).toMatchObject({ qps: 5, concurrency: 3, authHeader: 'bearer' });
  });
});

describe('secrets', () => {
  it('stores the key encrypted, never in plaintext, and reads it back', () => {
    const dir = tmp();
    const store = createSecretStore(path.join(dir, 'secrets.json'), createFileCipher(path.join(dir, 'master.key')));
    store.set('service.apiKey', KEY);
    const raw = fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8');
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(store.get('service.apiKey')).toBe(KEY);
    expect((fs.statSync(path.join(dir, 'master.key')).mode & 0o077) === 0 || process.platform === 'win32').toBe(true);
    store.delete('service.apiKey');
    expect(store.get('service.apiKey')).toBeNull();
  });

  it('a secrets file without its key cannot be read: auth error, asking for the key again', () => {
    const dir = tmp();
    const a = createSecretStore(path.join(dir, 'secrets.json'), createFileCipher(path.join(dir, 'a.key')));
    a.set('service.apiKey', KEY);
    const b = createSecretStore(path.join(dir, 'secrets.json'), createFileCipher(path.join(dir, 'b.key')));
    expect(() => b.get('service.apiKey')).toThrow(expect.objectContaining({ kind: 'auth' }));
  });

  it('masks keys', () => {
    expect(maskKey(KEY)).toBe('••••••••2c1d');
    expect(maskKey(null)).toBe('');
    expect(maskKey('abc')).toBe('••••');
  });
});

describe('logger redaction', () => {
  it('never writes a registered secret, a key-named field or a bearer token', async () => {
    const dir = tmp();
    const file = path.join(dir, 'main.log');
    const log = createLogger({ file });
    log.addSecret(KEY);
    log.info(`request with ${KEY}`, { headers: { 'X-API-Key': KEY, Authorization: `Bearer ${KEY}` }, nested: [{ msg: `k=${KEY}` }] });
    log.error('failed', { apiKey: 'other-secret-value', url: 'http://h/x', auth: 'Bearer abc.def' });
    await new Promise((r) => setTimeout(r, 100));
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('other-secret-value');
    expect(text).not.toContain('abc.def');
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    expect(redact({ token: 'x' }, new Set())).toEqual({ token: '***' });
  });
});
