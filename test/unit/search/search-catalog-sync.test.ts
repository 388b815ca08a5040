import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { ExactVectorIndex } from '../../../src-main/core/search/index/exact-search';
import { LOADING_MARKER } from '../../../src-main/core/search/index/index-store';
import { spaceKey } from '../../../src-main/core/search/index/embedding-space';
import { createIndexSyncStore } from '../../../src-main/core/search/index/index-sync-store';
import { SearchIndexManager } from '../../../src-main/core/search/index/search-index-manager';
import { createVectorIndex } from '../../../src-main/core/search/index/vector-index';
import type { VectorIndex } from '../../../src-main/core/search/index/vector-types';
import { axisVector, insertClip, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding, TEST_SPACE } from '../../helpers/catalog/search-catalog';
import { tempDir } from '../../helpers/paths';

const DIM = 16;
const open: { db: CatalogDb; managers: SearchIndexManager[]; cleanup: () => void }[] = [];

afterEach(async () => {
  for (const o of open.splice(0)) {
    for (const m of o.managers) await m.dispose();
    o.db.close();
    o.cleanup();
  }
});

function setup(clips = 3, segsPerClip = 4) {
  const t = tempDir('rs-sync-');
  const db = openTestCatalog(t.dir);
  const vol = insertVolume(db, path.join(t.dir, 'media'));
  const segs: number[] = [];
  const clipIds: number[] = [];
  for (let c = 0; c < clips; c++) {
    const clipId = insertClip(db, { volumeId: vol, relPath: `clip${c}.mp4`, durationS: 20 });
    clipIds.push(clipId);
    const shot = insertShot(db, clipId, 0, 0, 20);
    for (let i = 0; i < segsPerClip; i++) {
      const id = insertSegment(db, { clipId, shotId: shot, chunkIdx: i, startS: i * 5, endS: i * 5 + 5 });
      putEmbedding(db, id, axisVector(DIM, segs.length, 0.2, id));
      segs.push(id);
    }
  }
  const entry = { db, managers: [] as SearchIndexManager[], cleanup: t.cleanup, dir: t.dir };
  open.push(entry);
  const manager = (space = () => ({ ...TEST_SPACE }), createIndex?: () => VectorIndex) => {
    const m = new SearchIndexManager({ store: createIndexSyncStore(db), dir: path.join(t.dir, 'search-index'), space, pollMs: 0, saveDelayMs: 60_000, ...(createIndex ? { createIndex } : {}) });
    entry.managers.push(m);
    return m;
  };
  /** One start and a clean close: the index saved; its folder. */
  const savedIndex = async () => {
    const m = manager();
    await m.start();
    await m.dispose();
    return path.join(t.dir, 'search-index', spaceKey(TEST_SPACE));
  };
  return { db, dir: t.dir, segs, clipIds, manager, savedIndex };
}

/** The oracle: exact search over the catalog's current vectors. */
function oracle(db: CatalogDb, model = TEST_SPACE.model): ExactVectorIndex {
  const ex = new ExactVectorIndex();
  const rows = db.prepare('SELECT segment_id, vector FROM embeddings WHERE model = ? ORDER BY segment_id').all(model) as { segment_id: number; vector: Buffer }[];
  for (const r of rows) ex.add(r.segment_id, new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength)));
  return ex;
}

async function sameAsOracle(db: CatalogDb, m: SearchIndexManager): Promise<void> {
  const ex = oracle(db);
  for (let axis = 0; axis < DIM; axis += 3) {
    const q = axisVector(DIM, axis, 0.05, 99 + axis);
    const got = (await m.search(q, 5)).map((h) => h.id);
    expect(got).toEqual(ex.search(q, 5).map((h) => h.id));
  }
}

