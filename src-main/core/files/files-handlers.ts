import type { filesMethods } from '../../../src-shared/contract/files';
import { AppError } from '../../../src-shared/errors';
import type { ClipFileCheck } from '../library/clip-file';
import type { HandlersFor } from '../rpc/handlers';

/**
 * What only a desktop shell can do with a real file. Electron implements it (src-main/ipc/desktop-shell.ts);
 * the web transport has none: a page cannot show a file in the Finder, and a browser drag carries
 * no file path another application could open.
 */
export interface DesktopShell {
  reveal(file: string): void;
  open(file: string): Promise<void>;
  /** `icon`: a poster's bytes to show under the pointer, read from its checked descriptor (null: the shell's own). */
  startDrag(files: string[], icon: Buffer | null): void;
  /**
   * Asks the user where to save built files (the system's save dialog; a folder for several) and
   * writes them there. Returns the paths written; none when the user cancelled.
   */
  saveFiles(files: { fileName: string; text: string }[]): Promise<string[]>;
}

export const WEB_HAND_OFF_REASON =
  'In the browser Reelscout cannot hand a real file to another application: dragging out, Reveal and Open need the desktop app. Copy path works.';

/**
 * `fileOf` is the app's one clip-file resolver (library/clip-file.ts, also behind playback): an
 * offline drive, a missing file or one replaced since it was catalogued is said, not handed over.
 */
export function createFilesHandlers(fileOf: ClipFileCheck, desktop: DesktopShell | undefined, posterOf: (clipId: number) => Promise<Buffer | null>): HandlersFor<typeof filesMethods> {
  const need = (): DesktopShell => {
    if (!desktop) throw new AppError('invalid', WEB_HAND_OFF_REASON);
    return desktop;
  };
  return {
    'files.capabilities': () => ({ desktop: desktop !== undefined, why: desktop ? null : WEB_HAND_OFF_REASON }),
    'files.reveal': async ({ clipId }) => {
      const file = await fileOf(clipId);
      need().reveal(file);
      return { ok: true as const };
    },
    'files.open': async ({ clipId }) => {
      const file = await fileOf(clipId);
      await need().open(file);
      return { ok: true as const };
    },
    'files.startDrag': async ({ clipIds }) => {
      const files = await Promise.all(clipIds.map(fileOf));
      need().startDrag(files, await posterOf(clipIds[0]!));
      return { ok: true as const };
    },
  };
}
