import { afterEach, beforeEach } from 'vitest';
import type { CatalogDb } from '../../../src-main/core/catalog/open-catalog';
import { tempDir } from '../paths';
import { openTestCatalog } from './search-catalog';

// Apart from search-catalog.ts, which children started outside vitest import (search-start-child.ts):
// importing vitest there fails.

/** A fresh catalog file for each test of the calling file, handed to `use`; closed and removed after the test. */
export function catalogPerTest(use: (db: CatalogDb) => void): void {
  let close = () => {};
  beforeEach(() => {
    const t = tempDir();
    const db = openTestCatalog(t.dir);
    close = () => {
      db.close();
      t.cleanup();
    };
    use(db);
  });
  afterEach(() => close());
}
