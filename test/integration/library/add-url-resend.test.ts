import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';

/**
 * Issue 40 item 4, "ask before sending again": Add by URL falls back to encode_video/async when the
 * synchronous call answers 504, and that task's request id is kept in the catalog (url_tasks) the
 * moment the service answers. An add cut off while the task runs (here: its time limit, then the app
 * closed and started again on the same data folder) asks the service about that task when the address
 * is added again (GET /async_status/{id}) and polls it: the service is sent the embedding task once.
 * The emulator counts what it was sent (`/__admin/sends`).
 */
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
const KEY = 'k-add-url-resend';
let emu: EmulatorHandle;
let tmp: { dir: string; cleanup: () => void };
let files: http.Server;
let filesUrl: string;
let app: WebApp | null = null;

async function open(addMs?: number): Promise<WebApp> {
  const a = await startWebApp({ dataDir: tmp.dir, rendererDir: RENDERER, remote: { allowLoopback: true, ...(addMs ? { deadlines: { addMs } } : {}) } });
  await a.core.dispatch('settings.update', { baseUrls: { asia: emu.url } }, { transport: 'test' });
  await a.core.dispatch('settings.setApiKey', { key: KEY }, { transport: 'test' });
  return a;
}

const requests = (name: string) => emu.stats().byEndpoint[name]?.requests ?? 0;
const sent = (what: 'embedding' | 'tagging') => emu.sends().filter((s) => s.what === what).length;

beforeAll(async () => {
  // Every sync call answers 504; a task stays pending long enough for the first add to run out of time.
  emu = await startEmulator({ keys: [KEY], syncTimeoutMs: 20, syncProcessingMs: 200, asyncPendingMs: 8_000, asyncProcessingMs: 200 });
  tmp = tempDir('rs-add-url-resend-');
  files = http.createServer((req, res) => {
    const file = mediaFile(path.basename(decodeURIComponent((req.url ?? '').split('?')[0]!)));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emu?.close();
  await new Promise((r) => files?.close(r));
  tmp?.cleanup();
});

it('an add cut off while its async task runs, added again after a restart: the task is asked about and polled, not sent again', async () => {
  const url = `${filesUrl}/mdn_flower.mp4`;
  app = await open(5_000);
  const first = await app.core.dispatch('library.addUrl', { url }, { transport: 'test' });
  expect(first.ok).toBe(false);
  expect(sent('embedding')).toBe(1); // it had been sent when the add ran out of time
  await app.close();

  app = await open();
  const again = await app.core.dispatch('library.addUrl', { url }, { transport: 'test' });
  expect(again.ok, JSON.stringify(again)).toBe(true);
  expect((again as { value: { via: string } }).value.via).toBe('async');

  expect(sent('embedding')).toBe(1);
  expect(sent('tagging')).toBe(1);
  // Nor was the synchronous call tried again: the recorded task answered first.
  expect(requests('POST /video_embedding/encode_video')).toBe(1);
  expect(requests('GET /async_status/{request_id}')).toBeGreaterThan(0);
}, 90_000);
