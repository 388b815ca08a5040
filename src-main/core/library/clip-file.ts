import fsp from 'node:fs/promises';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipAbsPath, getClipRow } from './clip-store';
import { fingerprintFile } from './fingerprint';

/** The real file of a catalogued clip, checked to be the one catalogued; throws an AppError saying why not. */
export type ClipFileCheck = (clipId: number) => Promise<string>;

/**
 * The one resolver behind everything that hands a clip's file out: playback over `/media` (web)
 * and `rs-media://` (Electron), Open, Reveal and drag. The catalog holds a path, and what is at
 * that path can change after the import: a file replaced, or swapped for a symbolic link to
 * /etc/passwd. So at every open the path is resolved to its real file, which must be a regular
 * file of the catalogued size and fingerprint (size + first and last 64 KiB). A file verified once
 * is not read again while its real path, device, inode, size and date stay the same (a player
 * sends many range requests); anything else about it is checked afresh.
 */
export function createClipFileCheck(db: CatalogDb): ClipFileCheck {
  const verified = new Map<number, string>();
  return async (clipId) => {
    const row = getClipRow(db, clipId);
    if (row.source_url) throw new AppError('invalid', `${row.file_name} lives at a URL (${row.source_url}): there is no file to hand over`);
    if (!row.online) throw new AppError('not_found', `the drive "${row.volume_label ?? row.mount_path}" of ${row.file_name} is not connected`);
    const abs = clipAbsPath(row);
    if (row.missing_at !== null) throw new AppError('not_found', `${row.file_name} is no longer at ${abs}`);
    let real: string;
    let st: Awaited<ReturnType<typeof fsp.stat>>;
    try {
      real = await fsp.realpath(abs);
      st = await fsp.stat(real);
    } catch {
      throw new AppError('not_found', `${row.file_name} is no longer at ${abs}`);
    }
    const replaced = () => new AppError('invalid', `${abs} is not the file catalogued as ${row.file_name} (replaced or changed since): import its folder again`);
    if (!st.isFile()) throw replaced();
    const identity = [real, st.dev, st.ino, st.size, Math.floor(st.mtimeMs), row.fingerprint].join('\0');
    if (verified.get(clipId) === identity) return real;
    verified.delete(clipId);
    if (row.fingerprint === null || st.size !== row.size_bytes) throw replaced();
    let fingerprint: string;
    try {
      fingerprint = await fingerprintFile(real, st.size);
    } catch (e) {
      throw new AppError('io', `cannot read ${abs}: ${(e as Error).message}`, { cause: e });
    }
    if (fingerprint !== row.fingerprint) throw replaced();
    verified.set(clipId, identity);
    return real;
  };
}