describe('search index kept in step with the catalog', () => {
  it('builds from the catalog on first start and saves beside it', async () => {
    const s = setup();
    const m = s.manager();
    await m.start();
    expect(m.status()).toMatchObject({ state: 'ready', size: 12, dimension: DIM });
    expect(m.status().origin).toMatch(/^rebuilt/);
    await sameAsOracle(s.db, m);
    expect(fs.existsSync(path.join(s.dir, 'search-index', spaceKey(TEST_SPACE), 'vectors.meta.json'))).toBe(true);
  });

  it('follows new, replaced and deleted embeddings (cascaded deletes too) without being told', async () => {
    const s = setup();
    const m = s.manager();
    await m.start();
    const shot = s.db.prepare('SELECT id FROM shots WHERE clip_id = ?').pluck().get(s.clipIds[0]) as number;
    const added = insertSegment(s.db, { clipId: s.clipIds[0]!, shotId: shot, chunkIdx: 50, startS: 0, endS: 1 });
    putEmbedding(s.db, added, axisVector(DIM, 7, 0.01, 5));
    // Replace a vector: the index must serve the new one.
    putEmbedding(s.db, s.segs[0]!, axisVector(DIM, 11, 0.01, 6));
    // Deleting a clip cascades to its segments and embeddings.
    s.db.prepare('DELETE FROM clips WHERE id = ?').run(s.clipIds[2]);
    await m.ready();
    expect(m.status().size).toBe(12 + 1 - 4);
    const top = await m.search(axisVector(DIM, 11, 0, 1), 1);
    expect(top[0]!.id).toBe(s.segs[0]);
    expect((await m.search(axisVector(DIM, 7, 0, 1), 1))[0]!.id).toBe(added);
    await sameAsOracle(s.db, m);
  });

  it('after a restart loads the saved index and replays only what changed since', async () => {
    const s = setup();
    const m1 = s.manager();
    await m1.start();
    const extra = insertSegment(s.db, { clipId: s.clipIds[1]!, shotId: s.db.prepare('SELECT id FROM shots WHERE clip_id = ?').pluck().get(s.clipIds[1]) as number, chunkIdx: 60, startS: 1, endS: 2 });
    putEmbedding(s.db, extra, axisVector(DIM, 3, 0.01, 8));
    await m1.ready();
    await m1.dispose();
    // The log before the saved generation is pruned; only later changes remain.
    expect(s.db.prepare('SELECT COUNT(*) FROM embedding_changes').pluck().get()).toBe(0);

    s.db.prepare('DELETE FROM embeddings WHERE segment_id = ?').run(s.segs[5]);
    const m2 = s.manager();
    await m2.start();
    expect(m2.status().origin).toBe('loaded');
    expect(m2.status().size).toBe(12);
    await sameAsOracle(s.db, m2);
  });

  it('rebuilds from the catalog when the saved index is damaged or missing', async () => {
    const s = setup();
    const dir = await s.savedIndex();
    const f32 = fs.readdirSync(dir).find((f) => f.endsWith('.f32'))!;
    const buf = fs.readFileSync(path.join(dir, f32));
    buf[buf.length - 3] = buf[buf.length - 3]! ^ 0xff;
    fs.writeFileSync(path.join(dir, f32), buf);
    const m2 = s.manager();
    await m2.start();
    expect(m2.status().origin).toMatch(/^rebuilt \(corrupt/);
    await sameAsOracle(s.db, m2);
    await m2.dispose();

    fs.rmSync(dir, { recursive: true, force: true });
    const m3 = s.manager();
    await m3.start();
    expect(m3.status()).toMatchObject({ state: 'ready', size: 12 });
    expect(m3.status().origin).toMatch(/^rebuilt \(missing/);
  });

  it('a load given up keeps the crash-loop marker until a rebuilt index is saved over the files', async () => {
    const s = setup();
    const marker = path.join(await s.savedIndex(), LOADING_MARKER);
    // A loader that throws after it may have damaged the heap; and a start that cannot save its
    // rebuild (it might as well have died): the next start must not load these files again.
    const indexWith = (fail: { load?: boolean; save?: boolean }) => () => {
      const index = createVectorIndex();
      if (fail.load) {
        index.load = () => {
          throw new Error('unreadable file');
        };
      }
      if (fail.save) {
        index.save = () => {
          throw new Error('disk full');
        };
      }
      return index;
    };
    const managerWith = (createIndex: () => VectorIndex) => s.manager(undefined, createIndex);
    const m2 = managerWith(indexWith({ load: true, save: true }));
    await m2.start();
    // The rebuilt index serves the session though it could not be saved.
    expect(m2.status()).toMatchObject({ state: 'ready', size: 12 });
    await sameAsOracle(s.db, m2);
    await m2.dispose();
    expect(fs.existsSync(marker)).toBe(true);

    const m3 = managerWith(indexWith({ load: true }));
    await m3.start();
    expect(m3.status().origin).toBe('rebuilt (crashed: the last start stopped while loading the saved index)');
    expect(fs.existsSync(marker)).toBe(false);
    await m3.dispose();

    const m4 = managerWith(indexWith({ load: true }));
    await m4.start();
    expect(m4.status().origin).toMatch(/^rebuilt \(unreadable: unreadable file/);
    expect(fs.existsSync(marker)).toBe(false);
    await m4.dispose();

    const m5 = s.manager();
    await m5.start();
    expect(m5.status().origin).toBe('loaded');
    await sameAsOracle(s.db, m5);
  });

  it('keeps embedding spaces apart and refuses a query of another dimension', async () => {
    const s = setup(1, 2);
    const other = insertSegment(s.db, { clipId: s.clipIds[0]!, shotId: s.db.prepare('SELECT id FROM shots').pluck().get() as number, chunkIdx: 7, startS: 0, endS: 1 });
    putEmbedding(s.db, other, axisVector(4, 0), { model: 'v2', region: 'asia' });
    let space = { ...TEST_SPACE };
    const m = s.manager(() => space);
    await m.start();
    expect(m.status().size).toBe(2);
    await expect(m.search(axisVector(4, 0), 3)).rejects.toMatchObject({ kind: 'invalid' });
    space = { model: 'v2', region: 'asia' };
    expect((await m.search(axisVector(4, 0), 3)).map((h) => h.id)).toEqual([other]);
    expect(m.status()).toMatchObject({ model: 'v2', size: 1, dimension: 4 });
    expect(() => m.storedVector(s.segs[0]!)).toThrow(/not the active/);
  });
});
