import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS, type Envelope, type MethodName } from '../../../src-shared/contract';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { mutate, rng, sample, setAt, stringLeaves, type StringPools } from '../../helpers/app/contract-arbitrary';

const KEY = 'rs-fuzz-key-0123456789';
const SEED = Number(process.env.FUZZ_SEED ?? 20_291);
/** Calls per method and transport: a few the schema accepts, the rest with hostile values put in. */
const VALID = 4;
const MUTATED = 16;
/** Last: they change what the other methods talk to (the address, the key). */
const LAST: MethodName[] = ['settings.update', 'settings.setApiKey', 'settings.clearApiKey', 'settings.testConnection'];

/**
 * Every method of the contract, fuzzed through the one dispatcher both transports carry: over the
 * web transport's real HTTP (JSON) and the way Electron's IPC handler calls it (a structured
 * clone, which also carries NaN, Infinity, BigInt, Dates, Maps and typed arrays). Arguments come
 * from the zod schemas themselves (test/helpers/app/contract-arbitrary.ts). Whatever comes in, the
 * answer is a value or an error with a kind the UI can act on: never `internal`, never a 5xx.
 */
describe('contract fuzz', () => {
  let tmp: { dir: string; cleanup: () => void };
  let emu: EmulatorHandle;
  let app: WebApp;
  let pools: StringPools;

  const http = async (method: string, args: unknown): Promise<{ status: number; env: Envelope | null }> => {
    const res = await fetch(`${app.server.url}/rpc/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-reelscout-token': app.server.token },
      body: JSON.stringify(args ?? {}),
    });
    const text = await res.text();
    let env: Envelope | null = null;
    try {
      env = JSON.parse(text) as Envelope;
    } catch {
      /* a body that is not JSON is a failure of its own: reported below */
    }
    return { status: res.status, env };
  };
  const ipc = (method: string, args: unknown) => app.core.dispatch(method, structuredClone(args), { transport: 'electron' });

  beforeAll(async () => {
    tmp = tempDir('rs-fuzz-');
    emu = await startEmulator({ keys: [KEY] });
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer);
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html>');
    app = await startWebApp({ dataDir: path.join(tmp.dir, 'data'), rendererDir: renderer });
    const card = path.join(tmp.dir, 'card');
    fs.mkdirSync(card);
    for (const n of ['mdn_flower.mp4', 'intel_asl_book.mkv']) fs.copyFileSync(mediaFile(n), path.join(card, n));
    const call = async (m: MethodName, a: unknown) => {
      const env = await ipc(m, a);
      if (!env.ok) throw new Error(`${m}: ${env.error.message}`);
      return env.value as Record<string, unknown>;
    };
    await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000 });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [card] });
    const col = await call('collections.create', { name: 'fuzz' });
    pools = {
      paths: [card, path.join(card, 'mdn_flower.mp4'), path.join(tmp.dir, 'nowhere')],
      urls: [`${emu.url}/clip.mp4`, emu.url],
      words: ['red', 'Take 1', 'broll', String(col.id), 'close_up', 'handheld'],
    };
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await emu?.close();
    tmp?.cleanup();
  });

  it('refuses NUL and lone surrogates in every string argument of every method', async () => {
    const r = rng(SEED);
    const accepted: string[] = [];
    let leaves = 0;
    for (const name of Object.keys(METHODS) as MethodName[]) {
      const schema = METHODS[name].args;
      for (let i = 0; i < 4; i++) {
        const full = sample(schema, r, pools, '', { full: true });
        for (const leaf of stringLeaves(schema, full)) {
          leaves++;
          for (const bad of ['\u0000', '\ud800', '\udc00']) {
            const valid = leaf.path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], full) as string;
            const args = setAt(full, leaf.path, `${valid.slice(0, 1)}${bad}${valid.slice(1)}`);
            if (schema.safeParse(args).success) accepted.push(`${name}.${leaf.path.join('.')} <- ${JSON.stringify(bad)}`);
          }
        }
      }
    }
    expect(leaves).toBeGreaterThan(40);
    expect([...new Set(accepted)]).toEqual([]);
  });

  it('answers collections.search with a lone-surrogate id as invalid, over both transports', async () => {
    for (const collectionId of ['\ud800', 'a\udfffb']) {
      const web = await http('collections.search', { collectionId, text: 'red' });
      expect(web.status).toBe(200);
      expect(web.env).toMatchObject({ ok: false, error: { kind: 'invalid' } });
      expect(await ipc('collections.search', { collectionId, text: 'red' })).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    }
  });

  it('answers every method, with any arguments, without an internal error', async () => {
    const r = rng(SEED + 1);
    const names = (Object.keys(METHODS) as MethodName[]).sort((a, b) => Number(LAST.includes(a)) - Number(LAST.includes(b)));
    const internal: string[] = [];
    const kinds: Record<string, number> = {};
    let calls = 0;
    for (const name of names) {
      const schema = METHODS[name].args;
      for (let i = 0; i < VALID + MUTATED; i++) {
        const base = sample(schema, r, pools);
        const viaWeb = i < VALID ? base : mutate(base, r);
        const viaIpc = i < VALID ? base : mutate(base, r, { cloneOnly: true });
        const web = await http(name, viaWeb);
        const env = await ipc(name, viaIpc);
        calls += 2;
        if (web.status >= 500 || !web.env) internal.push(`web ${name} ${web.status} ${JSON.stringify(viaWeb)?.slice(0, 200)}`);
        for (const [via, e, a] of [['web', web.env, viaWeb], ['ipc', env, viaIpc]] as const) {
          if (!e) continue;
          const kind = e.ok ? 'ok' : e.error.kind;
          kinds[kind] = (kinds[kind] ?? 0) + 1;
          if (kind === 'internal') internal.push(`${via} ${name} ${(e as { error: { message: string } }).error.message} <- ${String(JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).slice(0, 200)}`);
        }
      }
    }
    console.log(`contract fuzz (seed ${SEED}): ${calls} calls over ${names.length} methods; answers ${JSON.stringify(kinds)}`);
    expect(internal).toEqual([]);
    // The app still answers afterwards.
    expect((await http('app.info', {})).env).toMatchObject({ ok: true });
  }, 300_000);
});
