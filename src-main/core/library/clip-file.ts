import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { openVerified, sameIdentity, type FileIdentity, type OpenedFile } from '../util/open-verified';
import { awayWhy } from './clip-reach';
import { pathOf } from './clip-store';
import { fingerprintOf } from './fingerprint';

/** A catalogued clip's file open for reading, checked to be the one catalogued; or an AppError value saying why not. */
export type ClipFileOpen = (clipId: number) => Promise<OpenedFile | AppError>;
/** The real path of a catalogued clip, checked as ClipFileOpen does; throws an AppError saying why not. */
export type ClipFileCheck = (clipId: number) => Promise<string>;

export interface ClipFiles {
  /** For serving: the caller streams from the descriptor and closes it. */
  open: ClipFileOpen;
  /** For handing a path to another application (Open, Reveal, drag), which opens it itself. */
  check: ClipFileCheck;
}

/**
 * The one resolver behind everything that hands a clip's file out: playback over `/media` (web)
 * and `rs-media://` (Electron), Open, Reveal and drag. The catalog holds a path, and what is at
 * that path can change after the import: a file replaced, or swapped for a symbolic link to
 * /etc/passwd. So at every open the file is opened once (util/open-verified.ts: no link followed
 * past its real path, the descriptor proven to be what the path names) and the descriptor must be
 * a regular file of the catalogued size and fingerprint (size + first and last 64 KiB), read from
 * the descriptor itself. A file verified once is not read again while its real path, device,
 * inode, size and date stay the same (a player sends many range requests); anything else about it
 * is checked afresh.
 */
export function createClipFiles(db: CatalogDb): ClipFiles {
  const verified = new Map<number, { real: string; identity: FileIdentity; fingerprint: string }>();
  const open: ClipFileOpen = async (clipId) => {
    const clip = pathOf(db, clipId);
    if (!clip) return new AppError('not_found', `clip ${clipId} is not in the catalog`);
    if (clip.sourceUrl) return new AppError('invalid', `${clip.fileName} lives at a URL (${clip.sourceUrl}): there is no file to hand over`);
    if (!clip.online) return new AppError('not_found', clip.teamShare ? awayWhy(clip) : `the drive "${clip.volumeLabel}" of ${clip.fileName} is not connected`);
    const abs = clip.path;
    if (clip.missing) return new AppError('not_found', `${clip.fileName} is no longer at ${abs}`);
    const replaced = () => new AppError('invalid', `${abs} is not the file catalogued as ${clip.fileName} (replaced or changed since): import its folder again`);
    const file = await openVerified(abs);
    if (file instanceof AppError) return file.kind === 'not_found' ? new AppError('not_found', `${clip.fileName} is no longer at ${abs}`) : file.kind === 'io' ? file : replaced();
    const refuse = async (err: AppError) => {
      await file.handle.close().catch(() => undefined);
      return err;
    };
    const seen = verified.get(clipId);
    if (seen && seen.real === file.real && seen.fingerprint === clip.fingerprint && sameIdentity(seen.identity, file.identity)) return file;
    verified.delete(clipId);
    if (clip.fingerprint === null || file.identity.size !== clip.sizeBytes) return refuse(replaced());
    let fingerprint: string;
    try {
      fingerprint = await fingerprintOf(file.handle, file.identity.size);
    } catch (e) {
      return refuse(new AppError('io', `cannot read ${abs}: ${(e as Error).message}`, { cause: e }));
    }
    if (fingerprint !== clip.fingerprint) return refuse(replaced());
    verified.set(clipId, { real: file.real, identity: file.identity, fingerprint });
    return file;
  };
  return {
    open,
    async check(clipId) {
      const file = await open(clipId);
      if (file instanceof AppError) throw file;
      await file.handle.close();
      return file.real;
    },
  };
}
