import type { ArgsOut } from '../../../src-shared/contract';
import type { exportMethods } from '../../../src-shared/contract/export';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { WEB_HAND_OFF_REASON, type DesktopShell } from '../files/files-handlers';
import type { PersonPresence } from '../people/person-presence';
import type { HandlersFor } from '../rpc/handlers';
import { createTagResolutionStore } from '../search/query/tag-resolution-store';
import { buildExportDocument } from './build-export-document';
import { writeExport } from './write-export';

/** `presence`: where named people are, which the files carry as keywords, markers and a column (the app's one store). */
export function createExportHandlers(db: CatalogDb, desktop: DesktopShell | undefined, presence: PersonPresence): HandlersFor<typeof exportMethods> {
  const reads = { tags: createTagResolutionStore(db), presence };
  const build = ({ format, selection, title }: ArgsOut<'export.build'>) => {
    const { doc, skipped } = buildExportDocument(db, reads, selection, title);
    if (doc.items.length === 0) throw new AppError('invalid', skipped[0]?.reason ?? 'nothing selected to export');
    return { ...writeExport(format, doc), items: doc.items.length, skipped };
  };
  return {
    'export.plan': (args) => {
      const { files, ...rest } = build(args);
      return { ...rest, fileNames: files.map((f) => f.fileName) };
    },
    'export.build': build,
    'export.save': async (args) => {
      if (!desktop) throw new AppError('invalid', `${WEB_HAND_OFF_REASON} Exports are saved as browser downloads.`);
      const { files, ...rest } = build(args);
      return { ...rest, savedTo: await desktop.saveFiles(files) };
    },
  };
}
