import type { filesMethods } from '../../../src-shared/contract/files';
import { AppError } from '../../../src-shared/errors';
import type { CatalogDb } from '../catalog/open-catalog';
import { clipAbsPath, getClipRow } from '../library/clip-store';
import type { HandlersFor } from '../rpc/handlers';

/**
 * What only a desktop shell can do with a real file. Electron implements it (src-main/ipc/desktop-shell.ts);
 * the web transport has none: a page cannot show a file in the Finder, and a browser drag carries
 * no file path another application could open.
 */
export interface DesktopShell {
  reveal(file: string): void;
  open(file: string): Promise<void>;
  /** `icon`: a poster to show under the pointer (null: the shell's own). */
  startDrag(files: string[], icon: string | null): void;
  /**
   * Asks the user where to save built files (the system's save dialog; a folder for several) and
   * writes them there. Returns the paths written; none when the user cancelled.
   */
  saveFiles(files: { fileName: string; text: string }[]): Promise<string[]>;
}

export const WEB_HAND_OFF_REASON =
  'In the browser Reelscout cannot hand a real file to another application: dragging out, Reveal and Open need the desktop app. Copy path works.';

export function createFilesHandlers(db: CatalogDb, desktop: DesktopShell | undefined, posterOf: (clipId: number) => string | null): HandlersFor<typeof filesMethods> {
  const need = (): DesktopShell => {
    if (!desktop) throw new AppError('invalid', WEB_HAND_OFF_REASON);
    return desktop;
  };
  /** A clip whose file is reachable now: an offline drive or a missing file is said, not opened. */
  const fileOf = (clipId: number): string => {
    const row = getClipRow(db, clipId);
    if (row.source_url) throw new AppError('invalid', `${row.file_name} lives at a URL (${row.source_url}): there is no file to hand over`);
    if (!row.online) throw new AppError('not_found', `the drive "${row.volume_label ?? row.mount_path}" of ${row.file_name} is not connected`);
    if (row.missing_at !== null) throw new AppError('not_found', `${row.file_name} is no longer at ${clipAbsPath(row)}`);
    return clipAbsPath(row);
  };
  return {
    'files.capabilities': () => ({ desktop: desktop !== undefined, why: desktop ? null : WEB_HAND_OFF_REASON }),
    'files.reveal': ({ clipId }) => {
      const file = fileOf(clipId);
      need().reveal(file);
      return { ok: true as const };
    },
    'files.open': async ({ clipId }) => {
      const file = fileOf(clipId);
      await need().open(file);
      return { ok: true as const };
    },
    'files.startDrag': ({ clipIds }) => {
      const files = clipIds.map(fileOf);
      need().startDrag(files, posterOf(clipIds[0]!));
      return { ok: true as const };
    },
  };
}
