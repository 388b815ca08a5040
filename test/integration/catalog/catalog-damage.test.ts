import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { schemaVersion } from '../../../src-main/core/catalog/migrate';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { catalogAtVersion } from '../../helpers/catalog/old-catalog';
import { mediaFile, tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

/**
 * Damage named and mended, in the whole app (web mode): a catalog damaged inside, a 0-byte one and
 * a damaged WAL journal each start with a message naming the file, a backup taken by the app puts
 * the library back in one call, and marks saved by the editor survive a damaged journal.
 */
describe('a damaged catalog', () => {
  const tmp = tempDir('rs-catalog-damage-');
  const footage = path.join(tmp.dir, 'footage');
  const renderer = path.join(tmp.dir, 'renderer');
  fs.mkdirSync(footage);
  fs.mkdirSync(renderer);
  fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(footage, 'flower.mp4'));
  let app: WebApp | null = null;
  let n = 0;

  afterEach(async () => {
    await app?.close();
    app = null;
  });
  afterAll(() => tmp.cleanup());

  const start = async (dataDir: string) => {
    app = await startWebApp({ dataDir, rendererDir: renderer });
    return app;
  };
  const call = async (m: MethodName, a: unknown = {}) => app!.core.dispatch(m, a, { transport: 'test' });
  const value = async <T,>(m: MethodName, a: unknown = {}): Promise<T> => {
    const env = await call(m, a);
    if (!env.ok) throw new Error(`${m}: ${env.error.kind}: ${env.error.message}`);
    return env.value as T;
  };
  const health = () => value<CatalogHealth>('catalog.health');
  const clipCount = async () => (await value<{ total: number }>('library.list', { limit: 10 })).total;

  /** A data folder whose catalog holds the footage, closed cleanly, with the day's backup taken. */
  const library = async (): Promise<string> => {
    const dataDir = path.join(tmp.dir, `data-${n++}`);
    await start(dataDir);
    await value('library.import', { paths: [footage] });
    expect(await clipCount()).toBe(1);
    // The first import takes the first backup, of the library with its clip (catalog-first-backup.test.ts).
    await waitUntil(() => fs.existsSync(path.join(dataDir, 'backups')) && fs.readdirSync(path.join(dataDir, 'backups')).some((f) => f.endsWith('daily.sqlite')), 10_000, 'the daily backup');
    await app!.close();
    app = null;
    return dataDir;
  };

  const expectDamaged = async (dataDir: string, what: RegExp) => {
    await start(dataDir);
    const h = await health();
    expect(h.state).toBe('damaged');
    expect(h.message).toContain(path.join(dataDir, 'catalog.sqlite'));
    expect(h.message).toMatch(what);
    // Everything that needs the catalog says why it cannot answer, in the same words.
    const list = await call('library.list', { limit: 10 });
    expect(list).toMatchObject({ ok: false, error: { kind: 'damaged' } });
    expect((await call('settings.get')).ok).toBe(true);
    return h;
  };

  const restoreNewest = async (h: CatalogHealth, dataDir: string) => {
    expect(h.backups.length).toBeGreaterThan(0);
    const after = await value<CatalogHealth>('catalog.restore', { backupId: h.backups[0]!.id });
    expect(after).toMatchObject({ state: 'ok', message: null });
    expect(await clipCount()).toBe(1);
    // The damaged file is kept beside the catalog, never deleted.
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith('catalog.sqlite.damaged-'))).toBe(true);
    // A sound catalog is not set aside for an empty one.
    expect(await call('catalog.startNew')).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  };

  it('names a catalog damaged inside, and one call restores the backup', async () => {
    const dataDir = await library();
    const file = path.join(dataDir, 'catalog.sqlite');
    const bytes = fs.readFileSync(file);
    const page = bytes.readUInt16BE(16) || 65536;
    // Garbage over the b-tree headers of every page but the first: the tables cannot be read.
    for (let off = page; off + 200 < bytes.length; off += page) bytes.fill(0xee, off, off + 200);
    fs.writeFileSync(file, bytes);
    const h = await expectDamaged(dataDir, /is damaged/);
    await restoreNewest(h, dataDir);
  });

  it('names a 0-byte catalog instead of starting an empty library', async () => {
    const dataDir = await library();
    fs.truncateSync(path.join(dataDir, 'catalog.sqlite'), 0);
    const h = await expectDamaged(dataDir, /empty \(0 bytes\)/);
    await restoreNewest(h, dataDir);
  });

  it('starts a new, empty catalog in place of a damaged one when asked, keeping the damaged file', async () => {
    const dataDir = await library();
    fs.truncateSync(path.join(dataDir, 'catalog.sqlite'), 0);
    await expectDamaged(dataDir, /empty/);
    expect(await value<CatalogHealth>('catalog.startNew')).toMatchObject({ state: 'ok', message: null });
    expect(await clipCount()).toBe(0);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('catalog.sqlite.damaged-'))).toHaveLength(1);
  });

  it('keeps all 40 ranges saved before the journal was damaged, and says what the damage cost', async () => {
    const dataDir = await library();
    await start(dataDir);
    const clipId = (await value<{ items: { id: number }[] }>('library.list', { limit: 10 })).items[0]!.id;
    for (let i = 0; i < 40; i++) await value('marks.saveRange', { clipId, inFrame: i * 10, outFrame: i * 10 + 5, rate: { num: 25, den: 1 }, name: `take ${i}` });
    // More work after the last save (the pipeline writes too): what the journal holds at a crash.
    for (let i = 0; i < 10; i++) await value(i % 2 ? 'jobs.resumeNetwork' : 'jobs.pauseNetwork');
    // A crash: the files as they are on disk now, while the app still has them open.
    const crashed = path.join(tmp.dir, `data-${n++}`);
    fs.mkdirSync(crashed);
    for (const f of ['catalog.sqlite', 'catalog.sqlite-wal']) if (fs.existsSync(path.join(dataDir, f))) fs.copyFileSync(path.join(dataDir, f), path.join(crashed, f));
    await app!.close();
    app = null;
    const walFile = path.join(crashed, 'catalog.sqlite-wal');
    const wal = fs.readFileSync(walFile);
    const pageSize = wal.readUInt32BE(8);
    const frames = Math.floor((wal.length - 32) / (24 + pageSize));
    expect(frames).toBeGreaterThan(1);
    const at = 32 + Math.floor(frames / 2) * (24 + pageSize) + 24 + 64;
    wal.fill(0x5a, at, at + 256);
    fs.writeFileSync(walFile, wal);

    await start(crashed);
    const h = await health();
    expect(h.state).toBe('ok');
    expect(h.message).toContain(walFile);
    expect(h.message).toMatch(/\d+ saved changes? after that point could not be read/);
    const marks = await value<{ ranges: unknown[] }>('marks.forClip', { clipId });
    expect(marks.ranges).toHaveLength(40);
  });

  it('takes a backup with SQLite\'s backup API before migrating an older catalog, and one a day once it holds clips', async () => {
    const cleanups: (() => void)[] = [];
    try {
      const { file, old } = catalogAtVersion(14, cleanups);
      old.close();
      const dataDir = path.dirname(file);
      await start(dataDir);
      expect((await health()).state).toBe('ok');
      const backups = path.join(dataDir, 'backups');
      const before = fs.readdirSync(backups).filter((f) => f.endsWith('before-migration.sqlite'));
      expect(before).toHaveLength(1);
      const copy = new Database(path.join(backups, before[0]!), { readonly: true });
      expect(schemaVersion(copy)).toBe(14);
      copy.close();
      // The daily one waits for clips to keep.
      await value('library.import', { paths: [footage] });
      await waitUntil(() => fs.readdirSync(backups).some((f) => f.endsWith('daily.sqlite')), 10_000, 'the daily backup');
      await app!.close();
      app = null;
      // A second start the same day takes no other daily backup.
      await start(dataDir);
      await new Promise((r) => setTimeout(r, 500));
      expect(fs.readdirSync(backups).filter((f) => f.endsWith('daily.sqlite'))).toHaveLength(1);
    } finally {
      await app?.close();
      app = null;
      for (const c of cleanups) c();
    }
  });
});
