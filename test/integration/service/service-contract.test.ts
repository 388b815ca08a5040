import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import {
  ServiceClient,
  encodeTensor,
  encodeVideoWithFallback,
  resetSharedKeyStates,
  tagVideoWithFallback,
  tensorRequestId,
  type ServiceConfig,
} from '../../../src-main/core/service';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { fileUrl, makeBrokenClip, makeColourClip } from '../../helpers/footage/test-clips';
import { tempDir } from '../../helpers/paths';

const DIM = 96;
let emu: EmulatorHandle;
let tmp: { dir: string; cleanup: () => void };
let clips: { red: string; blue: string; green: string; broken: string; big: string };
let keyCounter = 0;

/** A fresh key per test: the limiter and the 401/402 stop states are per key. */
function newKey(opts: { qps?: number | null; quota?: number | null } = {}): string {
  const key = `key-${++keyCounter}`;
  emu.admin.setKey({ key, qps: opts.qps ?? null, quota: opts.quota ?? null });
  return key;
}

function client(key: string, over: Partial<ServiceConfig> = {}): ServiceClient {
  return new ServiceClient({
    region: 'asia',
    baseUrls: { asia: emu.url },
    apiKey: key,
    authHeader: 'x-api-key',
    qps: 50,
    concurrency: 4,
    timeoutMs: 20_000,
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    ...over,
  });
}

function requestsTo(endpoint: string, key?: string): Array<{ t: number; status: number }> {
  return emu
    .stats()
    .requestLog.filter((r) => r.endpoint === endpoint && (key === undefined || r.key === key))
    .map((r) => ({ t: r.t, status: r.status }));
}

async function caught(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a rejection');
}

function cos(a: number[], b: number[]): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return d / Math.sqrt(na * nb);
}

function solidFrames(rgb: [number, number, number], t = 4, h = 8, w = 8): Uint8Array {
  const a = new Uint8Array(t * h * w * 3);
  for (let i = 0; i < a.length; i += 3) a.set(rgb, i);
  return a;
}

const FAST_POLL = { initialDelayMs: 20, maxDelayMs: 80, maxWaitMs: 20_000 };

beforeAll(async () => {
  tmp = tempDir('reelscout-contract-');
  clips = {
    red: makeColourClip(tmp.dir, 'red', 'red'),
    blue: makeColourClip(tmp.dir, 'blue', 'blue'),
    green: makeColourClip(tmp.dir, 'green', '0x10c020'),
    broken: makeBrokenClip(tmp.dir),
    big: path.join(tmp.dir, 'big.mp4'),
  };
  fs.writeFileSync(clips.big, Buffer.alloc(600_000, 7));
  emu = await startEmulator({ embeddingDim: DIM, asyncPendingMs: 30, asyncProcessingMs: 60, videoUploadedMs: 30, videoProcessingMs: 120 });
});

afterAll(async () => {
  await emu?.close();
  tmp?.cleanup();
});

beforeEach(() => {
  resetSharedKeyStates();
  emu.admin.setConfig({ errorBody: 'json', listPaging: 'array', tagShape: 'labeled', tagResultField: 'tags', syncTimeoutMs: 30_000, syncProcessingMs: 0, maxBodyBytes: 50_000_000, failureRates: {}, quotaExceeded: false });
});

