import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopShell } from '../../../src-main/core/files/files-handlers';
import type { MethodName } from '../../../src-shared/contract';
import type { AppCore } from '../../../src-main/core/app-core';
import type { WebServer } from '../../../src-main/web/web-server';
import { servedAppCore } from '../../helpers/app/electron-app-core';
import { mediaFile, tempDir } from '../../helpers/paths';

/**
 * A catalogued clip is checked at the moment it is handed out, by the one resolver behind
 * `/media/clip/<id>` (web), `rs-media://clip/<id>` (Electron: the same core.resolveMedia) and the
 * desktop shell's Open, Reveal and drag: its real path must be a regular file of the catalogued
 * size and fingerprint.
 */
describe('served clips are the files catalogued', () => {
  const tmp = tempDir('rs-clip-file-');
  const card = path.join(tmp.dir, 'card');
  const handed: string[][] = [];
  const shell: DesktopShell = {
    reveal: (f) => void handed.push(['reveal', f]),
    open: async (f) => void handed.push(['open', f]),
    startDrag: (files) => void handed.push(['drag', ...files]),
    saveFiles: async () => [],
  };
  let core: AppCore;
  let server: WebServer;
  const ids: Record<string, number> = {};

  const call = async (method: MethodName, args: unknown) => core.dispatch(method, args, { transport: 'electron' });
  const media = (clipId: number) => fetch(`${server.url}/media/clip/${clipId}`, { headers: { 'x-reelscout-token': server.token } });

  beforeAll(async () => {
    fs.mkdirSync(card, { recursive: true });
    fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(card, 'a.mp4'));
    fs.copyFileSync(mediaFile('intel_asl_book.mkv'), path.join(card, 'c.mkv'));
    fs.copyFileSync(mediaFile('mdn_friday.mp4'), path.join(card, 'b.mp4'));
    const dataDir = path.join(tmp.dir, 'data');
    ({ core, server } = await servedAppCore({ dataDir, keyFile: path.join(tmp.dir, 'master.key'), rendererDir: tmp.dir, desktop: shell }));
    const imported = await call('library.import', { paths: [card] });
    expect(imported).toMatchObject({ ok: true, value: { added: 3 } });
    const list = await call('library.list', { limit: 10 });
    for (const c of (list as { value: { items: { id: number; name: string }[] } }).value.items) ids[c.name] = c.id;
  });

  afterAll(async () => {
    await server?.close();
    await core?.dispose();
    tmp.cleanup();
  });

  it('serves and hands out the catalogued files, also through a link left where one was moved', async () => {
    // The same file, moved elsewhere with a link in its place: still the file catalogued.
    fs.renameSync(path.join(card, 'b.mp4'), path.join(tmp.dir, 'real-b.mp4'));
    fs.symlinkSync(path.join(tmp.dir, 'real-b.mp4'), path.join(card, 'b.mp4'));
    for (const name of ['a.mp4', 'b.mp4', 'c.mkv']) {
      const res = await media(ids[name]!);
      expect(res.status, name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(card, name)))).toBe(true);
    }
    expect(await call('files.open', { clipId: ids['b.mp4']! })).toEqual({ ok: true, value: { ok: true } });
    expect(handed.pop()).toEqual(['open', path.join(tmp.dir, 'real-b.mp4')]);
  });

  it('refuses a clip file swapped for a symbolic link to /etc/passwd, for playback, Open, Reveal and drag alike', async () => {
    const a = path.join(card, 'a.mp4');
    expect((await media(ids['a.mp4']!)).status).toBe(200);
    fs.rmSync(a);
    fs.symlinkSync('/etc/passwd', a);
    const res = await media(ids['a.mp4']!);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/root:/);
    for (const [method, args] of [
      ['files.open', { clipId: ids['a.mp4'] }],
      ['files.reveal', { clipId: ids['a.mp4'] }],
      ['files.startDrag', { clipIds: [ids['b.mp4'], ids['a.mp4']] }],
    ] as const) {
      const env = await call(method, args);
      expect(env, method).toMatchObject({ ok: false, error: { kind: 'invalid' } });
      expect(JSON.stringify(env)).toMatch(/not the file catalogued as a\.mp4/);
    }
    expect(handed).toEqual([]);
  });

  it('refuses a file of the same size whose content changed, and serves one only touched', async () => {
    const c = path.join(card, 'c.mkv');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(c, later, later);
    expect((await media(ids['c.mkv']!)).status).toBe(200);
    const bytes = fs.readFileSync(c);
    bytes.fill(7, 0, 4096);
    fs.writeFileSync(c, bytes);
    expect((await media(ids['c.mkv']!)).status).toBe(404);
    expect(await call('files.open', { clipId: ids['c.mkv']! })).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(handed).toEqual([]);
  });
});
