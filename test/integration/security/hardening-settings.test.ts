import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import { createFileCipher, masterKeyFile } from '../../../src-main/core/settings/file-cipher';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { makeColourClip } from '../../helpers/footage/test-clips';
import { REPO_ROOT, tempDir } from '../../helpers/paths';

const KEY = 'hardening-key-91f3';
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');

/** A listener of the tester's: records every request and the auth headers it carried. */
async function listener(): Promise<{ url: string; seen: { path: string; key: string | undefined; bearer: string | undefined }[]; close(): Promise<void> }> {
  const seen: { path: string; key: string | undefined; bearer: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, bearer: req.headers.authorization });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

describe('hardening: the API key stays with its origin', () => {
  let emu: EmulatorHandle;
  let app: WebApp;
  let tmp: { dir: string; cleanup: () => void };
  let evil: Awaited<ReturnType<typeof listener>>;
  const call = async (m: string, a: unknown = {}) => app.core.dispatch(m, a, { transport: 'test' });

  beforeAll(async () => {
    resetSharedKeyStates();
    emu = await startEmulator({ keys: [KEY] });
    evil = await listener();
    tmp = tempDir('rs-hardening-key-');
    app = await startWebApp({ dataDir: tmp.dir, rendererDir: RENDERER });
    expect((await call('settings.update', { baseUrls: { asia: emu.url } })).ok).toBe(true);
    expect((await call('settings.setApiKey', { key: KEY })).ok).toBe(true);
  });
  afterAll(async () => {
    await app?.close();
    await emu?.close();
    await evil?.close();
    tmp.cleanup();
  });

  it('works against the address it was saved for', async () => {
    expect(await call('settings.testConnection', {})).toMatchObject({ ok: true, value: { ok: true } });
    expect(await call('settings.get')).toMatchObject({ value: { apiKey: { set: true, usable: true, origin: emu.url } } });
  });

  it('refuses plain http to another machine as a service address', async () => {
    const r = await call('settings.update', { baseUrls: { asia: 'http://203.0.113.9:8080' } });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect((await call('settings.update', { baseUrls: { asia: 'https://user:pw@service.example' } })).ok).toBe(false);
    expect((await call('settings.update', { baseUrls: { asia: 'https://service.example' } })).ok).toBe(true);
  });

  it('never sends the stored key to an address the renderer changed, by any path', async () => {
    expect((await call('settings.update', { baseUrls: { asia: evil.url } })).ok).toBe(true);
    expect(await call('settings.get')).toMatchObject({ value: { apiKey: { set: true, usable: false, origin: emu.url } } });
    const test = await call('settings.testConnection', {});
    expect(test).toMatchObject({ ok: true, value: { ok: false, error: { kind: 'auth' } } });
    const explicit = await call('settings.testConnection', { baseUrl: evil.url });
    expect(explicit).toMatchObject({ ok: true, value: { ok: false, error: { kind: 'auth' } } });
    await call('collections.list', { refresh: true });
    await call('search.text', { text: 'a query never searched', topK: 5 });
    await call('jobs.resume', {});
    expect(evil.seen.filter((r) => r.key !== undefined || r.bearer !== undefined)).toEqual([]);
  });

  it('the key typed again for the new address is bound to it', async () => {
    expect((await call('settings.setApiKey', { key: 'another-key-for-evil' })).ok).toBe(true);
    expect(await call('settings.get')).toMatchObject({ value: { apiKey: { usable: true, origin: evil.url } } });
    expect(await call('settings.testConnection', {})).toMatchObject({ value: { ok: true } });
    expect(evil.seen.at(-1)).toMatchObject({ key: 'another-key-for-evil' });
  });

  it('Test connection tests what the form holds, without saving it', async () => {
    const before = await call('settings.get');
    const r = await call('settings.testConnection', { baseUrl: emu.url, apiKey: KEY, authHeader: 'bearer' });
    expect(r).toMatchObject({ value: { ok: true } });
    expect(await call('settings.get')).toEqual(before);
    // A wrong typed key is the form's answer, not the saved one's.
    expect(await call('settings.testConnection', { baseUrl: emu.url, apiKey: 'wrong-key-123' })).toMatchObject({ value: { ok: false, error: { kind: 'auth' } } });
  });
});

