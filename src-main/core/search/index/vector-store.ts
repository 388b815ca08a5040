import fs from 'node:fs';
import { AppError } from '../../../../src-shared/errors';
import { assertSegmentId } from './vector-math';

/**
 * The unit vectors themselves, in f32, densely packed: the exact scan reads them, the HNSW index
 * re-ranks its quantised candidates with them and falls back to them for narrow filters
 * (usearch's JS binding cannot hand vectors back).
 *
 * Rows live in fixed-size chunks rather than one array, so growing never copies gigabytes and no
 * single ArrayBuffer approaches V8's length limit at a million 512-d rows.
 * Removal moves the last row into the hole, so rows 0..size-1 are always live and a scan needs no
 * tombstone checks.
 */
export class VectorStore {
  static readonly CHUNK_ROWS = 8192;

  private chunks: Float32Array[] = [];
  private slotIds: number[] = [];
  private readonly slotOf = new Map<number, number>();

  constructor(readonly dimension: number) {
    if (!Number.isSafeInteger(dimension) || dimension <= 0) {
      throw new AppError('invalid', `dimension must be a positive integer, got ${String(dimension)}`);
    }
  }

  get size(): number {
    return this.slotIds.length;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  slotOfId(id: number): number | undefined {
    return this.slotOf.get(id);
  }

  idAt(slot: number): number {
    return this.slotIds[slot]!;
  }

  /** The chunk holding `slot`; the row starts at `offsetOf(slot)` inside it. */
  chunkOf(slot: number): Float32Array {
    return this.chunks[Math.floor(slot / VectorStore.CHUNK_ROWS)]!;
  }

  offsetOf(slot: number): number {
    return (slot % VectorStore.CHUNK_ROWS) * this.dimension;
  }

  /** Number of chunks that hold live rows, and how many rows chunk `c` holds. */
  get chunkCount(): number {
    return Math.ceil(this.size / VectorStore.CHUNK_ROWS);
  }

  rowsInChunk(c: number): number {
    return Math.min(VectorStore.CHUNK_ROWS, this.size - c * VectorStore.CHUNK_ROWS);
  }

  chunkAt(c: number): Float32Array {
    return this.chunks[c]!;
  }

  /** A copy of the stored (normalised) vector, or undefined. */
  vector(id: number): Float32Array | undefined {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return undefined;
    const off = this.offsetOf(slot);
    return this.chunkOf(slot).slice(off, off + this.dimension);
  }

  /** Stores an already-normalised vector, replacing the row of an existing id. */
  put(id: number, unit: Float32Array): void {
    assertSegmentId(id);
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.slotIds.length;
      if (slot === this.chunks.length * VectorStore.CHUNK_ROWS) {
        this.chunks.push(new Float32Array(VectorStore.CHUNK_ROWS * this.dimension));
      }
      this.slotIds.push(id);
      this.slotOf.set(id, slot);
    }
    this.chunkOf(slot).set(unit.subarray(0, this.dimension), this.offsetOf(slot));
  }

  remove(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.slotIds.length - 1;
    if (slot !== last) {
      const lastId = this.slotIds[last]!;
      const src = this.chunkOf(last);
      const srcOff = this.offsetOf(last);
      this.chunkOf(slot).set(src.subarray(srcOff, srcOff + this.dimension), this.offsetOf(slot));
      this.slotIds[slot] = lastId;
      this.slotOf.set(lastId, slot);
    }
    this.slotIds.pop();
    this.slotOf.delete(id);
    // Free a trailing chunk that no longer holds rows, keeping one spare to avoid churn at a boundary.
    while (this.chunks.length > this.chunkCount + 1) this.chunks.pop();
    return true;
  }

  clear(): void {
    this.chunks = [];
    this.slotIds = [];
    this.slotOf.clear();
  }

  /** Every live id, in slot order. */
  ids(): number[] {
    return this.slotIds.slice();
  }

