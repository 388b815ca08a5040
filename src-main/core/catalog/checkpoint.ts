import type { Logger } from '../util/logger';
import type { CatalogDb } from './open-catalog';

/**
 * Moves everything in the WAL journal into the catalog file and empties the journal (TRUNCATE):
 * called after a user action that saves marks, so what the editor saved never lives only in a
 * journal a crash or a sync tool could damage. The app has one connection to its catalog, so the
 * checkpoint waits on no reader. A failure (a full disk) leaves the journal as it was: the save
 * itself stands.
 */
export function checkpointAfterSave(db: CatalogDb, logger?: Logger): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (e) {
    logger?.warn('catalog.checkpoint.failed', { message: (e as Error).message });
  }
}
