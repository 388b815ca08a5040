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

function readOwner(file: string): LockOwner | null {
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
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
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      return {
        file,
        release() {
          // Only our own lock: a takeover by another process after ours was judged stale stays.
          if (readOwner(file)?.pid === me.pid && readOwner(file)?.startedAt === me.startedAt) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new AppError('io', `cannot lock the data folder ${dataDir}: ${(e as Error).message}`);
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
    fs.rmSync(file, { force: true });
  }
  throw new AppError('io', `cannot lock the data folder ${dataDir}: it keeps changing hands`);
}
