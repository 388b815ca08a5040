import path from 'node:path';

/** Resolves a decoded relative path under root, refusing anything that escapes it. */
export function resolveUnder(root: string, relPath: string): string | null {
  if (relPath.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + relPath.replace(/\\/g, '/')));
  const rootResolved = path.resolve(root);
  return full === rootResolved || full.startsWith(rootResolved + path.sep) ? full : null;
}
