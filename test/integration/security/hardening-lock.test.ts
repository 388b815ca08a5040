import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetSharedKeyStates } from '../../../src-main/core/service/key-state';
import { acquireDataDirLock, LOCK_NAME } from '../../../src-main/core/util/data-dir-lock';
import { startWebApp } from '../../../src-main/web/web-app';
import type { JobsSummary } from '../../../src-shared/contract/jobs';
import { startEmulator } from '../../emulator/server';
import { makeColourClip } from '../../helpers/footage/test-clips';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'lock-test-key-4410';
const RENDERER = path.join(REPO_ROOT, 'out', 'renderer');

describe('one owner per data folder', () => {
  const tmp = tempDir('rs-hardening-lock-');
  afterAll(() => tmp.cleanup());

  it('a second lock on the folder is refused with the holder named; a dead holder is taken over', () => {
    const dir = path.join(tmp.dir, 'unit');
    const lock = acquireDataDirLock(dir, 'web');
    expect(() => acquireDataDirLock(dir, 'electron')).toThrow(new RegExp(`in use by another Reelscout \\(process ${process.pid}, web, since `));
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_NAME))).toBe(false);
    // A lock left by a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(path.join(dir, LOCK_NAME), JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), transport: 'web', startedAt: 1 }));
    const taken = acquireDataDirLock(dir, 'web');
    expect(JSON.parse(fs.readFileSync(taken.file, 'utf8'))).toMatchObject({ pid: process.pid });
    taken.release();
  });

  it('a second instance on a running one refuses before touching anything, and the first loses nothing', async () => {
    resetSharedKeyStates();
    const emu = await startEmulator({ keys: [KEY], latencyMs: 150, asyncPendingMs: 100, asyncProcessingMs: 300 });
    const dataDir = path.join(tmp.dir, 'data');
    const footage = path.join(tmp.dir, 'footage');
    fs.mkdirSync(footage, { recursive: true });
    for (const c of ['red', 'green', 'blue', 'yellow']) makeColourClip(footage, c, c, { seconds: 2 });
    const first = await startWebApp({ dataDir, rendererDir: RENDERER });
    try {
      const call = (m: string, a: unknown = {}) => first.core.dispatch(m, a, { transport: 'test' });
      await call('settings.update', { baseUrls: { asia: emu.url } });
      await call('settings.setApiKey', { key: KEY });
      expect((await call('library.import', { paths: [footage] })).ok).toBe(true);
      const summary = async () => ((await call('jobs.summary')) as { value: JobsSummary }).value;
      // Wait until service work is under way, so the second start would have something to steal.
      await waitUntil(() => emu.stats().tensorUploads > 0, 60_000, 'the first uploads');

      const second = spawnSync(process.execPath, [path.join(REPO_ROOT, 'out', 'main', 'web.js'), '--data-dir', dataDir, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
      expect(second.status).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`in use by another Reelscout \\(process ${process.pid}, web, since `));

      let last: JobsSummary | null = null;
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        last = await summary();
        if (last.clips.done + last.clips.failed === last.clips.total && last.clips.total === 4) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(last?.clips).toMatchObject({ total: 4, done: 4, failed: 0 });
      const st = emu.stats();
      expect(st.duplicateTensorUploads).toBe(0);
      expect(st.duplicateTaskSubmissions).toBe(0);
    } finally {
      await first.close();
      await emu.close();
    }
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(false);
  }, 180_000);
});
