import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { freeBytes } from '../../../src-main/core/util/disk-space';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { mediaFile, tempDir } from '../../helpers/paths';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../../helpers/app/small-disk';
import { callOk } from '../../helpers/app/app-call';

/** The data folder's disk: small, so a test can fill it to the last byte. */
const DISK_MB = 16;
const NEEDED = 4 * 1024 * 1024;

/**
 * A full disk from start to finish, on a real small file system (a tmpfs; skipped, saying why,
 * where the machine does not let a test mount one): the catalog's state follows the disk while the
 * app runs, with the figures as they are now; a start with 0 bytes free opens the library
 * read-only; a first start without the room a catalog needs waits, and starts by itself.
 */
describe('the catalog on a full disk', () => {
  const tmp = tempDir('rs-disk-states-');
  const disk = path.join(tmp.dir, 'small-disk');
  const filler = path.join(disk, 'filler');
  const footage = path.join(tmp.dir, 'footage');
  let cannotMount: string | null = null;
  let app: WebApp | undefined;

  const call = (m: MethodName, a: unknown = {}) => app!.core.dispatch(m, a, { transport: 'test' });
  const value = <T,>(m: MethodName, a: unknown = {}): Promise<T> => callOk<T>(app!.core, m, a);
  const health = () => value<CatalogHealth>('catalog.health');
  const start = async (dataDir: string) => {
    app = await startWebApp({ dataDir, rendererDir: tmp.dir, minFreeBytes: NEEDED });
  };
  /** Polls catalog.health until `ok` says so (the session looks at the disk every 2 s). */
  const healthWhen = async (ok: (h: CatalogHealth) => boolean, what: string): Promise<CatalogHealth> => {
    let h = await health();
    for (const t0 = Date.now(); !ok(h) && Date.now() - t0 < 20_000; h = await health()) await new Promise((r) => setTimeout(r, 200));
    if (!ok(h)) throw new Error(`${what}: still ${h.state}: ${h.message}`);
    return h;
  };
  /** A data folder with one clip catalogued, closed. */
  const library = async (name: string): Promise<string> => {
    const dataDir = path.join(disk, name);
    await start(dataDir);
    await value('library.import', { paths: [footage] });
    await app!.close();
    app = undefined;
    return dataDir;
  };

  beforeAll(() => {
    cannotMount = mountSmallDisk(disk, DISK_MB);
    fs.mkdirSync(footage);
    fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(footage, 'flower.mp4'));
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    if (!cannotMount) fs.rmSync(filler, { force: true });
  });
  afterAll(() => {
    if (!cannotMount) unmountSmallDisk(disk);
    tmp.cleanup();
  });

  it('says read_only while the disk holding the open catalog is full, with the figures as they are now, and ok once there is room', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    const dataDir = await library('while-open');
    await start(dataDir);
    expect((await health()).state).toBe('ok');

    fillDisk(filler, 1024 * 1024);
    const full = await healthWhen((h) => h.state === 'read_only', 'read-only once the disk fills');
    expect(full.message).toContain(dataDir);
    expect(full.message).toMatch(/has (\d+ kB|1\.\d MB) free; Reelscout needs at least 4\.6 MB/);
    // Browsing works; a save says why not, in the full disk's words.
    const list = await value<{ total: number; items: { id: number }[] }>('library.list', { limit: 1 });
    expect(list.total).toBe(1);
    const save = await call('marks.saveRange', { clipId: list.items[0]!.id, inFrame: 0, outFrame: 10, rate: { num: 25, den: 1 }, name: 'full' });
    expect(save).toMatchObject({ ok: false, error: { kind: 'disk_full', message: expect.stringContaining(dataDir) } });

    // Fuller still: the figures follow (not the first reading's).
    fillDisk(`${filler}-more`);
    expect(freeBytes(dataDir)).toBe(0);
    const fuller = await healthWhen((h) => h.message?.includes('has 0 kB free') === true, 'the figures follow the disk');
    expect(fuller.state).toBe('read_only');

    fs.rmSync(`${filler}-more`, { force: true });
    fs.rmSync(filler, { force: true });
    await healthWhen((h) => h.state === 'ok', 'writable again once there is room');
    expect(await call('marks.saveRange', { clipId: list.items[0]!.id, inFrame: 0, outFrame: 10, rate: { num: 25, den: 1 }, name: 'room' })).toMatchObject({ ok: true });
  }, 120_000);

  it('starts with 0 bytes free: the library opens read-only for browsing and search', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    const dataDir = await library('zero-free');
    fillDisk(filler);
    expect(freeBytes(dataDir)).toBe(0);

    await start(dataDir);
    const h = await health();
    expect(h.message).toContain('has 0 kB free');
    expect(h.state).toBe('read_only');
    expect((await value<{ total: number }>('library.list', { limit: 10 })).total).toBe(1);
    expect((await value<{ total: number }>('library.list', { limit: 10, query: 'flower' })).total).toBe(1);
    expect((await call('search.facets')).ok).toBe(true);
    // A second start on the same folder is still refused: the lock holds without a byte to write.
    const second = await startWebApp({ dataDir, rendererDir: tmp.dir, minFreeBytes: NEEDED }).then(
      async (a) => (await a.close(), 'started'),
      (e: Error) => e.message,
    );
    expect(second).toMatch(/in use by another Reelscout \(process \d+, web/);

    fs.rmSync(filler, { force: true });
    await healthWhen((h) => h.state === 'ok', 'writable once there is room');
  }, 120_000);

  it('a first start without room for a catalog says so with the figures, and starts the library by itself once there is room', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    const dataDir = path.join(disk, 'first-start');
    fs.mkdirSync(dataDir);
    fillDisk(filler, 1024 * 1024);

    await start(dataDir);
    const h = await health();
    expect(h.state).toBe('no_room');
    expect(h.message).toContain(dataDir);
    expect(h.message).toMatch(/needs at least 4\.6 MB/);
    // Nothing else works yet, and it says why in the same words.
    expect(await call('library.list', { limit: 1 })).toMatchObject({ ok: false, error: { kind: 'disk_full', message: expect.stringContaining(dataDir) } });
    // Not damaged: nothing to restore, nothing to start anew.
    expect(await call('catalog.startNew')).toMatchObject({ ok: false });

    fs.rmSync(filler, { force: true });
    await healthWhen((h) => h.state === 'ok', 'the library starts by itself once there is room');
    expect(await call('library.import', { paths: [footage] })).toMatchObject({ ok: true });
  }, 120_000);
});
