import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { CatalogSession } from '../../../src-main/core/catalog/catalog-session';
import { lookAtDisk } from '../../../src-main/core/catalog/disk-look';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import { acquireDataDirLock, LOCK_NAME } from '../../../src-main/core/util/data-dir-lock';
import { createDiskGuard, type DiskRoom } from '../../../src-main/core/util/disk-space';
import { tempDir } from '../../helpers/paths';

const MB = 1e6;
const room = (free: number, needed = 4 * MB): DiskRoom => ({ ok: free >= needed, freeBytes: free, neededBytes: needed });
const words = (r: DiskRoom) => `${r.freeBytes / MB} MB free of ${r.neededBytes / MB} MB`;

describe('lookAtDisk: what a look at the disk means for the catalog', () => {
  it('an open catalog whose disk filled is opened again (read-only); with room it stays', () => {
    expect(lookAtDisk({ state: 'ok', message: null }, room(1 * MB), null)).toEqual({ kind: 'reopen' });
    expect(lookAtDisk({ state: 'ok', message: null }, room(9 * MB), null)).toEqual({ kind: 'stay' });
  });

  it('read-only or waiting for room: opened again once there is room, the figures said anew until then', () => {
    for (const state of ['read_only', 'no_room'] as const) {
      expect(lookAtDisk({ state, message: '1 MB free of 4 MB' }, room(5 * MB), words)).toEqual({ kind: 'reopen' });
      // The figure said while waiting is the one that opens it: the bar and a tenth of it.
      expect(lookAtDisk({ state, message: '1 MB free of 4 MB' }, room(2 * MB), words)).toEqual({ kind: 'say', message: '2 MB free of 4.4 MB' });
      expect(lookAtDisk({ state, message: '2 MB free of 4.4 MB' }, room(2 * MB), words)).toEqual({ kind: 'stay' });
    }
  });

  it('a disk hovering at the bar does not flip the library: read-only until a tenth of the bar is spare', () => {
    expect(lookAtDisk({ state: 'read_only', message: 'full' }, room(4 * MB), words)).toEqual({ kind: 'say', message: '4 MB free of 4.4 MB' });
    expect(lookAtDisk({ state: 'read_only', message: 'full' }, room(4.3 * MB), words)).toEqual({ kind: 'say', message: '4.3 MB free of 4.4 MB' });
    expect(lookAtDisk({ state: 'read_only', message: 'full' }, room(4.4 * MB), words)).toEqual({ kind: 'reopen' });
    // Open again, it stays writable down to the bar itself.
    expect(lookAtDisk({ state: 'ok', message: null }, room(4 * MB), null)).toEqual({ kind: 'stay' });
  });

  it('a damaged catalog waits for the editor, whatever the disk does', () => {
    expect(lookAtDisk({ state: 'damaged', message: 'damaged' }, room(0), words)).toEqual({ kind: 'stay' });
    expect(lookAtDisk({ state: 'damaged', message: 'damaged' }, room(9 * MB), words)).toEqual({ kind: 'stay' });
  });
});

/**
 * The session with the free space injected (createDiskGuard's reader): the states follow the
 * figures on any machine, where the integration test (disk-full-states) needs a real small disk.
 */