describe('hardening: the API key never follows a redirect to another origin', () => {
  let app: WebApp;
  let tmp: { dir: string; cleanup: () => void };
  let evil: Awaited<ReturnType<typeof listener>>;
  let saved: http.Server;
  let savedUrl: string;
  const seenAtSaved: { path: string; key: string | undefined }[] = [];
  const call = async (m: string, a: unknown = {}) => app.core.dispatch(m, a, { transport: 'test' });

  beforeAll(async () => {
    resetSharedKeyStates();
    evil = await listener();
    // The saved origin: /away/* answers 307 to the other port, /old/* 308 to /new/* on itself.
    saved = http.createServer((req, res) => {
      seenAtSaved.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
      req.resume();
      const p = req.url ?? '/';
      if (p.startsWith('/away/')) res.writeHead(307, { location: `${evil.url}/${p.slice('/away/'.length)}` }).end();
      else if (p.startsWith('/old/')) res.writeHead(308, { location: `/new/${p.slice('/old/'.length)}` }).end();
      else if (p === '/new/collections') res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"c1","name":"moved"}]');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => saved.listen(0, '127.0.0.1', () => r()));
    savedUrl = `http://127.0.0.1:${(saved.address() as { port: number }).port}`;
    tmp = tempDir('rs-hardening-redirect-');
    app = await startWebApp({ dataDir: tmp.dir, rendererDir: RENDERER });
  });
  afterAll(async () => {
    await app?.close();
    await evil?.close();
    await new Promise((r) => saved?.close(r));
    tmp.cleanup();
  });

  it('a 307 from the saved origin to another port is refused: the other port never sees the key', async () => {
    expect((await call('settings.update', { baseUrls: { asia: `${savedUrl}/away` } })).ok).toBe(true);
    expect((await call('settings.setApiKey', { key: KEY })).ok).toBe(true);
    const test = await call('settings.testConnection', {});
    expect(test).toMatchObject({ ok: true, value: { ok: false, error: { kind: 'invalid' } } });
    expect(JSON.stringify(test)).toMatch(/redirected to another origin/);
    await call('collections.list', { refresh: true });
    await call('search.text', { text: 'a query that is redirected', topK: 5 });
    expect(seenAtSaved.filter((r) => r.path.startsWith('/away/')).length).toBeGreaterThanOrEqual(2);
    expect(evil.seen.filter((r) => r.key !== undefined || r.bearer !== undefined)).toEqual([]);
  });

  it('a redirect within the saved origin is followed with the key', async () => {
    expect((await call('settings.update', { baseUrls: { asia: `${savedUrl}/old` } })).ok).toBe(true);
    expect(await call('settings.testConnection', {})).toMatchObject({ ok: true, value: { ok: true, collections: 1 } });
    // (Searches warm in the background may come in between: look for the hop, not the last request.)
    expect(seenAtSaved).toContainEqual({ path: '/new/collections', key: KEY });
  });
});

