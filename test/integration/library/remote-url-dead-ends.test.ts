import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';
import { startReviewServer, type ReviewServer } from '../../helpers/app/review-server';
import { callOk } from '../../helpers/app/app-call';

/**
 * Issue 41 item 3: Add by URL's last hangs and dead ends, against real HTTP servers on loopback
 * and the service emulator. An address that answers Reelscout (range requests) but never answers
 * the service's own download (a plain GET) ends within the add's limit, nothing added; a server
 * that ignores range requests still gives the clip a poster (its file copied once and read
 * locally) and Tag this range now works on it; no answer quotes ffmpeg.
 */
const KEY = 'k-remote-dead-ends';
const FLOWER = mediaFile('mdn_flower.mp4');
const LIMIT_MS = 20_000;
const FFMPEG_WORDS = /Error marking filters|Invalid data found|ffmpeg|ffprobe|\bav_|demux/i;

let emu: EmulatorHandle;
let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
let ranged: ReviewServer;
let noRanges: ReviewServer;

const call = <T = unknown>(m: string, a: unknown = {}) => callOk<T>(app.core, m, a);

beforeAll(async () => {
  // The service answers 504 to a sync call after 5 s, so the add goes on to the async task, which waits on the download.
  emu = await startEmulator({ keys: [KEY], syncTimeoutMs: 5000 });
  tmp = tempDir('rs-remote-dead-');
  // Reelscout asks with a Range header; the service's download has none and is never answered.
  ranged = await startReviewServer({ '/stall.mp4': FLOWER }, { routes: [(req) => req.url === '/stall.mp4' && req.headers.range === undefined] });
  noRanges = await startReviewServer({ '/flower.mp4': FLOWER }, { ranges: false });
  app = await startWebApp({
    dataDir: tmp.dir,
    rendererDir: path.join(REPO_ROOT, 'out', 'renderer'),
    remote: { allowLoopback: true, deadlines: { addMs: LIMIT_MS } },
  });
  await call('settings.update', { baseUrls: { asia: emu.url } });
  await call('settings.setApiKey', { key: KEY });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emu?.close();
  await ranged?.close();
  await noRanges?.close();
  tmp?.cleanup();
});

describe('Add by URL ends, and says why in plain words', () => {
  it('an address that stalls the service ends within the limit: timeout, nothing added', async () => {
    const started = Date.now();
    const r = await app.core.dispatch('library.addUrl', { url: `${ranged.url}/stall.mp4` }, { transport: 'test' });
    const took = Date.now() - started;
    expect(r.ok).toBe(false);
    const err = (r as { ok: false; error: { kind: string; message: string } }).error;
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/Stopped after 20 s.*Nothing was added/);
    expect(took).toBeLessThan(LIMIT_MS + 5000);
    const list = await call<{ items: { sourceUrl: string | null }[] }>('library.list', {});
    expect(list.items.some((c) => c.sourceUrl?.endsWith('/stall.mp4'))).toBe(false);
  }, 45_000);

  it('a server without range requests: the clip gets its poster, Tag this range now answers, no ffmpeg words, no copy left', async () => {
    const r = await call<{ clipId: number; stillsError: string | null }>('library.addUrl', { url: `${noRanges.url}/flower.mp4` });
    expect(r.stillsError ?? '').not.toMatch(FFMPEG_WORDS);
    expect(r.stillsError).toBeNull();
    const clip = await call<{ poster: { path: string } | null; filmstrip: { frames: number } | null }>('library.get', { clipId: r.clipId });
    expect(clip.poster).not.toBeNull();
    expect(clip.filmstrip?.frames).toBe(12);
    const tagged = await call<{ via: string; tags: unknown[] }>('viewer.tagRange', { clipId: r.clipId, startS: 1, endS: 2.5 });
    expect(tagged.via).toBe('base64');
    const spool = path.join(tmp.dir, 'cache', 'remote-spool');
    expect(fs.existsSync(spool) ? fs.readdirSync(spool) : []).toEqual([]);
  }, 90_000);
});
