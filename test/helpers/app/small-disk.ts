import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A small tmpfs at `dir` (root only), so a test can fill the disk a data folder is on. Returns the
 * reason when it cannot be mounted, so the test says why it skipped; null when mounted.
 */
export function mountSmallDisk(dir: string, sizeMb: number): string | null {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (e) {
    return `cannot mount a ${sizeMb} MiB tmpfs for the data folder (needs root and mount): ${(e as Error).message.split('\n')[0]}`;
  }
}

/** Unmounts what mountSmallDisk mounted (lazily: a file still open in it does not stop the test). */
export function unmountSmallDisk(dir: string): void {
  execFileSync('umount', ['-l', dir]);
}

/** Writes a file until the disk refuses, leaving `leave` bytes free (0: nothing). */
export function fillDisk(file: string, leave = 0): void {
  const fd = fs.openSync(file, 'w');
  try {
    const s = fs.statfsSync(path.dirname(file));
    let room = s.bavail * s.bsize - leave;
    const chunk = Buffer.alloc(1024 * 1024, 1);
    while (room > 0) {
      try {
        room -= fs.writeSync(fd, chunk, 0, Math.min(chunk.length, room));
      } catch {
        break;
      }
    }
    if (leave === 0) {
      // Whatever the statfs count missed: to the last byte.
      for (;;) {
        try {
          fs.writeSync(fd, chunk, 0, 4096);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