describe('every endpoint against the emulator', () => {
  it('encodes a video synchronously and text into the same space, any dimension', async () => {
    const c = client(newKey());
    const red = await c.encodeVideo(fileUrl(clips.red));
    const blue = await c.encodeVideo(fileUrl(clips.blue));
    expect(red.dimension).toBe(DIM);
    expect(red.embeddings[0]).toHaveLength(DIM);
    const q = await c.encodeText('red');
    expect(q.dimension).toBe(DIM);
    expect(cos(q.embedding, red.embeddings[0]!)).toBeGreaterThan(cos(q.embedding, blue.embeddings[0]!));
    expect(cos(q.embedding, red.embeddings[0]!)).toBeGreaterThan(0.9);
  });

  it('fetches http video URLs on loopback, refuses other hosts', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/red.mp4') fs.createReadStream(clips.red).pipe(res.writeHead(200, { 'Content-Type': 'video/mp4' }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = server.address() as AddressInfo;
      const c = client(newKey());
      const viaHttp = await c.encodeVideo(`http://127.0.0.1:${port}/red.mp4`);
      const viaFile = await c.encodeVideo(fileUrl(clips.red));
      expect(cos(viaHttp.embeddings[0]!, viaFile.embeddings[0]!)).toBeCloseTo(1, 5);
      expect((await caught(c.encodeVideo(`http://127.0.0.1:${port}/missing.mp4`))).kind).toBe('invalid');
      expect((await caught(c.encodeVideo('http://example.com/red.mp4'))).message).toMatch(/cannot be fetched/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('encodes a video asynchronously by URL, reporting progress until completed', async () => {
    const c = client(newKey());
    const { requestId } = await c.encodeVideoAsync({ videoUrl: fileUrl(clips.green) });
    const seen: string[] = [];
    const done = await c.pollAsyncTask(requestId, { ...FAST_POLL, onProgress: (u) => u.value && seen.push(u.value.status) });
    expect(done.status).toBe('completed');
    expect(seen).toContain('completed');
    expect(seen[0]).toMatch(/pending|processing/);
    const sync = await c.encodeVideo(fileUrl(clips.green));
    expect(done.embedding).toHaveLength(DIM);
    expect(cos(done.embedding!, sync.embeddings[0]!)).toBeCloseTo(1, 5);
  });

  it('uploads tensors idempotently and embeds them in tensor mode', async () => {
    const key = newKey();
    const c = client(key);
    const video = encodeTensor(solidFrames([230, 20, 20]), [4, 8, 8, 3], 'uint8');
    const audio = encodeTensor(new Float32Array(1600).map((_, i) => Math.sin(i / 10)), [1, 1600], 'float32');
    const requestId = tensorRequestId({ profileId: 'test-profile', service: 'embedding', contents: [video, audio] });
    const before = emu.stats();
    const keys = await c.uploadTensors({ service: 'embedding', request_id: requestId, video_input: video, audio_input: audio });
    expect(keys.videoInputKey).toBeTruthy();
    expect(keys.audioInputKey).toBeTruthy();
    const again = await c.uploadTensors({ service: 'embedding', request_id: requestId, video_input: video, audio_input: audio });
    expect(again.videoInputKey).toBe(keys.videoInputKey);
    expect(emu.stats().duplicateTensorUploads - before.duplicateTensorUploads).toBe(1);

    const { requestId: task } = await c.encodeVideoAsync({ tensor: { video_input_key: keys.videoInputKey!, audio_input_key: keys.audioInputKey! } });
    const done = await c.pollAsyncTask(task, FAST_POLL);
    expect(done.status).toBe('completed');
    const red = await c.encodeText('red');
    const blue = await c.encodeText('blue');
    expect(cos(done.embedding!, red.embedding)).toBeGreaterThan(cos(done.embedding!, blue.embedding));
  });

  it('reads storage keys in the list shape too', async () => {
    emu.admin.setConfig({ storageKeysShape: 'list' });
    try {
      const c = client(newKey());
      const video = encodeTensor(solidFrames([20, 20, 230]), [4, 8, 8, 3], 'uint8');
      const keys = await c.uploadTensors({ service: 'tagging', request_id: 'rs-list-shape', video_input: video, video_kwargs: { fps: 2 } });
      expect(keys.videoInputKey).toMatch(/^tk-video/);
      expect(keys.videoKwargsKey).toMatch(/^tk-kwargs/);
    } finally {
      emu.admin.setConfig({ storageKeysShape: 'object' });
    }
  });

  it('tags synchronously by URL and by base64 data (field name is a setting)', async () => {
    const c = client(newKey());
    const byUrl = await c.tagVideo({ videoUrl: fileUrl(clips.red) });
    expect(byUrl.tags.shotSize?.canonical).toBe('close_up');
    expect(byUrl.tags.cameraMovement?.canonical).toBe('static');
    expect(byUrl.tags.shootingAngle?.canonical).toBe('eye_level');
    expect(byUrl.tags.other.dominant_color).toBe('red');
    const b64 = fs.readFileSync(clips.blue).toString('base64');
    const byData = await c.tagVideo({ base64: b64 });
    expect(byData.tags.other.dominant_color).toBe('blue');

    emu.admin.setConfig({ base64Field: 'video_data' });
    try {
      expect((await caught(c.tagVideo({ base64: b64 }))).kind).toBe('invalid');
      const renamed = client(newKey(), { base64VideoField: 'video_data' });
      expect((await renamed.tagVideo({ base64: b64 })).tags.other.dominant_color).toBe('blue');
    } finally {
      emu.admin.setConfig({ base64Field: 'video_base64' });
    }
  });

  it('tags asynchronously by URL and in tensor mode, under every result field and tag shape', async () => {
    const c = client(newKey());
    const cases = [
      ['tags', 'segments'],
      ['result', 'title'],
      ['data', 'nested'],
      ['tags', 'segment-list'],
      ['result', 'flat'],
    ] as const;
    for (const [field, shape] of cases) {
      emu.admin.setConfig({ tagResultField: field, tagShape: shape });
      const { requestId } = await c.tagVideoAsync({ videoUrl: fileUrl(clips.red) });
      const done = await c.pollAsyncTask(requestId, FAST_POLL);
      expect(done.status).toBe('completed');
      expect(done.tags?.shotSize?.canonical, `${field}/${shape}`).toBe('close_up');
      expect(done.tags?.cameraMovement?.canonical, `${field}/${shape}`).toBe('static');
    }
    emu.admin.setConfig({ tagResultField: 'tags', tagShape: 'segments' });
    const video = encodeTensor(solidFrames([250, 225, 0], 6), [6, 8, 8, 3], 'uint8');
    const keys = await c.uploadTensors({ service: 'tagging', request_id: 'rs-tag-tensor', video_input: video, video_kwargs: { fps: 3 } });
    const { requestId } = await c.tagVideoAsync({ tensor: { video_input_key: keys.videoInputKey!, video_kwargs_key: keys.videoKwargsKey! } });
    const done = await c.pollAsyncTask(requestId, FAST_POLL);
    expect(done.tags?.segments?.length).toBeGreaterThanOrEqual(2);
    expect(done.tags?.segments?.[0]?.start).toBe(0);
  });

  it('reports a failed async task with its error_message', async () => {
    const c = client(newKey());
    const bad = encodeTensor(new Uint8Array(4 * 8 * 8), [4, 8, 8], 'uint8'); // not [T,H,W,3]: the task fails
    const keys = await c.uploadTensors({ service: 'embedding', request_id: 'rs-bad-layout', video_input: bad });
    const { requestId } = await c.encodeVideoAsync({ tensor: { video_input_key: keys.videoInputKey! } });
    const done = await c.pollAsyncTask(requestId, FAST_POLL);
    expect(done.status).toBe('failed');
    expect(done.errorMessage).toMatch(/video_input/);
  });

  it('creates and lists collections under every paging variant', async () => {
    const c = client(newKey());
    emu.admin.reset({ data: true });
    const ids: string[] = [];
    for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) ids.push((await c.createCollection(name, `about ${name}`)).collectionId);
    for (const paging of ['array', 'paged-token', 'paged-page', 'paged-next'] as const) {
      emu.admin.setConfig({ listPaging: paging, listPageSize: 2 });
      const before = requestsTo('GET /collections').length;
      const list = await c.listCollections();
      expect(list.map((x) => x.id).sort(), paging).toEqual([...ids].sort());
      expect(list.find((x) => x.id === ids[0])?.name).toBe('alpha');
      expect(requestsTo('GET /collections').length - before).toBe(paging === 'array' ? 1 : 3);
    }
  });

  it('uploads videos with progress, polls their status to processed, and searches by text honouring top_k', async () => {
    const c = client(newKey());
    const { collectionId } = await c.createCollection('colours');
    const fractions: number[] = [];
    const red = await c.uploadVideoToCollection(collectionId, clips.red, { onProgress: (p) => fractions.push(p.fraction) });
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const blue = await c.uploadVideoToCollection(collectionId, clips.blue);
    const green = await c.uploadVideoToCollection(collectionId, clips.green);
    const statuses: string[] = [];
    const progress: number[] = [];
    for (const v of [red, blue, green]) {
      const s = await c.pollVideoStatus(v.videoId, {
        ...FAST_POLL,
        onProgress: (u) => {
          if (!u.value) return;
          statuses.push(u.value.status);
          if (u.value.progress !== undefined) progress.push(u.value.progress);
        },
      });
      expect(s.status).toBe('processed');
    }
    expect(statuses).toContain('processing');
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true);

    const top1 = await c.searchCollection(collectionId, 'red', 1);
    expect(top1.map((h) => h.videoId)).toEqual([red.videoId]);
    const all = await c.searchCollection(collectionId, 'blue', 3);
    expect(all[0]!.videoId).toBe(blue.videoId);
    expect(all).toHaveLength(3);
    expect(all.map((h) => h.similarity)).toEqual([...all.map((h) => h.similarity)].sort((a, b) => b - a));
    expect((await c.searchCollection(collectionId, 'green')).at(0)?.videoId).toBe(green.videoId);
  });

  it('reports a video that cannot be decoded as failed', async () => {
    const c = client(newKey());
    const { collectionId } = await c.createCollection('broken');
    const { videoId } = await c.uploadVideoToCollection(collectionId, clips.broken);
    const s = await c.pollVideoStatus(videoId, FAST_POLL);
    expect(s.status).toBe('failed');
    expect(s.errorMessage).toMatch(/decod/);
  });

  it('sends exactly one auth header, in either form', async () => {
    const before = emu.stats();
    const bearer = client(newKey(), { authHeader: 'bearer' });
    await bearer.encodeText('bright');
    await bearer.listCollections();
    const after = emu.stats();
    expect(after.authHeaderForms.bearer - before.authHeaderForms.bearer).toBe(2);
    expect(after.bothAuthHeaders).toBe(0);
  });

  it('never sends video_url and tensor together', async () => {
    const c = client(newKey());
    const before = emu.stats().totalRequests;
    const both = { videoUrl: fileUrl(clips.red), tensor: { video_input_key: 'x' } } as never;
    expect((await caught(c.encodeVideoAsync(both))).kind).toBe('invalid');
    expect((await caught(c.tagVideoAsync(both))).kind).toBe('invalid');
    expect(emu.stats().totalRequests).toBe(before);
  });
});

