import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { z } from 'zod';
import { AppError, toAppError } from '../../../../src-shared/errors';
import type { VectorIndex } from './vector-types';

/**
 * Persistence of the vector index beside the catalog:
 *   <dir>/vectors.usearch, vectors.f32, vectors.hnsw.json   written by the index itself
 *   <dir>/vectors.meta.json                                 this sidecar, written last
 * The sidecar names every file with its size and CRC-32, plus the catalog generation the index
 * reflects. Nothing is handed to usearch unless all of that matches: usearch takes the whole process
 * down on a damaged file, so the checksum is what keeps a truncated write from crashing the app.
 */

export const INDEX_BASENAME = 'vectors';
export const SIDECAR_NAME = `${INDEX_BASENAME}.meta.json`;
const FORMAT = 'reelscout-vector-index';
const FORMAT_VERSION = 1;
const TMP_PREFIX = `.${INDEX_BASENAME}.tmp-`;
/** Present while the native loader runs (crash-loop breaker, see tryLoadIndex). */
export const LOADING_MARKER = `.${INDEX_BASENAME}.loading`;

const sidecarSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int(),
  generation: z.number().int().nonnegative(),
  dimension: z.number().int().nonnegative(),
  count: z.number().int().nonnegative(),
  files: z
    .array(
      z.object({
        // Plain names only: a sidecar must never point outside its directory.
        name: z.string().regex(/^vectors\.[a-z0-9.]+$/),
        bytes: z.number().int().nonnegative(),
        crc32: z.number().int().nonnegative(),
      }),
    )
    .min(1),
  savedAt: z.string(),
});
export type IndexSidecar = z.infer<typeof sidecarSchema>;

export type RebuildReason = 'missing' | 'corrupt' | 'stale' | 'unreadable' | 'crashed';

export type LoadResult<T extends VectorIndex> =
  /** `settle` removes the crash-loop marker: call it once the index has been in use for a while, or at a clean close. */
  | { ok: true; index: T; sidecar: IndexSidecar; settle: () => void }
  | { ok: false; reason: RebuildReason; detail: string };

/** CRC-32 of a whole file, streamed so multi-GB files never sit in memory twice. */
export function fileCrc32(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(16 << 20);
    let crc = 0;
    let pos = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return crc;
      crc = zlib.crc32(buf.subarray(0, n), crc);
      pos += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  // Makes the renames durable where the platform allows it (not on Windows: best effort).
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* directory fsync is unsupported on some platforms; the checksums still catch torn writes */
  }
}

