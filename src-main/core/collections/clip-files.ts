import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { reachClipFile } from '../library/clip-reach';
import { clipNames, pathOf } from '../library/clip-store';
import { clipIdsBelow } from '../library/clip-place-store';

/** The few facts about a catalogued clip that a collection upload needs, from the library's own reads. */
export interface ClipFile {
  clipId: number;
  path: string;
  fileName: string;
  sizeBytes: number;
  mtimeMs: number;
  container: string | null;
  durationS: number | null;
  fingerprint: string | null;
}

export function createClipFiles(db: CatalogDb) {
  return {
    /** The clip as it is on disk now; `unplugged` (the upload waits) when its drive or the file is away. */
    resolve(clipId: number): ClipFile {
      const c = pathOf(db, clipId);
      if (!c) throw new AppError('not_found', `clip ${clipId} is not in the catalog`);
      const st = reachClipFile(db, c);
      return {
        clipId: c.clipId,
        path: c.path,
        fileName: c.fileName,
        // The file on disk is what gets sent: trust its size over the catalog's.
        sizeBytes: st.size,
        mtimeMs: st.mtimeMs,
        container: c.container,
        durationS: c.durationS,
        fingerprint: c.fingerprint,
      };
    },

    exists(clipIds: readonly number[]): Map<number, string> {
      return clipNames(db, clipIds);
    },

    /** Catalogued clips whose file lies under the folder (any depth), in id order. */
    underFolder(folder: string): number[] {
      return clipIdsBelow(db, folder);
    },
  };
}

export type ClipFiles = ReturnType<typeof createClipFiles>;
