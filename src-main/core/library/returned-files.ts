import fs from 'node:fs';
import type { CatalogDb } from '../catalog/open-catalog';
import { clearClipMissing } from './clips-repository';
import { missingClipsOnline } from './clip-place-store';

/**
 * Clips of connected drives marked missing whose file is at its path again (a folder renamed back,
 * a card put back in its reader): the mark goes. A batch at a time, going round from `afterId`,
 * so a library with thousands of files deleted for good costs a few hundred stats per check.
 * Returns the clips found back and where the next batch starts.
 */
export function findReturnedFiles(db: CatalogDb, afterId: number, batch = 200): { back: number[]; nextAfter: number } {
  const rows = missingClipsOnline(db, afterId, batch);
  const back = rows.filter((r) => {
    try {
      return fs.statSync(r.path).isFile();
    } catch {
      return false;
    }
  });
  if (back.length > 0) db.transaction(() => back.forEach((r) => clearClipMissing(db, r.id)))();
  return { back: back.map((r) => r.id), nextAfter: rows.length < batch ? 0 : rows.at(-1)!.id };
}
