import fs from 'node:fs';
import { AppError } from '../../../src-shared/errors';

/**
 * Room the app keeps free in its data folder before it writes: a catalog transaction, its WAL, a
 * clip's thumbnails and the search index's next save all fit in it with a wide margin, so work
 * pauses on a clear message before SQLite or ffmpeg meet a full disk half-way through a write.
 */
export const DEFAULT_MIN_FREE_BYTES = 64 * 1024 * 1024;

export interface DiskRoom {
  ok: boolean;
  freeBytes: number;
  neededBytes: number;
}

export interface DiskGuard {
  readonly dir: string;
  /** Free space now (read at most once a second), against the bar now (barAfterFullDisk). */
  room(): DiskRoom;
  /** A write met a full disk: the bar rises when the figures said there was room (barAfterFullDisk); the room after it. */
  metFullDisk(): DiskRoom;
  /** What the editor reads: the folder, what is free and what is needed (callers add what it means for them). */
  describe(room?: DiskRoom): string;
  /** Throws `disk_full` with describe()'s words unless there is room now: call before work that writes. */
  require(): void;
  /** A raw full-disk error (SQLite's "database or disk is full", ENOSPC) with describe()'s words. */
  explain(e: AppError): AppError;
}

/** "3.2 MB", "1.4 GB": decimal units, as file managers show free space. */
export function formatBytes(n: number): string {
  if (n < 1e6) return `${Math.max(0, Math.round(n / 1e3))} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;
  return `${(n / 1e9).toFixed(1)} GB`;
}

/** Bytes an unprivileged writer may still use on the file system holding `dir` (Infinity when it cannot be read). */
export function freeBytes(dir: string): number {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}

/**
 * The room needed after a write met a full disk. When the figures said there was room, that write
 * needed more than was free: waiting for the same bar would start it again into the same wall, with
 * words saying "105 MB free; needs at least 67 MB". The bar rises to what is free now plus the
 * reserve, for the rest of the run, so work waits for room that fits and the words agree with the
 * figures. No reserve (0: no check before work) stays none.
 */
export function barAfterFullDisk(needed: number, reserve: number, free: number): number {
  if (reserve === 0 || free < needed || !Number.isFinite(free)) return needed;
  return free + reserve;
}

export function createDiskGuard(dir: string, reserve = DEFAULT_MIN_FREE_BYTES, read: (dir: string) => number = freeBytes): DiskGuard {
  let cached: { at: number; room: DiskRoom } | null = null;
  let neededBytes = reserve;
  const room = (): DiskRoom => {
    const now = Date.now();
    if (cached && now - cached.at < 1000) return cached.room;
    const free = read(dir);
    cached = { at: now, room: { ok: free >= neededBytes, freeBytes: free, neededBytes } };
    return cached.room;
  };
  const metFullDisk = (): DiskRoom => {
    cached = null;
    neededBytes = barAfterFullDisk(neededBytes, reserve, room().freeBytes);
    cached = null;
    return room();
  };
  const describe = (r = room()) => `The disk holding ${dir} has ${formatBytes(r.freeBytes)} free; Reelscout needs at least ${formatBytes(r.neededBytes)} free there to save its work.`;
  return {
    dir,
    room,
    metFullDisk,
    describe,
    require() {
      const r = room();
      if (!r.ok) throw new AppError('disk_full', describe(r));
    },
    explain(e) {
      if (e.kind !== 'disk_full') return e;
      return new AppError('disk_full', describe(metFullDisk()), { cause: e });
    },
  };
}

/**
 * A full disk's catalog opens for writing again only with a tenth of the bar to spare: at the bar
 * itself, a disk that hovers there (a render writing beside the library, a cache trimming itself)
 * would flip the library between read-only and writable, and rebuild the app, at every look. The
 * editor is told the raised figure, so "has X free; needs Y" never reads X above Y while it waits.
 */
export function roomToReopen(room: DiskRoom): DiskRoom {
  const neededBytes = room.neededBytes + Math.ceil(room.neededBytes / 10);
  return { ok: room.freeBytes >= neededBytes, freeBytes: room.freeBytes, neededBytes };
}
