import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileUrl, makeBrokenClip, makeColourClip } from '../../helpers/footage/test-clips';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An independent probe of the emulator as a user starts it (npm run emulator, child process),
 * with raw fetch only: no code of the app's client. Key k1 allows 5 QPS and 50 billable calls.
 */
let child: ChildProcess;
let base: string;
let tmp: { dir: string; cleanup: () => void };
let red: string;
let blue: string;
let lastK1 = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}


const BILLABLE = /^POST \/(video_embedding\/encode_video(\/async)?|video_embedding\/encode_text|video_tagging(\/async)?|files\/upload\/tensors|collections\/[^/]+\/(search|videos\/upload))$/;
/** Successful billable calls made with k1, to compare with the emulator's quota counter. */
let billableK1 = 0;

/** Paces requests that authenticate as k1 below its 5 QPS, so that only the rate test meets 429. */
async function req(path: string, init: RequestInit & { key?: string | null; json?: unknown } = {}): Promise<Response> {
  const { key = 'k1', json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key) headers.set('X-API-Key', key);
  if (json !== undefined) headers.set('Content-Type', 'application/json');
  const asK1 = key === 'k1' || (key === null && headers.get('Authorization') === 'Bearer k1');
  if (asK1) {
    const wait = lastK1 + 250 - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const r = await fetch(`${base}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  if (asK1) {
    lastK1 = Date.now();
    if (r.status === 200 && BILLABLE.test(`${rest.method ?? 'GET'} ${path}`)) billableK1++;
  }
  return r;
}

function req2(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  return req(path, { ...init, key: 'k2' });
}

async function admin(path: string, json?: unknown): Promise<unknown> {
  const r = await fetch(`${base}/__admin/${path}`, json === undefined ? {} : { method: 'POST', body: JSON.stringify(json), headers: { 'Content-Type': 'application/json' } });
  expect(r.status).toBe(200);
  return r.json();
}

async function body(r: Response): Promise<Record<string, unknown>> {
  return (await r.json()) as Record<string, unknown>;
}

function tensor(bytes: Buffer, shape: number[], dtype: string) {
  return { data: bytes.toString('base64'), shape, dtype };
}

function solid(rgb: [number, number, number], t = 4, h = 8, w = 8): Buffer {
  const b = Buffer.alloc(t * h * w * 3);
  for (let i = 0; i < b.length; i += 3) b.set(rgb, i);
  return b;
}

async function pollTask(id: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 100; i++) {
    const s = await body(await req(`/async_status/${id}`));
    if (seen.at(-1) !== s.status) seen.push(String(s.status));
    if (s.status === 'completed' || s.status === 'failed') return seen;
  }
  throw new Error(`task ${id} did not finish: ${seen.join(' -> ')}`);
}

beforeAll(async () => {
  tmp = tempDir('reelscout-probe-');
  red = makeColourClip(tmp.dir, 'red', 'red');
  blue = makeColourClip(tmp.dir, 'blue', 'blue');
  const port = await freePort();
  child = spawn('npm', ['run', 'emulator', '--', '--port', String(port), '--api-key', 'k1:5:50', '--max-body-bytes', '2000000'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
  });
  expect(base).toBe(`http://127.0.0.1:${port}`);
  // Probes whose answer does not depend on the key use an unlimited second key, so that k1's
  // 5 QPS does not pace them; k1 serves auth, tensor mode, async flows, collections, 429 and 402.
  await admin('keys', { key: 'k2' });
});

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, sleep(5000)]);
  }
  tmp?.cleanup();
});

