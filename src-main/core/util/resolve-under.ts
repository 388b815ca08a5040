import fs from 'node:fs';
import path from 'node:path';

/** `p` is root itself or below it (both already resolved the same way). */
export function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Resolves a decoded relative path under root, refusing anything that escapes it: by its text
 * ("..", absolute parts) and, for a file that exists, by where it really is, so a symbolic link
 * placed in a served folder cannot hand out /etc/passwd. Returns the real path of an existing
 * file (what is opened is what was checked), the resolved path of a missing one.
 */
export function resolveUnder(root: string, relPath: string): string | null {
  if (relPath.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + relPath.replace(/\\/g, '/')));
  if (!inside(path.resolve(root), full)) return null;
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch {
    return full;
  }
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return null;
  }
  return inside(realRoot, real) ? real : null;
}