describe('the catalog session follows the disk', () => {
  const tmp = tempDir('rs-catalog-disk-');
  let session: CatalogSession<{ readOnly: boolean; dispose(): Promise<void> }> | null = null;
  afterEach(async () => {
    await session?.close();
    session = null;
  });
  afterAll(() => tmp.cleanup());

  const make = (dir: string, free: { bytes: number }, compose = (_db: CatalogDb, readOnly: boolean) => ({ readOnly, dispose: async () => {} })) => {
    const events = new EventBus();
    const seen: CatalogHealth[] = [];
    events.subscribe((e, p) => e === 'catalog.health' && seen.push(p as CatalogHealth));
    session = new CatalogSession({
      file: path.join(dir, 'catalog.sqlite'),
      backupsDir: path.join(dir, 'backups'),
      disk: createDiskGuard(dir, 4 * MB, () => free.bytes),
      events,
      counters: { clips: () => 0, ranges: () => 0 },
      compose,
      recovery: () => ({ readOnly: true, dispose: async () => {} }),
      intervals: { diskMs: 20 },
    });
    return { s: session, seen };
  };
  const until = async (s: NonNullable<typeof session>, ok: (h: CatalogHealth) => boolean) => {
    // The guard reads the disk at most once a second.
    for (const t0 = Date.now(); Date.now() - t0 < 5000; await new Promise((r) => setTimeout(r, 25))) if (ok(s.health())) return s.health();
    throw new Error(`still ${s.health().state}: ${s.health().message}`);
  };

  it('ok, read-only once the disk fills (the figures following it), and writable again with room', async () => {
    const dir = path.join(tmp.dir, 'open');
    const free = { bytes: 100 * MB };
    const { s, seen } = make(dir, free);
    await s.open();
    expect(s.health().state).toBe('ok');
    expect((await s.current()).readOnly).toBe(false);

    free.bytes = 3 * MB;
    const full = await until(s, (h) => h.state === 'read_only');
    expect(full.message).toMatch(/has 3\.0 MB free; Reelscout needs at least 4\.4 MB/);
    expect((await s.current()).readOnly).toBe(true);
    expect(() => s.catalog().prepare('CREATE TABLE t (x)').run()).toThrow();

    free.bytes = 1 * MB;
    expect((await until(s, (h) => h.message !== full.message)).message).toMatch(/has 1\.0 MB free/);
    free.bytes = 50 * MB;
    await until(s, (h) => h.state === 'ok');
    expect((await s.current()).readOnly).toBe(false);
    expect(seen.map((h) => h.state)).toEqual(['ok', 'read_only', 'read_only', 'ok']);
  });

  it('no catalog and no room: no_room, not damaged, refusing with the figures; the catalog starts by itself with room', async () => {
    const dir = path.join(tmp.dir, 'first');
    fs.mkdirSync(dir, { recursive: true });
    const free = { bytes: 1 * MB };
    const { s } = make(dir, free);
    await s.open();
    expect(s.health()).toMatchObject({ state: 'no_room', message: expect.stringMatching(/has 1\.0 MB free; Reelscout needs at least 4\.4 MB.*starts by itself/) });
    expect(s.unavailable().kind).toBe('disk_full');
    await expect(s.startNew()).rejects.toMatchObject({ kind: 'disk_full' });
    expect(fs.existsSync(path.join(dir, 'catalog.sqlite'))).toBe(false);

    free.bytes = 10 * MB;
    await until(s, (h) => h.state === 'ok');
    expect(fs.existsSync(path.join(dir, 'catalog.sqlite'))).toBe(true);
  });

  it('a write of the open that meets a full disk while the figures said there was room: no_room, waiting for more room than there was', async () => {
    const dir = path.join(tmp.dir, 'met-full');
    const free = { bytes: 100 * MB };
    let refusals = 1;
    const { s } = make(dir, free, (_db, readOnly) => {
      if (refusals-- > 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return { readOnly, dispose: async () => {} };
    });
    await s.open();
    expect(s.health()).toMatchObject({ state: 'no_room', message: expect.stringMatching(/has 100 MB free; Reelscout needs at least 114 MB/) });
    expect(s.health().message).not.toMatch(/ENOSPC/);
    free.bytes = 200 * MB;
    await until(s, (h) => h.state === 'ok');
  });
});

describe('the data folder lock on a disk with no byte free', () => {
  const tmp = tempDir('rs-lock-full-');
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => tmp.cleanup());

  it('holds with its owner named beside it, refuses a second start by name, and leaves nothing when released', () => {
    const dir = path.join(tmp.dir, 'data');
    // The file layer refuses every byte, as a full disk does (creating an empty file still works).
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const lock = acquireDataDirLock(dir, 'web');
    expect(fs.statSync(lock.file).size).toBe(0);
    expect(() => acquireDataDirLock(dir, 'electron')).toThrow(new RegExp(`in use by another Reelscout \\(process ${process.pid}, web`));
    lock.release();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(LOCK_NAME))).toEqual([]);
  });

  it("says why a lock cannot be made in words, not the system's", () => {
    const dir = path.join(tmp.dir, 'refused');
    for (const [code, words] of [
      ['EACCES', /not allowed to write in it/],
      ['ENOSPC', /disk holding it is full/],
    ] as const) {
      vi.spyOn(fs, 'openSync').mockImplementation(() => {
        throw Object.assign(new Error(`${code}: something, open`), { code });
      });
      expect(() => acquireDataDirLock(dir, 'web')).toThrow(words);
      expect(() => acquireDataDirLock(dir, 'web')).not.toThrow(new RegExp(code));
      vi.restoreAllMocks();
    }
  });
});
