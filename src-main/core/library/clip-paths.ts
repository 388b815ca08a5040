import path from 'node:path';

/** Where thumbnails live inside the app cache; thumbnail paths in the catalog are relative to it. */
export function thumbnailDir(cacheDir: string): string {
  return path.join(cacheDir, 'thumbs');
}

/** Absolute path of a file from its volume's mount path and its '/'-separated path on it. */
export function joinOnVolume(mountPath: string, relPath: string): string {
  return relPath ? path.join(mountPath, ...relPath.split('/')) : path.normalize(mountPath);
}

/** Path of `abs` on the volume mounted at `mountPath`, '/'-separated; null when it is not inside. */
export function relativeOnVolume(mountPath: string, abs: string): string | null {
  const rel = path.relative(mountPath, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/**
 * Bounds for "every rel_path under folder": [prefix + '/', prefix + '0') in binary order, because
 * '0' follows '/' in ASCII. Lets SQLite answer folder filters from the (volume_id, rel_path) index.
 */
export function folderRange(relFolder: string): { lo: string; hi: string } | null {
  if (relFolder === '') return null;
  return { lo: `${relFolder}/`, hi: `${relFolder}0` };
}
