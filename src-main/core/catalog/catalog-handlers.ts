import type { catalogMethods, CatalogHealth } from '../../../src-shared/contract/catalog';
import type { HandlersFor } from '../rpc/handlers';

/** What the handlers need of the catalog session (catalog-session.ts). */
export interface CatalogControl {
  health(): CatalogHealth;
  restore(backupId: string): Promise<CatalogHealth>;
  startNew(): Promise<CatalogHealth>;
}

/**
 * The catalog's state, a backup put back in one call, a new catalog in place of a damaged one.
 * They answer in every state, damaged included: they are how the editor gets out of it.
 */
export function createCatalogHandlers(session: CatalogControl): HandlersFor<typeof catalogMethods> {
  return {
    'catalog.health': () => session.health(),
    'catalog.restore': ({ backupId }) => session.restore(backupId),
    'catalog.startNew': () => session.startNew(),
  };
}