describe('one test per row of the error table: the client reacts as the spec says', () => {
  it('400: invalid, message surfaced, not retried', async () => {
    const key = newKey();
    const e = await caught(client(key).encodeVideo('ftp://example.com/clip.mp4'));
    expect(e.kind).toBe('invalid');
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/scheme ftp: is not supported/);
    expect(requestsTo('POST /video_embedding/encode_video', key)).toHaveLength(1);
  });

  it('401: auth, not retried, and the key stops all network work until cleared', async () => {
    const c = client('not-a-key');
    const e = await caught(c.encodeText('red'));
    expect(e.kind).toBe('auth');
    expect(e.status).toBe(401);
    expect(requestsTo('POST /video_embedding/encode_text', 'not-a-key').map((r) => r.status)).toEqual([401]);
    const total = emu.stats().totalRequests;
    expect((await caught(c.listCollections())).kind).toBe('auth');
    expect(emu.stats().totalRequests).toBe(total);
    expect(c.state().authRejected).toBe(true);
    c.clearAuthRejection();
    expect((await caught(c.listCollections())).kind).toBe('auth');
    expect(emu.stats().totalRequests).toBe(total + 1);
  });

  it('402: quota, billable submissions pause (status reads go on) until a probe succeeds', async () => {
    const key = newKey({ quota: 2 });
    const c = client(key);
    await c.encodeText('red');
    const { requestId } = await c.encodeVideoAsync({ videoUrl: fileUrl(clips.red) });
    const e = await caught(c.encodeText('blue'));
    expect(e.kind).toBe('quota');
    expect(c.state().quotaBlocked).toBe(true);
    const n = requestsTo('POST /video_embedding/encode_text', key).length;
    expect((await caught(c.encodeText('green'))).kind).toBe('quota');
    expect(requestsTo('POST /video_embedding/encode_text', key)).toHaveLength(n); // paused locally
    expect((await c.pollAsyncTask(requestId, FAST_POLL)).status).toBe('completed');
    expect(await c.probeQuota()).toBe(false);
    emu.admin.setKey({ key, quota: 10 });
    expect(await c.probeQuota()).toBe(true);
    expect(c.state().quotaBlocked).toBe(false);
    expect((await c.encodeText('green')).dimension).toBe(DIM);
  });

  it('402 switch: a user resume re-opens submissions', async () => {
    const c = client(newKey());
    emu.admin.setConfig({ quotaExceeded: true });
    expect((await caught(c.encodeText('red'))).kind).toBe('quota');
    emu.admin.setConfig({ quotaExceeded: false });
    c.resumeQuota();
    expect((await c.encodeText('red')).dimension).toBe(DIM);
  });

  it('404: not_found, not retried', async () => {
    const key = newKey();
    const c = client(key);
    expect((await caught(c.getAsyncStatus('no-such-task'))).kind).toBe('not_found');
    expect((await caught(c.getVideoStatus('no-such-video'))).kind).toBe('not_found');
    expect((await caught(c.searchCollection('no-such-collection', 'red'))).kind).toBe('not_found');
    expect((await caught(c.encodeVideoAsync({ tensor: { video_input_key: 'tk-missing' } }))).kind).toBe('not_found');
    expect(requestsTo('GET /async_status/{request_id}', key)).toHaveLength(1);
  });

  it('413: too_large for a tensor upload and for a multipart upload, not retried', async () => {
    const key = newKey();
    const c = client(key);
    emu.admin.setConfig({ maxBodyBytes: 200_000 });
    const big = encodeTensor(new Uint8Array(16 * 64 * 64 * 3), [16, 64, 64, 3], 'uint8');
    const e = await caught(c.uploadTensors({ service: 'embedding', request_id: 'rs-too-big', video_input: big }));
    expect(e.kind).toBe('too_large');
    expect(e.status).toBe(413);
    expect(requestsTo('POST /files/upload/tensors', key)).toHaveLength(1);
    const { collectionId } = await c.createCollection('big');
    const u = await caught(c.uploadVideoToCollection(collectionId, clips.big));
    expect(u.kind).toBe('too_large');
    expect(requestsTo('POST /collections/{collection_id}/videos/upload', key)).toHaveLength(1);
  });

  it('422: invalid, with the FastAPI detail surfaced', async () => {
    emu.admin.setConfig({ errorBody: 'fastapi' });
    const key = newKey();
    const c = client(key);
    const { collectionId } = await c.createCollection('x');
    const e = await caught(c.searchCollection(collectionId, 'red', 0));
    expect(e.kind).toBe('invalid');
    expect(e.status).toBe(422);
    expect(e.message).toContain('top_k: must be an integer from 1 to 100');
    const keys = await c.uploadTensors({ service: 'embedding', request_id: 'rs-422', video_input: encodeTensor(solidFrames([1, 2, 3]), [4, 8, 8, 3], 'uint8'), audio_input: encodeTensor(new Float32Array(4), [4], 'float32') });
    const wrongRole = await caught(c.encodeVideoAsync({ tensor: { video_input_key: keys.audioInputKey! } }));
    expect(wrongRole.kind).toBe('invalid');
    expect(wrongRole.message).toMatch(/holds audio_input/);
    expect(requestsTo('POST /video_embedding/encode_video/async', key)).toHaveLength(1);
  });

  it('a tensor whose data does not fit its shape is refused before it is sent', async () => {
    const key = newKey();
    const c = client(key);
    const video = encodeTensor(solidFrames([1, 2, 3]), [4, 8, 8, 3], 'uint8');
    const e = await caught(c.uploadTensors({ service: 'tagging', request_id: 'rs-misshaped', video_input: { ...video, shape: [5, 8, 8, 3] } }));
    expect(e.kind).toBe('invalid');
    expect(e.message).toMatch(/needs 960/);
    expect(requestsTo('POST /files/upload/tensors', key)).toHaveLength(0);
  });

  it('429: the shared limiter slows down, honours Retry-After, and every call succeeds', async () => {
    const key = newKey({ qps: 2 });
    const c = client(key, { qps: 20, concurrency: 8 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => c.encodeText(`rate ${i}`)));
    expect(results.every((r) => r.dimension === DIM)).toBe(true);
    const log = requestsTo('POST /video_embedding/encode_text', key);
    const limited = log.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(log.filter((r) => r.status === 200)).toHaveLength(6);
    const snap = c.state().limiter;
    expect(snap.decreases).toBeGreaterThan(0);
    expect(snap.effectiveQps).toBeLessThan(20);
    // Retry-After is whole seconds (>= 1): after the first 429, nothing is sent before it elapses.
    const first429 = limited[0]!.t;
    const next = log.find((r) => r.t > first429 + 50);
    expect(next).toBeDefined();
    expect(next!.t - first429).toBeGreaterThanOrEqual(900);
  });

  it('500: server, retried a limited number of times, then surfaced', async () => {
    const key = newKey();
    emu.admin.failNext({ status: 500, count: 10, endpoint: 'POST /video_embedding/encode_text' });
    const e = await caught(client(key).encodeText('red'));
    expect(e.kind).toBe('server');
    expect(requestsTo('POST /video_embedding/encode_text', key)).toHaveLength(3);
    emu.admin.reset({ stats: false, data: false }); // drops the injected failures left over
  });

  it('502: upstream, retried with growing backoff until it succeeds', async () => {
    const key = newKey();
    emu.admin.failNext({ status: 502, count: 3, endpoint: 'GET /collections' });
    const c = client(key, { retry: { baseDelayMs: 40, maxDelayMs: 1000 } });
    await c.listCollections();
    const log = requestsTo('GET /collections', key);
    expect(log.map((r) => r.status)).toEqual([502, 502, 502, 200]);
    // Equal jitter: attempt n waits between base*2^n/2 and base*2^n.
    expect(log[1]!.t - log[0]!.t).toBeGreaterThanOrEqual(20 - 2);
    expect(log[2]!.t - log[1]!.t).toBeGreaterThanOrEqual(40 - 2);
    expect(log[3]!.t - log[2]!.t).toBeGreaterThanOrEqual(80 - 2);
  });

  it('504: timeout on the sync call, not retried; the fallback helpers switch to async and succeed', async () => {
    const key = newKey();
    const c = client(key);
    emu.admin.setConfig({ syncTimeoutMs: 50, syncProcessingMs: 1000 });
    const e = await caught(c.encodeVideo(fileUrl(clips.red)));
    expect(e.kind).toBe('timeout');
    expect(e.status).toBe(504);
    expect(requestsTo('POST /video_embedding/encode_video', key)).toHaveLength(1);

    const fallbacks: string[] = [];
    const emb = await encodeVideoWithFallback(c, fileUrl(clips.red), { poll: FAST_POLL, onFallback: (f) => fallbacks.push(f.requestId) });
    expect(emb.via).toBe('async');
    expect(emb.dimension).toBe(DIM);
    const red = await c.encodeText('red');
    expect(cos(emb.embeddings[0]!, red.embedding)).toBeGreaterThan(0.9);
    const tags = await tagVideoWithFallback(c, { videoUrl: fileUrl(clips.blue) }, { poll: FAST_POLL, onFallback: (f) => fallbacks.push(f.requestId) });
    expect(tags.via).toBe('async');
    expect(tags.tags.other.dominant_color).toBe('blue');
    expect(fallbacks).toHaveLength(2);
    expect(requestsTo('POST /video_embedding/encode_video/async', key).map((r) => r.status)).toEqual([200]);
    // Base64 data has no async counterpart: its 504 comes back to the caller.
    expect((await caught(tagVideoWithFallback(c, { base64: fs.readFileSync(clips.red).toString('base64') }))).kind).toBe('timeout');
    emu.admin.setConfig({ syncTimeoutMs: 30_000, syncProcessingMs: 0 });
    expect((await encodeVideoWithFallback(c, fileUrl(clips.red))).via).toBe('sync');
  });

  it('network failure: offline after the retries; a service that comes back is reached by the retry', async () => {
    const c = client(newKey(), { retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 40 } });
    await emu.suspend();
    try {
      expect((await caught(c.encodeText('red'))).kind).toBe('offline');
      const c2 = client(newKey(), { retry: { maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 200 } });
      const pending = c2.encodeText('red');
      setTimeout(() => void emu.resume(), 150);
      expect((await pending).dimension).toBe(DIM);
    } finally {
      await emu.resume();
    }
  });

  it('an AbortSignal cancels polling', async () => {
    const c = client(newKey());
    emu.admin.setConfig({ asyncProcessingMs: 5000 });
    try {
      const { requestId } = await c.encodeVideoAsync({ videoUrl: fileUrl(clips.red) });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      expect((await caught(c.pollAsyncTask(requestId, { ...FAST_POLL, signal: ac.signal }))).kind).toBe('cancelled');
    } finally {
      emu.admin.setConfig({ asyncProcessingMs: 60 });
    }
  });
});
