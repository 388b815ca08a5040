import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors';

export const LOCK_NAME = 'reelscout.lock';

const ownerSchema = z.object({ pid: z.number().int().positive(), host: z.string(), transport: z.string(), startedAt: z.number() });
export type LockOwner = z.infer<typeof ownerSchema>;

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Whether a process of this machine is alive (EPERM: alive, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Errors of a disk with no room for the lock's few bytes: the owner goes in a file name instead. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
const NAMED_PREFIX = `${LOCK_NAME}.owner-`;

/** The empty files beside the lock whose names hold its owner (written on a full disk). */
function namedOwnerFiles(file: string): string[] {
  const dir = path.dirname(file);
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(NAMED_PREFIX))
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    const inFile = parseOwner(fs.readFileSync(file, 'utf8'));
    if (inFile) return inFile;
  } catch {
    return null;
  }
  for (const f of namedOwnerFiles(file)) {
    const owner = parseOwner(Buffer.from(path.basename(f).slice(NAMED_PREFIX.length), 'base64url').toString('utf8'));
    if (owner) return owner;
  }
  return null;
}

/**
 * The lock file is created empty and exclusively, then its owner written in it. With no byte free
 * (a restart on a full disk must still open the library read-only) the owner goes in the name of an
 * empty file beside it: a name takes no data block, and another start can still tell who holds it.
 */
function writeOwner(file: string, me: LockOwner): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    try {
      fs.writeSync(fd, JSON.stringify(me));
    } catch (e) {
      if (!NO_ROOM.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      fs.ftruncateSync(fd, 0);
      // Holding the lock file, any owner name beside it is a dead owner's.
      for (const f of namedOwnerFiles(file)) fs.rmSync(f, { force: true });
      fs.closeSync(fs.openSync(path.join(path.dirname(file), NAMED_PREFIX + Buffer.from(JSON.stringify(me)).toString('base64url')), 'wx', 0o600));
    }
  } catch (e) {
    // A lock without an owner would be taken over by the next start: none is left.
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw e;
  }
  fs.closeSync(fd);
}

function removeLock(file: string): void {
  for (const f of namedOwnerFiles(file)) fs.rmSync(f, { force: true });
  fs.rmSync(file, { force: true });
}

/** Why the lock file could not be made, in words (the system's own are in the cause, for the log). */
function lockRefusal(code: string | undefined): string {
  if (code === 'EACCES' || code === 'EPERM') return 'Reelscout is not allowed to write in it; choose a folder you can write to';
  if (code === 'EROFS') return 'the disk holding it is read-only';
  if (code !== undefined && NO_ROOM.has(code)) return 'the disk holding it is full, without room even for an empty file; free some space there';
  return 'a file cannot be created in it; check that the folder exists and its disk is connected';
}

/**
 * One process per data folder, taken before anything is opened or recovered: a second instance
 * would otherwise put the first one's running jobs back in the queue and send them again. The lock
 * is a file created exclusively, holding the owner's pid; one left by a process that no longer runs
 * on this machine is taken over. The refusal names the process that holds it.
 */
export function acquireDataDirLock(dataDir: string, transport: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_NAME);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), transport, startedAt: Date.now() };
  for (let tries = 0; tries < 3; tries++) {
    try {
      writeOwner(file, me);
      return {
        file,
        release() {
          // Only our own lock: a takeover by another process after ours was judged stale stays.
          const owner = readOwner(file);
          if (owner?.pid === me.pid && owner.startedAt === me.startedAt) removeLock(file);
        },
      };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new AppError('io', `cannot lock the data folder ${dataDir}: ${lockRefusal(code)}`, { cause: e });
    }
    const owner = readOwner(file);
    const held = owner !== null && (owner.host !== me.host || alive(owner.pid));
    if (held) {
      const since = new Date(owner.startedAt).toISOString();
      const where = owner.host === me.host ? `process ${owner.pid}` : `process ${owner.pid} on ${owner.host}`;
      throw new AppError('invalid', `${dataDir} is in use by another Reelscout (${where}, ${owner.transport}, since ${since}): close it first, or start this one with another data folder`);
    }
    // A dead owner (or an unreadable lock): take it over. Removing and re-creating with wx keeps
    // two newcomers from both winning.
    removeLock(file);
  }
  throw new AppError('io', `cannot lock the data folder ${dataDir}: it keeps changing hands`);
}