/** Files a crashed earlier save left behind (one writer per catalog directory is assumed). */
function removeStaleTemps(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(TMP_PREFIX)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * Writes the index atomically: every file goes to a temporary name first, then is renamed into
 * place, and the sidecar is renamed last. A crash at any point leaves either the old sidecar (whose
 * checksums no longer match the renamed files, so the next start rebuilds) or none at all.
 */
export function saveIndex(dir: string, index: VectorIndex, generation: number): IndexSidecar {
  if (!Number.isSafeInteger(generation) || generation < 0) {
    throw new AppError('invalid', `generation must be a non-negative integer, got ${String(generation)}`);
  }
  const tmpBase = path.join(dir, `${TMP_PREFIX}${process.pid}-${Date.now().toString(36)}`);
  let written: string[] = [];
  try {
    fs.mkdirSync(dir, { recursive: true });
    removeStaleTemps(dir);
    written = index.save(tmpBase);
    const files = written.map((file) => {
      if (!file.startsWith(tmpBase)) throw new AppError('internal', `index wrote ${file} outside its base path`);
      fsyncFile(file);
      return { tmp: file, name: INDEX_BASENAME + file.slice(tmpBase.length), bytes: fs.statSync(file).size, crc32: fileCrc32(file) };
    });
    const sidecar: IndexSidecar = {
      format: FORMAT,
      version: FORMAT_VERSION,
      generation,
      dimension: index.dimension,
      count: index.size,
      files: files.map(({ name, bytes, crc32 }) => ({ name, bytes, crc32 })),
      savedAt: new Date().toISOString(),
    };
    sidecarSchema.parse(sidecar);
    const sidecarTmp = `${tmpBase}.meta.json`;
    written.push(sidecarTmp);
    fs.writeFileSync(sidecarTmp, JSON.stringify(sidecar, null, 2));
    fsyncFile(sidecarTmp);
    fs.rmSync(path.join(dir, SIDECAR_NAME), { force: true });
    for (const f of files) fs.renameSync(f.tmp, path.join(dir, f.name));
    fs.renameSync(sidecarTmp, path.join(dir, SIDECAR_NAME));
    fsyncDir(dir);
    return sidecar;
  } catch (e) {
    for (const file of written) fs.rmSync(file, { force: true });
    if (e instanceof AppError) throw e;
    throw new AppError('io', `saving the vector index to ${dir} failed: ${toAppError(e).message}`, { cause: e });
  }
}

/** A rebuilt index has been saved in `dir`: the files a crash-loop marker spoke of are gone. */
export function clearLoadingMarker(dir: string): void {
  fs.rmSync(path.join(dir, LOADING_MARKER), { force: true });
}

/** Reads the sidecar and checks every file against it; never lets a damaged file reach usearch. */
export function tryLoadIndex<T extends VectorIndex>(dir: string, generation: number, createIndex: () => T): LoadResult<T> {
  const sidecarPath = path.join(dir, SIDECAR_NAME);
  if (!fs.existsSync(sidecarPath)) return { ok: false, reason: 'missing', detail: `${SIDECAR_NAME} not found` };
  let sidecar: IndexSidecar;
  try {
    const parsed = sidecarSchema.safeParse(JSON.parse(fs.readFileSync(sidecarPath, 'utf8')));
    if (!parsed.success) return { ok: false, reason: 'corrupt', detail: `${SIDECAR_NAME} is malformed` };
    sidecar = parsed.data;
  } catch (e) {
    return { ok: false, reason: 'corrupt', detail: `${SIDECAR_NAME} unreadable: ${toAppError(e).message}` };
  }
  if (sidecar.version !== FORMAT_VERSION) {
    return { ok: false, reason: 'stale', detail: `format version ${sidecar.version}, expected ${FORMAT_VERSION}` };
  }
  if (sidecar.generation !== generation) {
    return { ok: false, reason: 'stale', detail: `index reflects catalog generation ${sidecar.generation}, catalog is at ${generation}` };
  }
  for (const f of sidecar.files) {
    const file = path.join(dir, f.name);
    let bytes: number;
    try {
      bytes = fs.statSync(file).size;
    } catch {
      return { ok: false, reason: 'missing', detail: `${f.name} not found` };
    }
    if (bytes !== f.bytes) return { ok: false, reason: 'corrupt', detail: `${f.name} is ${bytes} bytes, expected ${f.bytes}` };
    if (fileCrc32(file) !== f.crc32) return { ok: false, reason: 'corrupt', detail: `${f.name} fails its checksum` };
  }
  // The native loader trusts the file: a damaged one with a matching CRC (written so, or crafted)
  // can kill the process outright, in the loader or a little later (the damage it did to the heap
  // makes a later malloc or free abort). A marker written before loading and removed only when the
  // caller says the index has settled tells the next start that the last one died with this index
  // freshly loaded: that start rebuilds instead of dying again. Whenever the load is given up, the
  // marker stays until a rebuilt index has been saved over these files (clearLoadingMarker): a
  // start that dies before then, or a loader that damaged the heap before it threw, must leave the
  // next start rebuilding too, not loading the same files again.
  const marker = path.join(dir, LOADING_MARKER);
  if (fs.existsSync(marker)) {
    return { ok: false, reason: 'crashed', detail: 'the last start stopped while loading the saved index' };
  }
  try {
    fs.writeFileSync(marker, String(process.pid));
  } catch {
    // A full disk or a read-only folder: the load goes ahead without the breaker's protection,
    // which a rebuild (whose save would fail the same way) could not give either.
  }
  const index = createIndex();
  try {
    index.load(path.join(dir, INDEX_BASENAME));
  } catch (e) {
    return { ok: false, reason: 'unreadable', detail: toAppError(e).message };
  }
  if (index.size !== sidecar.count || (sidecar.count > 0 && index.dimension !== sidecar.dimension)) {
    return { ok: false, reason: 'corrupt', detail: 'loaded index does not match its sidecar' };
  }
  return { ok: true, index, sidecar, settle: () => clearLoadingMarker(dir) };
}