  // File layout (little-endian, like every platform Electron ships on):
  //   0  "RSVSTOR1"  8 bytes magic
  //   8  u32 format version, u32 dimension
  //  16  f64 count, 8 bytes reserved
  //  32  count f64 ids, then count*dimension f32 values
  private static readonly MAGIC = 'RSVSTOR1';
  private static readonly VERSION = 1;
  private static readonly HEADER_BYTES = 32;

  save(path: string): void {
    const fd = fs.openSync(path, 'w');
    try {
      const header = Buffer.alloc(VectorStore.HEADER_BYTES);
      header.write(VectorStore.MAGIC, 0, 'latin1');
      header.writeUInt32LE(VectorStore.VERSION, 8);
      header.writeUInt32LE(this.dimension, 12);
      header.writeDoubleLE(this.size, 16);
      writeAll(fd, header);
      const ids = Float64Array.from(this.slotIds);
      writeAll(fd, new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength));
      for (let c = 0; c < this.chunkCount; c++) {
        const rows = this.rowsInChunk(c);
        const chunk = this.chunks[c]!;
        writeAll(fd, new Uint8Array(chunk.buffer, chunk.byteOffset, rows * this.dimension * 4));
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Reads a file written by `save`; AppError('io') when it is not one or is cut short. */
  static load(path: string): VectorStore {
    const fd = fs.openSync(path, 'r');
    try {
      const fileSize = fs.fstatSync(fd).size;
      const header = Buffer.alloc(VectorStore.HEADER_BYTES);
      readAll(fd, header, 0);
      if (header.toString('latin1', 0, 8) !== VectorStore.MAGIC || header.readUInt32LE(8) !== VectorStore.VERSION) {
        throw new AppError('io', `${path} is not a vector store file`);
      }
      const dimension = header.readUInt32LE(12);
      const count = header.readDoubleLE(16);
      if (!Number.isSafeInteger(count) || count < 0 || dimension === 0) {
        throw new AppError('io', `${path} has a corrupt header`);
      }
      const expected = VectorStore.HEADER_BYTES + count * 8 + count * dimension * 4;
      if (fileSize !== expected) {
        throw new AppError('io', `${path} is ${fileSize} bytes, expected ${expected}`);
      }
      const store = new VectorStore(dimension);
      const ids = new Float64Array(count);
      let pos = VectorStore.HEADER_BYTES;
      readAll(fd, new Uint8Array(ids.buffer), pos);
      pos += ids.byteLength;
      for (let c = 0; c * VectorStore.CHUNK_ROWS < count; c++) {
        const chunk = new Float32Array(VectorStore.CHUNK_ROWS * dimension);
        const rows = Math.min(VectorStore.CHUNK_ROWS, count - c * VectorStore.CHUNK_ROWS);
        const bytes = new Uint8Array(chunk.buffer, 0, rows * dimension * 4);
        readAll(fd, bytes, pos);
        pos += bytes.byteLength;
        store.chunks.push(chunk);
      }
      for (let slot = 0; slot < count; slot++) {
        const id = ids[slot]!;
        if (!Number.isSafeInteger(id) || id < 0 || store.slotOf.has(id)) {
          throw new AppError('io', `${path} holds an invalid or repeated id`);
        }
        store.slotIds.push(id);
        store.slotOf.set(id, slot);
      }
      return store;
    } finally {
      fs.closeSync(fd);
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  // Large views are written in slices: one write call may return short, and 2 GB is past its limit.
  const step = 1 << 26;
  for (let off = 0; off < bytes.byteLength; ) {
    const n = fs.writeSync(fd, bytes, off, Math.min(step, bytes.byteLength - off));
    off += n;
  }
}

function readAll(fd: number, bytes: Uint8Array, position: number): void {
  const step = 1 << 26;
  for (let off = 0; off < bytes.byteLength; ) {
    const n = fs.readSync(fd, bytes, off, Math.min(step, bytes.byteLength - off), position + off);
    if (n === 0) throw new AppError('io', 'vector store file ended early');
    off += n;
  }
}