describe('emulator started with npm run emulator, probed with raw HTTP', () => {
  it('authentication: 401 without or with a wrong key; both header forms; X-API-Key wins when both are sent', async () => {
    expect((await req('/collections', { key: null })).status).toBe(401);
    expect((await req('/collections', { key: 'wrong' })).status).toBe(401);
    expect((await req('/collections', { key: null, headers: { Authorization: 'Bearer k1' } })).status).toBe(200);
    expect((await req('/collections', { key: null, headers: { Authorization: 'Basic k1' } })).status).toBe(401);
    expect((await req('/collections')).status).toBe(200);
    expect((await req('/collections', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(200);
    expect((await req('/collections', { key: 'wrong', headers: { Authorization: 'Bearer k1' } })).status).toBe(401);
    const r = await req('/files/upload/tensors', { key: null, method: 'POST', headers: { Authorization: 'Bearer k1' }, json: { service: 'embedding', request_id: 'auth-probe', video_input: tensor(solid([9, 9, 9]), [4, 8, 8, 3], 'uint8') } });
    expect(r.status).toBe(200);
  });

  it('validation: 400 malformed JSON or ambiguous input, 422 missing or inconsistent fields, 404 unknown ids and paths', async () => {
    expect((await req2('/video_embedding/encode_text', { method: 'POST', body: '{"text": ', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    expect((await req2('/video_embedding/encode_text', { method: 'POST', json: ['red'] })).status).toBe(400);
    expect((await req2('/video_embedding/encode_text', { method: 'POST', json: {} })).status).toBe(422);
    expect((await req2('/video_embedding/encode_text', { method: 'POST', json: { text: 7 } })).status).toBe(422);
    expect((await req2('/video_embedding/encode_video', { method: 'POST', json: {} })).status).toBe(422);
    expect((await req2('/video_embedding/encode_video/async', { method: 'POST', json: { video_url: fileUrl(red), tensor: { video_input_key: 'x' } } })).status).toBe(400);
    expect((await req2('/video_tagging/async', { method: 'POST', json: {} })).status).toBe(422);
    const short = await req2('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'bad-len', video_input: tensor(Buffer.alloc(10), [4, 8, 8, 3], 'uint8') } });
    expect(short.status).toBe(422);
    expect(JSON.stringify(await short.json())).toMatch(/needs 768/);
    const f32 = await req2('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'bad-f32', video_input: tensor(Buffer.alloc(768), [4, 8, 8, 3], 'float32') } });
    expect(f32.status).toBe(422);
    expect((await req2('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'bad-dtype', video_input: tensor(Buffer.alloc(8), [8], 'complex128') } })).status).toBe(422);
    expect((await req2('/files/upload/tensors', { method: 'POST', json: { service: 'translation', request_id: 'x', video_input: tensor(Buffer.alloc(8), [8], 'uint8') } })).status).toBe(422);
    expect((await req2('/files/upload/tensors', { method: 'POST', json: { service: 'tagging', video_input: tensor(Buffer.alloc(8), [8], 'uint8') } })).status).toBe(422);
    expect((await req2('/video_embedding/encode_video/async', { method: 'POST', json: { tensor: { video_input_key: 'tk-nope' } } })).status).toBe(404);
    expect((await req2('/async_status/nope')).status).toBe(404);
    expect((await req2('/videos/nope/status')).status).toBe(404);
    expect((await req2('/collections/nope/search', { method: 'POST', json: { text: 'red' } })).status).toBe(404);
    expect((await req2('/no/such/path')).status).toBe(404);
    expect((await req2('/video_embedding/encode_text')).status).toBe(405);
  });

  it('tensor mode: upload (idempotent per request_id and content), async embedding and tagging by storage key', async () => {
    // Slow enough that polling below 5 QPS sees every state.
    await admin('config', { asyncPendingMs: 300, asyncProcessingMs: 600 });
    const upload = { service: 'embedding', request_id: 'probe-emb-1', video_input: tensor(solid([230, 20, 20]), [4, 8, 8, 3], 'uint8'), audio_input: tensor(Buffer.alloc(4 * 1600), [1, 1600], 'float32') };
    const r1 = await body(await req('/files/upload/tensors', { method: 'POST', json: upload }));
    const keys = r1.storage_keys as Record<string, string>;
    expect(keys.video_input_key).toBeTruthy();
    expect(keys.audio_input_key).toBeTruthy();
    const r2 = await body(await req('/files/upload/tensors', { method: 'POST', json: upload }));
    expect(r2.storage_keys).toEqual(keys);

    const sub = await body(await req('/video_embedding/encode_video/async', { method: 'POST', json: { tensor: { video_input_key: keys.video_input_key, audio_input_key: keys.audio_input_key } } }));
    expect(typeof sub.request_id).toBe('string');
    const flow = await pollTask(String(sub.request_id));
    expect(flow.at(-1)).toBe('completed');
    expect(flow).toEqual(['pending', 'processing', 'completed']);
    expect(flow.filter((s) => !['pending', 'processing', 'completed'].includes(s))).toEqual([]);
    const done = await body(await req(`/async_status/${String(sub.request_id)}`));
    const emb = done.embedding as number[];
    expect(emb).toHaveLength(512);
    const redText = (await body(await req('/video_embedding/encode_text', { method: 'POST', json: { text: 'red' } }))).embedding as number[];
    const dot = emb.reduce((a, x, i) => a + x * redText[i]!, 0);
    expect(dot).toBeGreaterThan(0.9);

    const tagUp = await body(await req('/files/upload/tensors', { method: 'POST', json: { service: 'tagging', request_id: 'probe-tag-1', video_input: tensor(solid([20, 20, 230], 6), [6, 8, 8, 3], 'uint8'), video_kwargs: { fps: 2 } } }));
    const tk = tagUp.storage_keys as Record<string, string>;
    expect(tk.video_kwargs_key).toBeTruthy();
    // An embedding key is not a tagging key: the roles are checked.
    expect((await req('/video_tagging/async', { method: 'POST', json: { tensor: { video_input_key: tk.video_input_key, audio_input_key: keys.audio_input_key } } })).status).toBe(422);
    const tagSub = await body(await req('/video_tagging/async', { method: 'POST', json: { tensor: { video_input_key: tk.video_input_key, video_kwargs_key: tk.video_kwargs_key } } }));
    expect((await pollTask(String(tagSub.request_id))).at(-1)).toBe('completed');
    const tagDone = await body(await req(`/async_status/${String(tagSub.request_id)}`));
    expect(tagDone.tags).toBeTruthy();
    expect(JSON.stringify(tagDone.tags)).toMatch(/shot_size/);
  });

  it('async flows by URL end completed; an unreadable tensor ends failed with error_message', async () => {
    const sub = await body(await req('/video_tagging/async', { method: 'POST', json: { video_url: fileUrl(red) } }));
    expect((await pollTask(String(sub.request_id))).at(-1)).toBe('completed');
    const bad = await body(await req('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'probe-bad-layout', video_input: tensor(Buffer.alloc(64), [64], 'uint8') } }));
    const badSub = await body(await req('/video_embedding/encode_video/async', { method: 'POST', json: { tensor: { video_input_key: (bad.storage_keys as Record<string, string>).video_input_key } } }));
    expect((await pollTask(String(badSub.request_id))).at(-1)).toBe('failed');
    const failed = await body(await req(`/async_status/${String(badSub.request_id)}`));
    expect(String(failed.error_message)).toMatch(/video_input/);
  });

  it('sync endpoints: encode_video by URL, video_tagging by URL and by base64', async () => {
    const e = await body(await req2('/video_embedding/encode_video', { method: 'POST', json: { video_url: fileUrl(red) } }));
    expect((e.embeddings as number[][])[0]).toHaveLength(512);
    const t = await body(await req2('/video_tagging', { method: 'POST', json: { video_url: fileUrl(blue) } }));
    expect(JSON.stringify(t.tags)).toMatch(/"dominant_color":"blue"/);
    const b = await body(await req2('/video_tagging', { method: 'POST', json: { video_base64: fs.readFileSync(red).toString('base64') } }));
    expect(JSON.stringify(b.tags)).toMatch(/"dominant_color":"red"/);
  });

  it('collections: create, list, multipart upload with status flow, search honouring top_k', async () => {
    await admin('config', { videoUploadedMs: 300, videoProcessingMs: 1500 });
    const created = await body(await req('/collections', { method: 'POST', json: { name: 'probe', description: 'colours' } }));
    const cid = String(created.collection_id);
    expect((await req('/collections', { method: 'POST', json: { description: 'no name' } })).status).toBe(422);
    const list = (await (await req('/collections')).json()) as Array<{ id: string; name: string }>;
    expect(list.find((c) => c.id === cid)?.name).toBe('probe');

    const upload = async (file: string) => {
      const fd = new FormData();
      fd.append('note', 'a field before the file');
      fd.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), 'clip.mp4');
      return req(`/collections/${cid}/videos/upload`, { method: 'POST', body: fd });
    };
    const redId = String((await body(await upload(red))).video_id);
    const blueId = String((await body(await upload(blue))).video_id);
    const brokenId = String((await body(await upload(makeBrokenClip(tmp.dir)))).video_id);
    const noFile = new FormData();
    noFile.append('other', 'x');
    expect((await req(`/collections/${cid}/videos/upload`, { method: 'POST', body: noFile })).status).toBe(422);
    expect((await req(`/collections/${cid}/videos/upload`, { method: 'POST', json: { file: 'x' } })).status).toBe(400);

    // Round-robin polling, so each video is seen in every state it passes through.
    const flows: Record<string, string[]> = { [redId]: [], [blueId]: [], [brokenId]: [] };
    for (let round = 0; round < 60; round++) {
      const open = Object.keys(flows).filter((id) => !['processed', 'failed'].includes(flows[id]!.at(-1) ?? ''));
      if (open.length === 0) break;
      for (const id of open) {
        const s = await body(await req(`/videos/${id}/status`));
        const tag = s.status === 'processing' && typeof s.progress === 'number' ? 'processing%' : String(s.status);
        if (flows[id]!.at(-1) !== tag) flows[id]!.push(tag);
      }
    }
    expect(flows[redId]!.at(-1)).toBe('processed');
    expect(flows[blueId]!.at(-1)).toBe('processed');
    expect(flows[brokenId]!.at(-1)).toBe('failed');
    expect(Object.values(flows).flat().every((s) => ['uploaded', 'processing%', 'processed', 'failed'].includes(s))).toBe(true);
    expect(flows[blueId]).toContain('processing%');
    expect(flows[brokenId]).toContain('processing%');

    const top1 = await body(await req(`/collections/${cid}/search`, { method: 'POST', json: { text: 'red', top_k: 1 } }));
    expect((top1.results as Array<{ video_id: string }>).map((r) => r.video_id)).toEqual([redId]);
    const top5 = (await body(await req(`/collections/${cid}/search`, { method: 'POST', json: { text: 'blue', top_k: 5 } }))).results as Array<{ video_id: string; similarity: number }>;
    expect(top5.map((r) => r.video_id)).toEqual([blueId, redId]);
    expect(top5[0]!.similarity).toBeGreaterThan(top5[1]!.similarity);
    expect((await req(`/collections/${cid}/search`, { method: 'POST', json: { text: 'red', top_k: 0 } })).status).toBe(422);
  });

  it('413 over --max-body-bytes, for JSON and for multipart, checked while streaming', async () => {
    const big = Buffer.alloc(1_600_000, 1);
    const r = await req2('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'too-big', video_input: tensor(big, [big.length], 'uint8') } });
    expect(r.status).toBe(413);
    const cid = String((await body(await req2('/collections', { method: 'POST', json: { name: 'big' } }))).collection_id);
    const fd = new FormData();
    fd.append('file', new Blob([Buffer.alloc(2_100_000, 2)], { type: 'video/mp4' }), 'big.mp4');
    expect((await req2(`/collections/${cid}/videos/upload`, { method: 'POST', body: fd })).status).toBe(413);
    // A chunked body (no Content-Length) is counted as it streams.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 30; i++) c.enqueue(new Uint8Array(100_000).fill(32));
        c.close();
      },
    });
    const chunked = await req2('/video_embedding/encode_text', { method: 'POST', body: stream, headers: { 'Content-Type': 'application/json' }, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('429 above 5 QPS, with Retry-After', async () => {
    await sleep(1100);
    const before = ((await admin('stats')) as { byEndpoint: Record<string, { statuses: Record<string, number> }> }).byEndpoint['GET /collections']?.statuses['429'] ?? 0;
    const all = await Promise.all(Array.from({ length: 9 }, () => fetch(`${base}/collections`, { headers: { 'X-API-Key': 'k1' } })));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const limited = all.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const after = ((await admin('stats')) as { byEndpoint: Record<string, { statuses: Record<string, number> }> }).byEndpoint['GET /collections']!.statuses['429'];
    // No other request of this probe met 429: the pacing kept below the limit everywhere else.
    expect(before).toBe(0);
    expect(after).toBe(4);
    await sleep(1100);
    lastK1 = Date.now();
  });

  it('402 once the key has used its 50 billable calls; status reads still answer', async () => {
    const keys = (await admin('keys')) as Array<{ key: string; used: number; quota: number }>;
    const k1 = keys.find((k) => k.key === 'k1')!;
    expect(k1.quota).toBe(50);
    // Quota counts successful billable calls, exactly those this probe made.
    expect(k1.used).toBe(billableK1);
    await admin('keys', { key: 'k1', used: 48 });
    expect((await req('/video_embedding/encode_text', { method: 'POST', json: { text: 'call 49' } })).status).toBe(200);
    expect((await req('/video_embedding/encode_text', { method: 'POST', json: { text: 'call 50' } })).status).toBe(200);
    const over = await req('/video_embedding/encode_text', { method: 'POST', json: { text: 'call 51' } });
    expect(over.status).toBe(402);
    expect(JSON.stringify(await over.json())).toMatch(/quota/);
    expect((await req('/files/upload/tensors', { method: 'POST', json: { service: 'embedding', request_id: 'after-quota', video_input: tensor(solid([1, 1, 1]), [4, 8, 8, 3], 'uint8') } })).status).toBe(402);
    expect((await req('/collections')).status).toBe(200);
    expect(((await admin('keys')) as Array<{ key: string; used: number }>).find((k) => k.key === 'k1')!.used).toBe(50);
  });
});
