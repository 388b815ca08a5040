import { nativeImage, shell, type BrowserWindow } from 'electron';
import { AppError } from '../../src-shared/errors';
import type { DesktopShell } from '../core/files/files-handlers';

/** A 1x1 transparent PNG: startDrag needs an icon on macOS when the clip has no poster yet. */
const BLANK_ICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Electron's side of the hand-off: the OS file manager, the default player, and real file drags. */
export function createDesktopShell(window: () => BrowserWindow | null): DesktopShell {
  return {
    reveal: (file) => shell.showItemInFolder(file),
    open: async (file) => {
      const err = await shell.openPath(file);
      if (err) throw new AppError('io', err);
    },
    startDrag: (files, icon) => {
      const w = window();
      if (!w || files.length === 0) return;
      const img = icon ? nativeImage.createFromPath(icon).resize({ width: 96 }) : nativeImage.createFromDataURL(BLANK_ICON);
      w.webContents.startDrag({ file: files[0]!, files, icon: img.isEmpty() ? nativeImage.createFromDataURL(BLANK_ICON) : img });
    },
  };
}
