import fs from 'node:fs';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { framePatternInstallScript } from '../../helpers/footage/frame-pattern';
import type { PlaybackClip } from '../../helpers/footage/playback-footage';
import { launchApp, type E2eApp } from '../harness';

export interface PlaybackApp {
  e: E2eApp;
  emu: EmulatorHandle;
  /** The footage folder the clips were imported from. */
  card: string;
  /** Each clip's id by its name. */
  ids: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The app the playback e2e tests drive: Chromium with the frame-pattern reader installed (the frame
 * number burnt into a picture, test/helpers/footage/frame-pattern.ts), the emulator, and `clips` imported
 * from one folder with a proxy for every clip (the native ones too, so every clip plays with its
 * folder away). Resolves once every clip is indexed whole and has its proxy: a proxy a test forgets
 * before its clip's indexing ends would be made again then.
 */
export async function startPlaybackApp(clips: readonly PlaybackClip[], key: string): Promise<PlaybackApp> {
  const emu = await startEmulator({ keys: [key], asyncPendingMs: 5, asyncProcessingMs: 5 });
  const e = await launchApp({ viewport: { width: 1280, height: 720 }, beforeGoto: (page) => page.addInitScript({ content: framePatternInstallScript() }) });
  const close = async () => {
    await e.close();
    await emu.close();
  };
  const card = path.join(e.dataDir, 'card');
  fs.mkdirSync(card, { recursive: true });
  for (const c of clips) fs.copyFileSync(c.file, path.join(card, `${c.name}${path.extname(c.file)}`));
  const call = async <T,>(m: string, a: unknown): Promise<T> => {
    const r = await e.app.core.dispatch(m, a, { transport: 'test' });
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as T;
  };
  await call('settings.update', { baseUrls: { asia: emu.url }, qps: 1000, proxies: 'always' });
  await call('settings.setApiKey', { key });
  await call('library.import', { paths: [card] });
  const ids = new Map<string, number>();
  for (const c of (await call<{ items: { id: number; name: string }[] }>('library.list', { sort: 'name' })).items) ids.set(c.name.replace(/\.[^.]+$/, ''), c.id);
  const db = e.app.core.db;
  const ready = () => (db.prepare('SELECT COUNT(*) AS n FROM clips c JOIN proxies p ON p.clip_id = c.id WHERE c.indexed_at IS NOT NULL').get() as { n: number }).n;
  const end = Date.now() + 240_000;
  while (ready() < clips.length) {
    if (Date.now() > end) throw new Error(`the playback card was not indexed with its proxies in time (${ready()} of ${clips.length})`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return { e, emu, card, ids, close };
}