describe('hardening: programs the app runs', () => {
  const tmp = tempDir('rs-hardening-tools-');
  const marker = path.join(tmp.dir, 'ran.txt');
  const script = path.join(tmp.dir, 'ffprobe');
  let app: WebApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });
  afterAll(() => tmp.cleanup());

  beforeAll(() => {
    fs.writeFileSync(script, `#!/bin/sh\necho pwned > ${marker}\necho 'ffprobe version 9.9'\n`, { mode: 0o755 });
  });

  it('an RPC cannot set ffmpeg or ffprobe', async () => {
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'a'), rendererDir: RENDERER });
    const r = await app.core.dispatch('settings.update', { ffprobePath: script }, { transport: 'test' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(app.core.preferences.get().ffprobePath).toBe('');
    // Web mode has no dialog: the flag or the environment chooses.
    const choose = await app.core.dispatch('settings.chooseTool', { tool: 'ffprobe' }, { transport: 'test' });
    expect(choose).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringMatching(/--ffprobe/) } });
  });

  it('a script given as ffprobe is refused without being run; the real one is accepted', async () => {
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    makeColourClip(footage, 'red', 'red', { seconds: 1 });
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'b'), rendererDir: RENDERER, toolPaths: { ffprobe: script } });
    const tools = await app.core.dispatch('settings.tools', {}, { transport: 'test' });
    const probe = (tools as { value: { tools: { tool: string; error: { message: string } | null }[] } }).value.tools.find((t) => t.tool === 'ffprobe')!;
    expect(probe.error?.message).toMatch(/not a program binary/);
    const imported = await app.core.dispatch('library.import', { paths: [footage] }, { transport: 'test' });
    // The import catalogues; the pipeline's probe stage, the first to run a tool, fails the clip's
    // probe with the reason, and nothing ran the script.
    expect(imported).toMatchObject({ ok: true, value: { added: 1 } });
    const probeJob = async () => {
      const r = (await app!.core.dispatch('jobs.list', { filter: 'all' }, { transport: 'test' })) as { value: { clips: { state: string; stage: string; errorKind: string | null; errorMessage: string | null }[] } };
      return r.value.clips[0];
    };
    await expect.poll(async () => (await probeJob())?.state, { timeout: 60_000 }).toBe('failed');
    expect(await probeJob()).toMatchObject({ stage: 'probe', errorKind: 'media', errorMessage: expect.stringMatching(/ffprobe: .* is not a program binary/) });
    expect(fs.existsSync(marker)).toBe(false);
    await app.close();

    const real = execFileSync('sh', ['-c', 'command -v ffprobe'], { encoding: 'utf8' }).trim();
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'c'), rendererDir: RENDERER, toolPaths: { ffprobe: real } });
    const ok = (await app.core.dispatch('settings.tools', {}, { transport: 'test' })) as { value: { tools: { tool: string; source: string; version: string | null }[] } };
    expect(ok.value.tools.find((t) => t.tool === 'ffprobe')).toMatchObject({ source: 'flag', version: expect.stringMatching(/^ffprobe version /) });
  });
});

describe('hardening: web-mode secrets', () => {
  it('a copy of the data folder alone does not reveal the key', async () => {
    const tmp = tempDir('rs-hardening-secrets-');
    try {
      const dataDir = path.join(tmp.dir, 'data');
      const app = await startWebApp({ dataDir, rendererDir: RENDERER });
      await app.core.dispatch('settings.update', { baseUrls: { asia: 'https://service.example' } }, { transport: 'test' });
      await app.core.dispatch('settings.setApiKey', { key: 'copied-key-must-stay-secret' }, { transport: 'test' });
      await app.close();
      const files = fs.readdirSync(dataDir, { recursive: true }) as string[];
      expect(files.some((f) => /master\.key$|\.key$/.test(f))).toBe(false);
      for (const f of files) {
        const p = path.join(dataDir, f);
        if (fs.statSync(p).isFile()) expect(fs.readFileSync(p).includes('copied-key-must-stay-secret'), f).toBe(false);
      }
      expect(fs.existsSync(masterKeyFile(dataDir))).toBe(true);

      // The copy, opened on another machine (another key folder): the key cannot be read.
      const copy = path.join(tmp.dir, 'copy');
      fs.cpSync(dataDir, copy, { recursive: true });
      const thief = await startWebApp({ dataDir: copy, rendererDir: RENDERER, keyFile: path.join(tmp.dir, 'thief', 'k.key') });
      const view = (await thief.core.dispatch('settings.get', {}, { transport: 'test' })) as { value: { apiKey: { set: boolean } } };
      expect(view.value.apiKey.set).toBe(false);
      await thief.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('tightens a 0644 master key to 0600, and refuses a damaged one instead of replacing it', () => {
    const tmp = tempDir('rs-hardening-mkey-');
    try {
      const loose = path.join(tmp.dir, 'loose.key');
      fs.writeFileSync(loose, Buffer.alloc(32, 7), { mode: 0o644 });
      fs.chmodSync(loose, 0o644);
      createFileCipher(loose, '');
      expect(fs.statSync(loose).mode & 0o777).toBe(0o600);
      const short = path.join(tmp.dir, 'short.key');
      fs.writeFileSync(short, Buffer.alloc(31, 7));
      expect(() => createFileCipher(short, '')).toThrow(/damaged \(31 bytes instead of 32\)/);
      expect(fs.readFileSync(short).length).toBe(31);
    } finally {
      tmp.cleanup();
    }
  });
});
