import fsp from 'node:fs/promises';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { pathOf } from './clip-store';
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
    const clip = pathOf(db, clipId);
    if (!clip) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
    if (clip.sourceUrl) throw new AppError('invalid', `${clip.fileName} lives at a URL (${clip.sourceUrl}): there is no file to hand over`);
    if (!clip.online) throw new AppError('not_found', `the drive "${clip.volumeLabel}" of ${clip.fileName} is not connected`);
    const abs = clip.path;
    if (clip.missing) throw new AppError('not_found', `${clip.fileName} is no longer at ${abs}`);
    let real: string;
    let st: Awaited<ReturnType<typeof fsp.stat>>;
    try {
      real = await fsp.realpath(abs);
      st = await fsp.stat(real);
    } catch {
      throw new AppError('not_found', `${clip.fileName} is no longer at ${abs}`);
    }
    const replaced = () => new AppError('invalid', `${abs} is not the file catalogued as ${clip.fileName} (replaced or changed since): import its folder again`);
    if (!st.isFile()) throw replaced();
    const identity = [real, st.dev, st.ino, st.size, Math.floor(st.mtimeMs), clip.fingerprint].join('\0');
    if (verified.get(clipId) === identity) return real;
    verified.delete(clipId);
    if (clip.fingerprint === null || st.size !== clip.sizeBytes) throw replaced();
    let fingerprint: string;
    try {
      fingerprint = await fingerprintFile(real, st.size);
    } catch (e) {
      throw new AppError('io', `cannot read ${abs}: ${(e as Error).message}`, { cause: e });
    }
    if (fingerprint !== clip.fingerprint) throw replaced();
    verified.set(clipId, identity);
    return real;
  };
}
