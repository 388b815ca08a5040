import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import { backupStamp } from '../../../src-main/core/catalog/catalog-backups';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { mediaFile, tempDir } from '../../helpers/paths';
import { waitUntil } from '../fixtures/pipeline-harness';

/**
 * Issue 41: the daily backup was taken at the first start, of a catalog still empty, so restoring
 * the only backup of a catalog damaged on day one gave 0 clips. In the whole app (web mode) with a
 * real catalog file: a fresh start takes no backup; the first import takes one that holds its clips;
 * a day later, after work, another holding that work; the list says what each holds; restoring the
 * newest after damaging the catalog gives the clips and ranges back.
 */
describe('the first backup of a catalog', () => {
  const tmp = tempDir('rs-first-backup-');
  const footage = path.join(tmp.dir, 'footage');
  fs.mkdirSync(footage);
  fs.mkdirSync(path.join(tmp.dir, 'renderer'));
  fs.copyFileSync(mediaFile('mdn_flower.mp4'), path.join(footage, 'flower.mp4'));
  const dataDir = path.join(tmp.dir, 'data');
  const backups = path.join(dataDir, 'backups');
  let app: WebApp | null = null;

  afterEach(async () => {
    await app?.close();
    app = null;
  });
  afterAll(() => tmp.cleanup());

  const start = async () => {
    app = await startWebApp({ dataDir, rendererDir: path.join(tmp.dir, 'renderer') });
  };
  const stop = async () => {
    await app!.close();
    app = null;
  };
  const value = async <T,>(m: MethodName, a: unknown = {}): Promise<T> => {
    const env = await app!.core.dispatch(m, a, { transport: 'test' });
    if (!env.ok) throw new Error(`${m}: ${env.error.kind}: ${env.error.message}`);
    return env.value as T;
  };
  const health = () => value<CatalogHealth>('catalog.health');
  const dailies = () => (fs.existsSync(backups) ? fs.readdirSync(backups).filter((f) => f.endsWith('-daily.sqlite')).sort() : []);
  /** Counted in the backup file itself, apart from the app. */
  const inFile = (id: string) => {
    const db = new Database(path.join(backups, id), { readonly: true });
    try {
      const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return { clips: n('SELECT COUNT(*) AS n FROM clips'), ranges: n('SELECT COUNT(*) AS n FROM ranges WHERE deleted_at IS NULL') };
    } finally {
      db.close();
    }
  };

  it('is taken once clips are catalogued, holds them, and gives them back', async () => {
    await start();
    // The check at open has had its time: an empty catalog is not worth a backup.
    await new Promise((r) => setTimeout(r, 1000));
    expect(dailies()).toEqual([]);
    expect((await health()).backups).toEqual([]);

    await value('library.import', { paths: [footage] });
    await waitUntil(() => dailies().length === 1, 10_000, 'a backup after the first import');
    const first = dailies()[0]!;
    expect(inFile(first)).toEqual({ clips: 1, ranges: 0 });
    expect((await health()).backups).toEqual([expect.objectContaining({ id: first, reason: 'daily', clips: 1, ranges: 0 })]);

    // A day's work: three ranges saved; the same day no other backup is taken.
    const clipId = (await value<{ items: { id: number }[] }>('library.list', { limit: 10 })).items[0]!.id;
    for (let i = 0; i < 3; i++) await value('marks.saveRange', { clipId, inFrame: i * 10, outFrame: i * 10 + 5, rate: { num: 25, den: 1 }, name: `take ${i}` });
    await stop();
    await start();
    await new Promise((r) => setTimeout(r, 1000));
    expect(dailies()).toEqual([first]);
    await stop();

    // The next day (the first backup made a day older): the catalog changed since, so a start takes one.
    const dayAgo = first.replace(/\d{8}T\d{6}Z/, backupStamp(Date.now() - 25 * 60 * 60 * 1000));
    fs.renameSync(path.join(backups, first), path.join(backups, dayAgo));
    await start();
    await waitUntil(() => dailies().length === 2, 10_000, 'the next day\'s backup');
    const second = dailies().find((f) => f !== dayAgo)!;
    expect(inFile(second)).toEqual({ clips: 1, ranges: 3 });
    expect((await health()).backups.map((b) => [b.id, b.clips, b.ranges])).toEqual([
      [second, 1, 3],
      [dayAgo, 1, 0],
    ]);
    await stop();

    // Damage: the catalog truncated. The recovery screen's list says what each backup holds.
    const file = path.join(dataDir, 'catalog.sqlite');
    fs.truncateSync(file, 0);
    await start();
    const h = await health();
    expect(h.state).toBe('damaged');
    expect(h.backups[0]).toMatchObject({ id: second, clips: 1, ranges: 3 });
    expect(await value<CatalogHealth>('catalog.restore', { backupId: second })).toMatchObject({ state: 'ok' });
    expect((await value<{ total: number }>('library.list', { limit: 10 })).total).toBe(1);
    expect((await value<{ ranges: unknown[] }>('marks.forClip', { clipId })).ranges).toHaveLength(3);
    // Listing read the backups without leaving journals of theirs in the folder.
    expect(fs.readdirSync(backups).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);
  });
});
