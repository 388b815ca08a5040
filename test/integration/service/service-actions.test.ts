import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';
import { videoCalls } from '../../helpers/app/video-calls';

/**
 * Issue 11, "every endpoint has a use": Add by URL (synchronous encode_video and video_tagging by
 * URL, the async counterparts when the sync call answers 504) and Tag this range now (the range
 * as Base64 to synchronous tagging; tensor mode when the service refuses the body as too large),
 * through the app's RPC against the emulator over real HTTP, with real ffmpeg/ffprobe.
 */
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
const KEY = 'k-actions';
let emu: EmulatorHandle;
let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
let files: http.Server;
let filesUrl: string;

type Ok<T> = { ok: true; value: T };
const call = async <T = unknown>(m: string, a: unknown = {}) => {
  const r = await app.core.dispatch(m, a, { transport: 'test' });
  if (!r.ok) throw new Error(`${m}: ${r.error.kind} ${r.error.message}`);
  return (r as Ok<T>).value;
};
const fail = async (m: string, a: unknown) => {
  const r = await app.core.dispatch(m, a, { transport: 'test' });
  expect(r.ok).toBe(false);
  return (r as { ok: false; error: { kind: string; message: string } }).error;
};
const requests = (name: string) => emu.stats().byEndpoint[name]?.requests ?? 0;

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY] });
  tmp = tempDir('rs-actions-');
  app = await startWebApp({ dataDir: tmp.dir, rendererDir: RENDERER, remote: { allowLoopback: true } });
  await call('settings.update', { baseUrls: { asia: emu.url } });
  await call('settings.setApiKey', { key: KEY });
  // "A review link": the sample clips served over HTTP on loopback, the only host the emulator fetches from.
  files = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '').replace(/^\/clips\//, '').split('?')[0]!);
    const file = mediaFile(path.basename(name));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/clips`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emu?.close();
  await new Promise((r) => files?.close(r));
  tmp?.cleanup();
});

describe('Add by URL', () => {
  it('embeds and tags by URL synchronously, catalogues a remote clip and makes it searchable', async () => {
    const url = `${filesUrl}/sam2_04_coffee.mp4?token=review-link`;
    const before = { enc: requests('POST /video_embedding/encode_video'), tag: requests('POST /video_tagging') };
    const r = await call<{ clipId: number; via: string; segments: number; tags: { field: string; value: string }[] }>('library.addUrl', { url });
    expect(r.via).toBe('sync');
    expect(r.segments).toBeGreaterThanOrEqual(1);
    expect(r.tags.map((t) => t.field)).toContain('shotSize');
    expect(requests('POST /video_embedding/encode_video')).toBe(before.enc + 1);
    expect(requests('POST /video_tagging')).toBe(before.tag + 1);

    const clip = await call<{ sourceUrl: string; name: string; status: string; durationS: number | null; path: string; poster: unknown; filmstrip: { frames: number } | null }>('library.get', { clipId: r.clipId });
    expect(clip.sourceUrl).toBe(url);
    expect(clip.path).toBe(url);
    expect(clip.name).toBe('sam2_04_coffee.mp4');
    expect(clip.status).toBe('done');
    // ffprobe read the URL's header: the clip's real length.
    expect(clip.durationS).toBeGreaterThan(1);
    // This server does not take range requests: the poster and filmstrip come from one pass over the file.
    expect(clip.poster).not.toBeNull();
    expect(clip.filmstrip?.frames).toBe(12);

    // Searchable beside local clips: the similar-segment search of its own segment finds it, offline.
    const tags = await call<{ spans: { segmentId: number | null; tags: { field: string }[] }[] }>('search.clipTags', { clipId: r.clipId });
    const seg = tags.spans.find((s) => s.segmentId !== null)!;
    expect(seg.tags.some((t) => t.field === 'shotSize')).toBe(true);
    const text = await call<{ results: { clipId: number }[] }>('search.text', { text: 'a person with a coffee cup', topK: 50 });
    expect(text.results.map((x) => x.clipId)).toContain(r.clipId);

    // No local stage runs on it, but Jobs counts it with the Library: indexed by the service from its address.
    const jobs = await call<{ clips: { clipId: number; state: string; segments: number; jobs: unknown[] }[] }>('jobs.list', {});
    expect(jobs.clips.find((c) => c.clipId === r.clipId)).toMatchObject({ state: 'done', segments: r.segments, jobs: [] });
    const [summary, library] = [await call<{ clips: { total: number; done: number } }>('jobs.summary', {}), await call<{ total: number }>('library.list', {})];
    expect(summary.clips.total).toBe(library.total);
    // There is no file to hand over or export.
    expect((await fail('files.reveal', { clipId: r.clipId })).message).toMatch(/lives at a URL/);
    expect((await fail('export.build', { format: 'csv', selection: { clipIds: [r.clipId] } })).message).toMatch(/lives at a URL/);

    // Added again: the same clip, not a second one.
    const again = await call<{ clipId: number }>('library.addUrl', { url });
    expect(again.clipId).toBe(r.clipId);
  });

  it('switches to encode_video/async and video_tagging/async when the sync calls answer 504', async () => {
    emu.admin.setConfig({ syncTimeoutMs: 20, syncProcessingMs: 200 });
    try {
      const before = { asyncEnc: requests('POST /video_embedding/encode_video/async'), asyncTag: requests('POST /video_tagging/async') };
      const r = await call<{ clipId: number; via: string; segments: number }>('library.addUrl', { url: `${filesUrl}/mdn_flower.mp4`, name: 'Flower (review v2)' });
      expect(r.via).toBe('async');
      expect(r.segments).toBe(1);
      expect(requests('POST /video_embedding/encode_video/async')).toBe(before.asyncEnc + 1);
      expect(requests('POST /video_tagging/async')).toBe(before.asyncTag + 1);
      expect(emu.stats().byEndpoint['POST /video_embedding/encode_video']?.statuses['504']).toBeGreaterThanOrEqual(1);
      expect((await call<{ name: string }>('library.get', { clipId: r.clipId })).name).toBe('Flower (review v2)');
    } finally {
      emu.admin.setConfig({ syncTimeoutMs: 30_000, syncProcessingMs: 0 });
    }
  });

  it('refuses addresses that are not http(s) or carry credentials, before any request', async () => {
    const before = videoCalls(emu);
    expect((await fail('library.addUrl', { url: 'file:///etc/passwd' })).kind).toBe('invalid');
    expect((await fail('library.addUrl', { url: 'https://user:pw@example.com/a.mp4' })).kind).toBe('invalid');
    expect(videoCalls(emu)).toBe(before);
  });
});

describe('Tag this range now', () => {
  let clipId: number;
  beforeAll(async () => {
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage, { recursive: true });
    fs.copyFileSync(mediaFile('sam2_05_default_juggle.mp4'), path.join(footage, 'juggle.mp4'));
    const summary = await call<{ added: number }>('library.import', { paths: [footage] });
    expect(summary.added).toBe(1);
    const list = await call<{ items: { id: number; name: string }[] }>('library.list', { query: 'juggle' });
    clipId = list.items[0]!.id;
    // The range is cut from what the pipeline's probe read (its first stage, right after the import).
    for (const end = Date.now() + 30_000; (await call<{ durationS: number | null }>('library.get', { clipId })).durationS === null; ) {
      if (Date.now() > end) throw new Error('the clip was never probed');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  it('sends In to Out as a small Base64 file to synchronous tagging and returns the tags', async () => {
    const before = requests('POST /video_tagging');
    const r = await call<{ via: string; bytes: number; tags: { field: string; source: string }[] }>('viewer.tagRange', { clipId, startS: 0.5, endS: 2.0 });
    expect(r.via).toBe('base64');
    expect(r.bytes).toBeGreaterThan(1000);
    expect(r.tags.length).toBeGreaterThan(0);
    expect(r.tags.every((t) => t.source === 'service')).toBe(true);
    expect(requests('POST /video_tagging')).toBe(before + 1);
  });

  it('refuses a range shorter than one frame before any call (issue 29 item 10)', async () => {
    const { fps } = await call<{ fps: number }>('library.get', { clipId });
    const before = videoCalls(emu);
    const err = await fail('viewer.tagRange', { clipId, startS: 1.0, endS: 1.0 + 0.5 / fps });
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/shorter than one frame/);
    expect(videoCalls(emu)).toBe(before);
    // Exactly one frame is a range.
    expect((await call<{ tags: unknown[] }>('viewer.tagRange', { clipId, startS: 1.0, endS: 1.0 + 1 / fps })).tags).toBeDefined();
  });

  it('falls back to tensor mode when the service refuses the body as too large (413)', async () => {
    emu.admin.failNext({ status: 413, endpoint: 'POST /video_tagging', count: 1 });
    const uploads = emu.stats().tensorUploads;
    const asyncTag = requests('POST /video_tagging/async');
    const r = await call<{ via: string; tags: { field: string }[] }>('viewer.tagRange', { clipId, startS: 0.5, endS: 2.0 });
    expect(r.via).toBe('tensor');
    expect(r.tags.length).toBeGreaterThan(0);
    expect(emu.stats().tensorUploads).toBeGreaterThan(uploads);
    expect(requests('POST /video_tagging/async')).toBeGreaterThan(asyncTag);
  });
});
