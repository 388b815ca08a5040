import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileCrc32, SIDECAR_NAME } from '../../../src-main/core/search/index/index-store';
import { REPO_ROOT, tempDir } from '../../helpers/paths';
import { insertClip, insertSegment, insertShot, insertVolume, openTestCatalog, putEmbedding } from '../../helpers/catalog/search-catalog';

const CHILD = path.join(REPO_ROOT, 'test', 'integration', 'fixtures', 'search-start-child.ts');

function start(dataDir: string): { code: number | null; signal: NodeJS.Signals | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, dataDir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

/** Damages the graph file the way the audit did, then re-signs the sidecar so size and CRC match. */
function craftDamagedIndex(indexDir: string): void {
  const [space] = fs.readdirSync(indexDir).filter((d) => fs.statSync(path.join(indexDir, d)).isDirectory());
  const dir = path.join(indexDir, space!);
  const graph = path.join(dir, 'vectors.usearch');
  const b = fs.readFileSync(graph);
  for (let i = 64; i < b.length; i += 7) b[i] = 0xff;
  fs.writeFileSync(graph, b);
  const metaPath = path.join(dir, SIDECAR_NAME);
  const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as { files: { name: string; bytes: number; crc32: number }[] };
  for (const f of meta.files) {
    f.bytes = fs.statSync(path.join(dir, f.name)).size;
    f.crc32 = fileCrc32(path.join(dir, f.name));
  }
  fs.writeFileSync(metaPath, JSON.stringify(meta));
}

/**
 * Hole 3 of the hardening audit: a damaged vector index whose size and CRC were updated to match
 * killed usearch's loader at every start. Now the start after such a crash rebuilds the index
 * from the catalog, says so, and loses nothing.
 */
describe('crash-loop breaker for the vector index', () => {
  const tmp = tempDir('rs-index-crash-');
  afterAll(() => tmp.cleanup());

  it('a crafted index with a matching CRC crashes one start at most; the next rebuilds it and says so', () => {
    const db = openTestCatalog(tmp.dir);
    const vol = insertVolume(db, '/media/card');
    const clip = insertClip(db, { volumeId: vol, relPath: 'A001.mov', durationS: 3000 });
    const shot = insertShot(db, clip, 0, 0, 3000);
    for (let i = 0; i < 3000; i++) {
      const seg = insertSegment(db, { clipId: clip, shotId: shot, chunkIdx: i, startS: i, endS: i + 1 });
      putEmbedding(db, seg, Array.from({ length: 64 }, (_, j) => Math.sin(i * 7 + j)));
    }
    db.close();

    const first = start(tmp.dir);
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ size: 3000, status: { state: 'ready', origin: 'rebuilt (no saved index)' } });
    const second = start(tmp.dir);
    expect(JSON.parse(second.out)).toMatchObject({ size: 3000, status: { origin: 'loaded' } });

    craftDamagedIndex(path.join(tmp.dir, 'search-index'));
    const crashed = start(tmp.dir);
    // The loader really dies on this file (glibc aborts: "malloc(): unaligned tcache chunk").
    expect(crashed.code === 0 && crashed.signal === null, `${crashed.code} ${crashed.signal} ${crashed.err.slice(-200)}`).toBe(false);

    const after = start(tmp.dir);
    expect(after.code, after.err).toBe(0);
    const status = JSON.parse(after.out) as { size: number; hits: number; status: { origin: string } };
    expect(status.size).toBe(3000);
    expect(status.hits).toBe(3);
    expect(status.status.origin).toMatch(/^rebuilt \(crashed: the last start stopped while loading the saved index\)$/);
    // And the one after that loads the rebuilt index normally.
    expect(JSON.parse(start(tmp.dir).out)).toMatchObject({ size: 3000, status: { origin: 'loaded' } });
  }, 240_000);
});
