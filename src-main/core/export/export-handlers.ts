import type { exportMethods } from '../../../src-shared/contract/export';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import type { HandlersFor } from '../rpc/handlers';
import { buildExportDocument } from './build-export-document';
import { writeExport } from './write-export';

export function createExportHandlers(db: CatalogDb): HandlersFor<typeof exportMethods> {
  return {
    'export.build': ({ format, selection, title }) => {
      const name = title ?? `Reelscout selects ${new Date().toISOString().slice(0, 10)}`;
      const { doc, skipped } = buildExportDocument(db, selection, name);
      if (doc.items.length === 0) throw new AppError('invalid', skipped[0]?.reason ?? 'nothing selected to export');
      return { ...writeExport(format, doc), items: doc.items.length, skipped };
    },
  };
}
